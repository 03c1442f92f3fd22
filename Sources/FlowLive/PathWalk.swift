#if canImport(Glibc)
import Glibc
#endif

/// A path walked the way the kernel walks it, but one component at a
/// time, each opened with `O_NOFOLLOW` (as `openPathOnly`, which opens nothing
/// for reading and has no side effect) relative to the folder before it.
/// Symbolic links are read from the descriptor of the link itself and
/// followed by the walk, `..` goes back to the folder the walk came from,
/// so at the end the walk holds the folder that really contains the last
/// component, open, and knows its real path.
///
/// That is what makes a permission hold against a file system that changes
/// under it: the entry judged is `folder` + `name`, and what is then opened
/// is `name` relative to that open `folder`, again with `O_NOFOLLOW`. A
/// symlink swapped in after the walk makes that open fail (`ELOOP`), and
/// the caller walks again; it can never be followed unjudged.
struct PathWalk {
    /// The folder holding the entry, opened with `openPathOnly`; the walk's owner closes it.
    let folder: Int32
    /// The folder's real path.
    let folderPath: String
    /// The entry's name in the folder, which need not exist; `.` when the
    /// path names a folder by `/`, `.` or `..` at its end.
    let name: String

    /// The entry's real path.
    var path: String {
        if name == "." { return folderPath }
        return folderPath == "/" ? "/" + name : folderPath + "/" + name
    }

    func close() { _ = Glibc.close(folder) }

    /// Linux's `O_PATH` (Glibc's module leaves it out: it needs `_GNU_SOURCE`).
    static let openPathOnly: Int32 = 0o10000000

    /// As many symbolic links as Linux follows in one path.
    static let linkLimit = 40

    struct Failure: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
    }

    /// Walks `path` (relative paths from the current folder). `followLast`:
    /// whether a symlink as the last component is followed (reading,
    /// appending, replacing through it) or is itself the entry.
    static func walk(_ path: String, followLast: Bool) throws(Failure) -> PathWalk {
        var pending: [Substring] = []
        var folders: [(fd: Int32, path: String)] = []
        if path.hasPrefix("/") {
            try folders.append((openRoot(), "/"))
        } else {
            let cwd = currentFolder()
            try folders.append((openRoot(), "/"))
            pending = cwd.split(separator: "/").reversed()
        }
        // The components still to walk, last first, so a link's target is
        // pushed in front of what follows it.
        pending = Array(path.split(separator: "/").reversed()) + pending
        func closeAll(keeping kept: Int32? = nil) {
            for folder in folders where folder.fd != kept { _ = Glibc.close(folder.fd) }
        }
        var links = 0
        while let part = pending.popLast() {
            let top = folders[folders.count - 1]
            if part == "." { continue }
            if part == ".." {
                if folders.count > 1 { _ = Glibc.close(folders.removeLast().fd) }
                continue
            }
            let isLast = pending.allSatisfy { $0 == "." }
            let name = String(part)
            let fd = openat(top.fd, name, openPathOnly | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                let code = errno
                if code == ENOENT, isLast {
                    closeAll(keeping: top.fd)
                    return PathWalk(folder: top.fd, folderPath: top.path, name: name)
                }
                closeAll()
                throw Failure(code: code)
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let code = errno
                _ = Glibc.close(fd)
                closeAll()
                throw Failure(code: code)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK where !isLast || followLast:
                links += 1
                let target = readLink(fd)
                _ = Glibc.close(fd)
                guard links <= linkLimit, let target, !target.isEmpty else {
                    closeAll()
                    throw Failure(code: links > linkLimit ? ELOOP : ENOENT)
                }
                if target.hasPrefix("/") {
                    while folders.count > 1 { _ = Glibc.close(folders.removeLast().fd) }
                }
                pending.append(contentsOf: target.split(separator: "/").reversed())
            case S_IFDIR where !isLast:
                folders.append((fd, top.path == "/" ? "/" + name : top.path + "/" + name))
            default:
                _ = Glibc.close(fd)
                guard isLast else {
                    closeAll()
                    throw Failure(code: ENOTDIR)
                }
                closeAll(keeping: top.fd)
                return PathWalk(folder: top.fd, folderPath: top.path, name: name)
            }
        }
        // The path ended on a folder named by `/`, `.` or `..`.
        let top = folders[folders.count - 1]
        closeAll(keeping: top.fd)
        return PathWalk(folder: top.fd, folderPath: top.path, name: ".")
    }

    private static func openRoot() throws(Failure) -> Int32 {
        let fd = open("/", openPathOnly | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(code: errno) }
        return fd
    }

    /// The target of the link `fd` was opened on (`openPathOnly | O_NOFOLLOW`).
    private static func readLink(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlinkat(fd, "", &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func currentFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
