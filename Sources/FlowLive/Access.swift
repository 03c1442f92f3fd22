import FlowRuntime

/// The one place where a script's reach outside itself is checked: every
/// file a script opens, watches or writes, every host it requests, and its
/// standard input pass through here before the operating system sees them.
/// A run is given one `Access`, made from its command's permissions.
///
/// A denial is an error naming the call, what was denied and the flag that
/// grants it; the caller raises it as a stream error at the call's location.
public final class Access: Sendable {
    public let permissions: Permissions

    public init(_ permissions: Permissions) {
        self.permissions = permissions
    }

    /// Everything allowed: checking a script (`flow check`), and the docs.
    public static let unrestricted = Access(.everything(command: "flow run"))

    /// Whether `stdin.lines()` reads the process's input; without it the
    /// script sees an empty input.
    public var readsStandardInput: Bool { permissions.standardInput }

    /// Reading (or watching) `path`, for `operation` (`file.read`).
    public func checkRead(_ path: String, by operation: String) throws {
        try checkPath(path, by: operation, kind: .read, granted: permissions.read, denied: permissions.deniedRead,
                      scopeName: permissions.readScopeName, verb: "reading")
    }

    /// Creating, replacing or appending to `path`, for `operation` (`file.write`).
    public func checkWrite(_ path: String, by operation: String) throws {
        try checkPath(path, by: operation, kind: .write, granted: permissions.write, denied: permissions.deniedWrite,
                      scopeName: permissions.writeScopeName, verb: "writing")
    }

    /// Requesting `url`, for `operation` (`http.get`). The URL has already
    /// been checked for its form; one whose host cannot be found is left to
    /// the request to report.
    public func checkNet(url: String, by operation: String) throws {
        guard let (host, port) = Self.hostAndPort(of: url) else { return }
        try checkNet(host: host, port: port, shown: "\(operation) \(url.debugDescription)")
    }

    /// Reaching `host:port` (lower-cased, IPv6 in brackets) by any protocol
    /// (a database server); `shown` names the call in the message.
    public func checkNet(host: String, port: Int, shown: String) throws {
        if permissions.deniedNet.contains(host: host, port: port) {
            throw FlowError("\(shown): the network access to \(host) is denied by \(permissions.command) --deny-net")
        }
        guard permissions.net.contains(host: host, port: port) else {
            let what: String
            switch permissions.net {
            case .only(let hosts): what = "requesting hosts other than \(hosts.joined(separator: ", "))"
            default: what = "network access"
            }
            throw FlowError("\(shown): \(what) is not allowed (\(permissions.command) --allow-net=\(host) grants it)")
        }
    }

    private func checkPath(_ path: String, by operation: String, kind: Permissions.Kind, granted: Permissions.Scope,
                           denied: Permissions.Scope, scopeName: String?, verb: String) throws {
        if granted == .all && denied == .none { return }
        let resolved = Permissions.resolve(path)
        let shown = "\(operation) \(path.debugDescription)" + (resolved == path ? "" : " (\(resolved))")
        if denied.contains(path: resolved) {
            throw FlowError("\(shown): \(verb) it is denied by \(permissions.command) --deny-\(kind.rawValue)")
        }
        guard granted.contains(path: resolved) else {
            let what: String
            switch granted {
            case .only(let paths): what = "\(verb) outside \(scopeName ?? paths.joined(separator: ", "))"
            default: what = "\(verb) files"
            }
            let folder = Permissions.folder(of: resolved)
            throw FlowError("\(shown): \(what) is not allowed (\(permissions.command) --allow-\(kind.rawValue)=\(folder) grants it)")
        }
    }

    /// The host (lower-cased, IPv6 in brackets) and port of an http(s) URL.
    static func hostAndPort(of url: String) -> (String, Int)? {
        let lower = url.lowercased()
        let scheme: (prefix: String, port: Int)
        if lower.hasPrefix("http://") { scheme = ("http://", 80) } else if lower.hasPrefix("https://") { scheme = ("https://", 443) } else { return nil }
        var authority = lower.dropFirst(scheme.prefix.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority, port = scheme.port
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) ?? port }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...]) ?? port
        }
        return host.isEmpty ? nil : (String(host), port)
    }
}
