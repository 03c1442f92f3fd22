import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Files are judged on what is really opened: a path is walked one
/// component at a time (`PathWalk`), the entry it leads to is judged by its
/// real path, and that entry is opened relative to the folder the walk
/// holds open, with `O_NOFOLLOW`. Nothing is checked by name and opened by
/// name afterwards, so a symlink flipped between the two, a dangling
/// symlink, or `..` through a link cannot lead outside what is granted. A
/// new file is made with `O_CREAT | O_EXCL`, so a link planted at that name
/// meanwhile is never followed. A race the open loses (the entry became a
/// link after the walk) walks again, at most `PathWalk.linkLimit` times.
extension Access {
    /// Opens `path` for reading, for `operation` (`file.read`): non-blocking
    /// (a FIFO with no writer cannot hold the caller), never a controlling
    /// terminal. The caller owns the descriptor.
    public func openForReading(_ path: String, by operation: String) throws -> Int32 {
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        if isUnrestricted(.read) {
            try Self.checkName(path)
            let fd = open(path, flags)
            guard fd >= 0 else { throw Self.failure("read", path, errno) }
            return fd
        }
        return try opened(path, kind: .read, by: operation) { walk in
            openat(walk.folder, walk.name, flags | O_NOFOLLOW)
        }
    }

    /// What `file.watch` and `file.tail` see of `path` now: its status, or
    /// nil if nothing is there. Judged each time: a path that comes to name
    /// a denied file (a symlink swapped in) is a denial, not its size.
    public func status(of path: String, by operation: String) throws -> stat? {
        try Self.checkName(path)
        if isUnrestricted(.read) {
            var info = stat()
            return stat(path, &info) == 0 ? info : nil
        }
        for _ in 0...PathWalk.linkLimit {
            let walk = try walked(path, kind: .read, by: operation, followLast: true)
            defer { walk.close() }
            var info = stat()
            if fstatat(walk.folder, walk.name, &info, AT_SYMLINK_NOFOLLOW) != 0 { return nil }
            // A link here now was swapped in after the walk: walk again.
            if (info.st_mode & S_IFMT) != S_IFLNK { return info }
        }
        throw Self.failure("read", path, ELOOP)
    }

    /// Opens `path` for appending, making it if it is not there, for
    /// `operation` (`file.append`).
    public func openForAppending(_ path: String, by operation: String) throws -> Int32 {
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY
        if isUnrestricted(.write) {
            try Self.checkName(path)
            let fd = open(path, flags | O_CREAT, 0o666)
            guard fd >= 0 else { throw Self.failure("write", path, errno) }
            return fd
        }
        return try opened(path, kind: .write, by: operation) { walk in
            let fd = openat(walk.folder, walk.name, flags | O_NOFOLLOW)
            guard fd < 0, errno == ENOENT else { return fd }
            // Not there: made here, or, if something appeared meanwhile, walked again.
            return openat(walk.folder, walk.name, flags | O_NOFOLLOW | O_CREAT | O_EXCL, 0o666)
        }
    }

    /// Where `file.write` puts the file replacing `path`: the folder
    /// (open) and the name in it, after following symlinks as far as they
    /// lead, judged there. The writer makes its temporary file in that
    /// folder with `O_CREAT | O_EXCL` and renames it to the name.
    public func placeForReplacing(_ path: String, by operation: String) throws -> ReplacedFile {
        let walk = try walked(path, kind: .write, by: operation, followLast: true)
        return ReplacedFile(folder: walk.folder, name: walk.name, path: walk.path)
    }

    /// The folder and name a replaced file is renamed to; the owner closes `folder`.
    public struct ReplacedFile: Sendable {
        public let folder: Int32
        public let name: String
        /// Its real path, for messages.
        public let path: String
    }

