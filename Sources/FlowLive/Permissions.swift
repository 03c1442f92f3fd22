#if canImport(Glibc)
import Glibc
#endif

/// What one run of a script may reach outside itself, spelled as Deno's
/// flags spell it: `--allow-read[=PATH,...]`, `--allow-write[=PATH,...]`,
/// `--allow-net[=HOST[:PORT],...]`, `--allow-all`, and `--deny-*` to take
/// away what a command grants by default. A denial wins over a grant.
///
/// Each command starts from its own defaults (`Permissions.everything` for
/// `flow run`, the REPL and `flow test`; `graded(folders:)` and
/// `served(folder:)` for the others) and the flags adjust them.
public struct Permissions: Sendable, Equatable {
    /// Paths or hosts a kind of access reaches.
    public enum Scope: Sendable, Equatable {
        case none
        case all
        /// Resolved folders or files (for paths), or `host[:port]` (for the network).
        case only([String])
    }

    public var read: Scope
    public var write: Scope
    public var net: Scope
    /// Environment variables `env` reads: names, as written. No command
    /// grants them by default (as in Deno): they hold secrets, and a job
    /// that names what it reads is one an operator can audit.
    public var env: Scope = .none
    /// Denials, which win over grants: `--deny-read=PATH` and friends.
    public var deniedRead: Scope = .none
    public var deniedWrite: Scope = .none
    public var deniedNet: Scope = .none
    /// How many redirects one HTTP request follows, each judged as a new
    /// request (`--max-redirects`).
    public var maximumRedirects = 5
    public var deniedEnv: Scope = .none
    /// Files a command keeps from scripts by its own rule, not by a
    /// `--deny-read` the user gave (the key under `flow grade`), and why:
    /// a denial names the flag that grants it, which here is
    /// `--allow-read` naming the file itself.
    public var withheldRead: [Withheld] = []

    public struct Withheld: Sendable, Equatable {
        /// Resolved.
        public var path: String
        /// What the file is, for the message: "the key".
        public var what: String
        /// The file as the user named it, for the flag the message suggests.
        public var named: String

        public init(path: String, what: String, named: String) {
            self.path = path
            self.what = what
            self.named = named
        }
    }
    /// Whether `stdin.lines()` reads the process's standard input. Without
    /// it the input is empty: a graded or tested script cannot wait on it.
    public var standardInput: Bool
    /// The command whose flags grant more, for the messages: `flow grade`.
    public var command: String
    /// How the messages name what is allowed, where a default grants one
    /// folder ("the graded folder"); nil names the paths themselves.
    public var readScopeName: String?
    public var writeScopeName: String?
    /// Whether a denial suggests granting the folder of what was denied
    /// (`flow run --allow-read=data`), or the file alone: under `flow grade`
    /// the folder would hand every student the classmates' files.
    public var suggestsFolders = true

    /// Paths as a message lists them: `a`, `a and b`, `a, b and c`.
    public static func listed(_ paths: [String]) -> String {
        guard let last = paths.last else { return "nothing" }
        return paths.count == 1 ? last : paths.dropLast().joined(separator: ", ") + " and " + last
    }

    public init(read: Scope, write: Scope, net: Scope, standardInput: Bool, command: String,
                readScopeName: String? = nil, writeScopeName: String? = nil) {
        self.read = read
        self.write = write
        self.net = net
        self.standardInput = standardInput
        self.command = command
        self.readScopeName = readScopeName
        self.writeScopeName = writeScopeName
    }

    /// `flow run`, the REPL: a script on one's own machine reaches what its user can.
    public static func everything(command: String, standardInput: Bool = true) -> Permissions {
        Permissions(read: .all, write: .all, net: .all, standardInput: standardInput, command: command)
    }

    /// `flow grade`: the graded folder may be read, nothing else reached.
    public static func graded(folders: [String]) -> Permissions {
        Permissions(read: .only(folders.map(Self.resolve)), write: .none, net: .none, standardInput: false,
                    command: "flow grade", readScopeName: folders.count == 1 ? "the graded folder" : "the graded folders")
    }

    /// `flow serve`: the served folder may be read and written (where the
    /// page saves), no network.
    public static func served(folder: String) -> Permissions {
        let resolved = Self.resolve(folder)
        return Permissions(read: .only([resolved]), write: .only([resolved]), net: .none, standardInput: false,
                           command: "flow serve", readScopeName: "the served folder", writeScopeName: "the served folder")
    }

    /// Applies a flag's value: nil is the flag alone (everything), else a
    /// comma-separated list. Paths are resolved now, against the current folder.
    public mutating func allow(_ kind: Kind, _ value: String?) {
        let scope = Self.scope(kind, value)
        switch kind {
        case .read: read = Self.union(read, scope); readScopeName = nil
        case .write: write = Self.union(write, scope); writeScopeName = nil
        case .net: net = Self.union(net, scope)
        case .env: env = Self.union(env, scope)
        }
    }

