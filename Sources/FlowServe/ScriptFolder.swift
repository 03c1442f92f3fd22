import Foundation

/// The files `flow serve` reads and writes: the scripts under the folder
/// it was given (or the one script), and nothing outside it. A path from
/// the page is refused if it is absolute, climbs with `..`, or leads out
/// of the folder through a symbolic link.
struct ScriptFolder: Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder, as a real path (symbolic links resolved).
    let root: String
    /// Serving one script: its path under `root`.
    let single: String?

    /// The largest script the page may load or save.
    static let largestScript = 1 << 20

    init(serving path: String) throws {
        guard let real = Self.realPath(path) else { throw Refused(description: "\(path): no such file or folder") }
        var isDirectory: ObjCBool = false
        FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory)
        if isDirectory.boolValue {
            root = real
            single = nil
        } else {
            guard real.hasSuffix(".flow") else { throw Refused(description: "\(path) is not a .flow script") }
            root = (real as NSString).deletingLastPathComponent
            single = (real as NSString).lastPathComponent
        }
    }

    /// The real path of a script named by the page, if it is one this
    /// folder serves.
    func resolve(_ relative: String) throws -> String {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0"), !relative.contains("\\") else {
            throw Refused(description: "'\(relative)' is not a path under the served folder")
        }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
            throw Refused(description: "'\(relative)' leaves the served folder")
        }
        guard relative.hasSuffix(".flow") else { throw Refused(description: "'\(relative)' is not a .flow script") }
        if let single, relative != single { throw Refused(description: "only \(single) is served") }
        guard let real = Self.realPath(root + "/" + relative) else { throw Refused(description: "'\(relative)': no such script") }
        guard real.hasPrefix(root + "/") else { throw Refused(description: "'\(relative)' leads out of the served folder") }
        return real
    }

    /// The scripts served, as paths under the folder, in order.
    func scripts() -> [String] {
        if let single { return [single] }
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String, found.count < 500 {
            if walker.level > 6 { walker.skipDescendants() }
            if path.hasSuffix(".flow"), (try? resolve(path)) != nil { found.append(path) }
        }
        return found.sorted()
    }

    func read(_ relative: String) throws -> String {
        let path = try resolve(relative)
        guard let data = FileManager.default.contents(atPath: path) else { throw Refused(description: "'\(relative)' cannot be read") }
        guard data.count <= Self.largestScript else { throw Refused(description: "'\(relative)' is larger than 1 MiB") }
        return String(decoding: data, as: UTF8.self)
    }

    func write(_ relative: String, _ text: String) throws {
        let path = try resolve(relative)
        guard text.utf8.count <= Self.largestScript else { throw Refused(description: "a script larger than 1 MiB is not saved") }
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw Refused(description: "'\(relative)' cannot be written: \(error.localizedDescription)")
        }
    }

    /// When a script last changed on disk.
    func modified(_ relative: String) -> Date? {
        guard let path = try? resolve(relative) else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