    private func isUnrestricted(_ kind: Permissions.Kind) -> Bool {
        switch kind {
        case .read: return permissions.read == .all && permissions.deniedRead == .none && permissions.withheldRead.isEmpty
        case .write: return permissions.write == .all && permissions.deniedWrite == .none
        case .net: return permissions.net == .all && permissions.deniedNet == .none
        case .env: return permissions.env == .all && permissions.deniedEnv == .none
        }
    }

    /// Walks, judges, and opens with `open` relative to the walk's folder;
    /// an open that finds a link (`ELOOP`) or a file made meanwhile
    /// (`EEXIST`) lost a race and walks again.
    private func opened(_ path: String, kind: Permissions.Kind, by operation: String,
                        open: (PathWalk) -> Int32) throws -> Int32 {
        for _ in 0...PathWalk.linkLimit {
            let walk = try walked(path, kind: kind, by: operation, followLast: true)
            defer { walk.close() }
            let fd = open(walk)
            if fd >= 0 { return fd }
            let code = errno
            if code == ELOOP || code == EEXIST { continue }
            throw Self.failure(kind == .read ? "read" : "write", path, code)
        }
        throw Self.failure(kind == .read ? "read" : "write", path, ELOOP)
    }

    private func walked(_ path: String, kind: Permissions.Kind, by operation: String, followLast: Bool) throws -> PathWalk {
        try Self.checkName(path)
        let walk: PathWalk
        do { walk = try PathWalk.walk(path, followLast: followLast) } catch {
            // Whether something outside the grant exists is not for the
            // script to learn: where the path seems to lead is judged first.
            try judge(Permissions.resolve(path), as: path, by: operation, kind: kind)
            throw Self.failure(kind == .read ? "read" : "write", path, error.code)
        }
        do { try judge(walk.path, as: path, by: operation, kind: kind) } catch {
            walk.close()
            throw error
        }
        return walk
    }

    /// Whether the run may reach the file whose real path is `real`
    /// (written `path` in the script), for `operation`.
    func judge(_ real: String, as path: String, by operation: String, kind: Permissions.Kind) throws {
        let granted: Permissions.Scope, denied: Permissions.Scope, scopeName: String?, verb: String
        switch kind {
        case .read: (granted, denied, scopeName, verb) = (permissions.read, permissions.deniedRead, permissions.readScopeName, "reading")
        case .write: (granted, denied, scopeName, verb) = (permissions.write, permissions.deniedWrite, permissions.writeScopeName, "writing")
        case .net, .env: return
        }
        let shown = "\(operation) \(path.debugDescription)" + (real == path ? "" : " (\(real))")
        if kind == .read, let withheld = permissions.withheldRead.first(where: { Permissions.Scope.only([$0.path]).contains(path: real) }) {
            throw FlowError("\(shown): reading \(withheld.what) is not allowed (\(permissions.command) --allow-read=\(withheld.named) grants it)")
        }
        if denied.contains(path: real) {
            throw FlowError("\(shown): \(verb) it is denied by \(permissions.command) --deny-\(kind.rawValue)")
        }
        guard granted.contains(path: real) else {
            let what: String
            switch granted {
            case .only(let paths): what = "\(verb) outside \(scopeName ?? Permissions.listed(paths))"
            default: what = "\(verb) files"
            }
            let grant = permissions.suggestsFolders ? Permissions.folder(of: real) : real
            throw FlowError("\(shown): \(what) is not allowed (\(permissions.command) --allow-\(kind.rawValue)=\(grant) grants it)")
        }
    }

    /// C strings end at a NUL, so a path holding one would silently name another file.
    static func checkName(_ path: String) throws {
        if path.utf8.contains(0) { throw FlowError("the path \(path.debugDescription) contains a NUL character") }
        if path.isEmpty { throw FlowError("the path is empty") }
    }

    public static func failure(_ verb: String, _ path: String, _ code: Int32) -> FlowError {
        FlowError("cannot \(verb) \(path): \(String(cString: strerror(code)))")
    }
}