    public func scope(of kind: Kind) -> Scope {
        switch kind {
        case .read: return read
        case .write: return write
        case .net: return net
        case .env: return env
        }
    }

    /// Takes away every grant of `kind`, before `allow` names what is
    /// granted instead.
    public mutating func narrow(_ kind: Kind) {
        switch kind {
        case .read: read = .none; readScopeName = nil
        case .write: write = .none; writeScopeName = nil
        case .net: net = .none
        case .env: env = .none
        }
    }

    public mutating func deny(_ kind: Kind, _ value: String?) {
        let scope = Self.scope(kind, value)
        switch kind {
        case .read: deniedRead = Self.union(deniedRead, scope)
        case .write: deniedWrite = Self.union(deniedWrite, scope)
        case .net: deniedNet = Self.union(deniedNet, scope)
        case .env: deniedEnv = Self.union(deniedEnv, scope)
        }
    }

    public mutating func allowAll() {
        read = .all
        write = .all
        net = .all
        env = .all
        deniedRead = .none
        deniedWrite = .none
        deniedNet = .none
        deniedEnv = .none
        withheldRead = []
        readScopeName = nil
        writeScopeName = nil
    }

    public enum Kind: String, Sendable, CaseIterable {
        case read, write, net, env
    }

    private static func scope(_ kind: Kind, _ value: String?) -> Scope {
        guard let value, !value.isEmpty else { return .all }
        let items = value.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        switch kind {
        case .net: return .only(items.map(canonicalHostAndPort))
        case .env: return .only(items)
        case .read, .write: return .only(items.map(resolve))
        }
    }

    private static func union(_ a: Scope, _ b: Scope) -> Scope {
        switch (a, b) {
        case (.all, _), (_, .all): return .all
        case (.none, let other), (let other, .none): return other
        case (.only(let x), .only(let y)): return .only(x + y.filter { !x.contains($0) })
        }
    }

    /// An absolute path with every symlink and `..` resolved: the path as
    /// it reaches the file system, which is what a grant is about. A path
    /// that does not exist yet (a file to be written) is its nearest
    /// existing ancestor resolved, then the rest as written, `..` and `.`
    /// folded.
    public static func resolve(_ path: String) -> String {
        var absolute = path
        if !absolute.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) != nil ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
            absolute = cwd + "/" + path
        }
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let candidate = "/" + components.joined(separator: "/")
            if let real = realPath(candidate) {
                return fold(real, rest)
            }
            guard let last = components.popLast() else { return fold("/", rest) }
            rest.insert(last, at: 0)
        }
    }

    /// A granted or denied `host[:port]` with its host in the one form
    /// every spelling of it is judged in (`HostAddress.canonical`).
    static func canonicalHostAndPort(_ item: String) -> String {
        var host = Substring(item), port: Substring?
        if item.hasPrefix("["), let close = item.firstIndex(of: "]") {
            host = item[...close]
            let after = item[item.index(after: close)...]
            if after.hasPrefix(":") { port = after.dropFirst() }
        } else if item.filter({ $0 == ":" }).count == 1, let colon = item.firstIndex(of: ":") {
            host = item[..<colon]
            port = item[item.index(after: colon)...]
        }
        let canonical = HostAddress.canonical(String(host))
        return port.map { "\(canonical):\($0)" } ?? canonical
    }

    /// The folder holding `path`: `.` for a bare name, `/` for a name at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(decoding: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)), as: UTF8.self)
    }

    /// `base` (resolved) followed by `rest`, with `.` and `..` applied.
    private static func fold(_ base: String, _ rest: [String]) -> String {
        var parts = base.split(separator: "/").map(String.init)
        for part in rest {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension Permissions.Scope {
    /// Whether a resolved path lies in this scope: equal to a granted path,
    /// or inside a granted folder.
    func contains(path: String) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .only(let granted):
            return granted.contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        }
    }

    /// Whether an environment variable's name is in this scope (names are
    /// compared exactly, as the system does).
    func contains(name: String) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .only(let granted): return granted.contains(name)
        }
    }

    /// Whether `host:port` (`host` canonical) is in this scope: a granted
    /// `host` covers every port, a granted `host:port` that port alone.
    func contains(host: String, port: Int) -> Bool {
        switch self {
        case .none: return false
        case .all: return true
        case .only(let granted):
            return granted.contains { $0 == host || $0 == "\(host):\(port)" }
        }
    }

    /// Whether any entry names an IP address: then a name is judged by the
    /// addresses it resolves to as well.
    var namesAddresses: Bool {
        guard case .only(let entries) = self else { return false }
        return entries.contains { entry in
            if entry.hasPrefix("[") { return true }
            let host = entry.split(separator: ":").first.map(String.init) ?? entry
            return HostAddress.ipv4(host) != nil
        }
    }
}
