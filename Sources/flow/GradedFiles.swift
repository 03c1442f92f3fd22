import FlowLive
#if canImport(Glibc)
import Glibc
#endif

/// The files `flow grade` grades, found without following a link and each
/// read once, by the grader, from the descriptor it opened: a student
/// cannot swap a file between the check and the read, point a `*.flow`
/// link at a file outside the class (it is not followed, and nothing of it
/// is shown), or name a FIFO `x.flow` to hang the grader.
enum GradedFiles {
    /// A file found, and what reading it gave.
    struct Found {
        /// Where it is, to open it.
        var path: String
        /// As reports show it: as the teacher typed it, or relative to the
        /// graded folder when that was given as an absolute path, so a
        /// report never holds the teacher's absolute paths.
        var shown: String
        /// The graded folder it was found in, resolved, and as reports
        /// name it: messages that name it (a permission's) are rewritten.
        var folder: (resolved: String, shown: String)
        /// Its text, or why it is not graded.
        var content: Result<String, Refusal>
    }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The most a student's file may hold: a script, not a data set.
    static let largestScript = 1 << 20

    /// Each path: a folder is searched for `*.flow` (hidden entries and links
    /// left aside), a file is taken as given. nil for a path that does not
    /// exist. `stop` is asked between files (Ctrl-C).
    static func find(_ paths: [String], stop: () -> Bool) -> [Found]? {
        var found: [Found] = []
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 || stat(path, &info) == 0 else {
                Output.err("flow: no such file or folder: \(path)")
                return nil
            }
            var followed = stat()
            // A folder the teacher names is searched even through a link;
            // what lies below it is judged as it is.
            if stat(path, &followed) == 0, (followed.st_mode & S_IFMT) == S_IFDIR {
                var below: [String] = []
                var visited: Set<[UInt64]> = []
                collect(path, into: &below, visited: &visited)
                let absolute = path.hasPrefix("/")
                let prefix = path.hasSuffix("/") ? path : path + "/"
                let folder = (Permissions.resolve(path), absolute ? "." : String(prefix.dropLast()))
                for file in below.sorted() {
                    if stop() { return found }
                    let shown = absolute && file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
                    found.append(Found(path: file, shown: shown, folder: folder, content: read(file)))
                }
            } else {
                let parent = Permissions.folder(of: path)
                let shown = path.hasPrefix("/") ? String(path.split(separator: "/").last ?? "") : path
                found.append(Found(path: path, shown: shown, folder: (Permissions.resolve(parent), path.hasPrefix("/") ? "." : parent),
                                   content: read(path)))
            }
        }
        return found
    }

    private static func collect(_ folder: String, into found: inout [String], visited: inout Set<[UInt64]>) {
        var info = stat()
        guard stat(folder, &info) == 0, visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: collect(path, into: &found, visited: &visited)
            // A link or a FIFO named *.flow is listed, to be refused by `read`.
            default: if name.hasSuffix(".flow") { found.append(path) }
            }
        }
    }

    /// The file's text, read from one descriptor opened without following
    /// a link and without waiting (a FIFO opens at once), and only if that
    /// descriptor is a regular file.
    static func read(_ path: String) -> Result<String, Refusal> {
        if path.utf8.contains(0) { return .failure(Refusal(description: "not graded: the path contains a NUL character")) }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "a symbolic link, which flow grade does not follow" : String(cString: strerror(errno))
            return .failure(Refusal(description: "not graded: \(reason)"))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Refusal(description: "not graded: not a regular file"))
        }
        guard Int(info.st_size) <= largestScript else {
            return .failure(Refusal(description: "not graded: larger than \(largestScript >> 20) MB, not a script"))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= largestScript {
            let n = Glibc.read(descriptor, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        guard bytes.count <= largestScript else {
            return .failure(Refusal(description: "not graded: larger than \(largestScript >> 20) MB, not a script"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Refusal(description: "not graded: the file is not UTF-8 text"))
        }
        return .success(text)
    }
}
