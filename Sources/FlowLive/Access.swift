#if canImport(Glibc)
import Glibc
#endif
import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// The one place where a script's reach outside itself is checked: every
/// file a script opens, watches or writes, every host it requests, and its
/// standard input pass through here before the operating system sees them.
/// A run is given one `Access`, made from its command's permissions.
///
/// A denial is an error naming the call, what was denied and the flag that
/// grants it; the caller raises it as a stream error at the call's location.
public final class Access: Sendable {
    public let permissions: Permissions
    /// Where a relative path is read from, by the script it is written in
    /// (as locations name it), where that is not the current folder: under
    /// `flow grade` the key's are the folder the teacher started in, while
    /// the student's are its own file's folder, as `flow run` there reads them.
    public let relativeFolders: [String: String]
    /// The addresses a name resolves to, in one form (`HostAddress.resolve`):
    /// what a name is judged by, asked once a request. A test gives a
    /// resolver of its own, to name hosts no DNS knows.
    public let resolve: @Sendable (String) -> [String]

    public init(_ permissions: Permissions, relativeFolders: [String: String] = [:],
                resolve: @escaping @Sendable (String) -> [String] = HostAddress.resolve) {
        self.permissions = permissions
        self.relativeFolders = relativeFolders
        self.resolve = resolve
    }

    /// `path` as written in `script`, made absolute where that script's
    /// relative paths are read from another folder than the current one.
    public func located(_ path: String, writtenIn script: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/"), let folder = relativeFolders[script] else { return path }
        return folder == "/" ? "/" + path : folder + "/" + path
    }

    /// Everything allowed: checking a script (`flow check`), and the docs.
    public static let unrestricted = Access(.everything(command: "flow run"))

    /// Whether `stdin.lines()` reads the process's input; without it the
    /// script sees an empty input.
    public var readsStandardInput: Bool { permissions.standardInput }

    /// Requesting `url`, for `operation` (`http.get`). The URL has already
    /// been checked for its form; one whose host cannot be found is left to
    /// the request to report. The answer says where to connect.
    @discardableResult
    public func checkNet(url: String, by operation: String) throws -> CheckedHost? {
        guard let (host, port) = Self.hostAndPort(of: url) else { return nil }
        return try checkNet(host: host, port: port, shown: "\(operation) \(SecretsHidden.quoted(url))")
    }

    /// Where a judged request connects: `address` when the name was
    /// resolved to be judged (a rule names an IP address), so the address
    /// judged is the one connected to, and a second look-up cannot give
    /// another; else the host itself.
    public struct CheckedHost: Sendable, Equatable {
        /// The host in its one form (`HostAddress.canonical`).
        public let host: String
        /// The address the name was judged by, bracketed if IPv6; nil when
        /// the host is an address, or no rule needed the name resolved.
        public let address: String?
    }

    /// Reaching `host:port` (IPv6 in brackets; any spelling) by any
    /// protocol (a database server); `shown` names the call in the message.
    @discardableResult
    public func checkNet(host written: String, port: Int, shown: String) throws -> CheckedHost {
        let host = HostAddress.canonical(written)
        let granted = permissions.net, denied = resolvedDenials()
        var addresses: [String] = []
        if !HostAddress.isAddress(host), granted.namesAddresses || denied.namesAddresses {
            addresses = resolve(host)
        }
        let named = host == written.lowercased() ? host : "\(written) (\(host))"
        if denied.contains(host: host, port: port) {
            throw FlowError("\(shown): the network access to \(named) is denied by \(permissions.command) --deny-net")
        }
        if let address = addresses.first(where: { denied.contains(host: $0, port: port) }) {
            throw FlowError("\(shown): the network access to \(named), which is \(address), is denied by \(permissions.command) --deny-net")
        }
        // Reached by its name, or through an address it resolves to that is
        // granted: then that address is the one connected to.
        let address = granted.contains(host: host, port: port) ? addresses.first : addresses.first { granted.contains(host: $0, port: port) }
        guard granted.contains(host: host, port: port) || address != nil else {
            let what: String
            switch granted {
            case .only(let hosts): what = "requesting hosts other than \(hosts.joined(separator: ", "))"
            default: what = "network access"
            }
            throw FlowError("\(shown): \(what) is not allowed (\(permissions.command) --allow-net=\(host) grants it)")
        }
        return CheckedHost(host: host, address: address)
    }

    /// `--deny-net` with each name in it followed by the addresses it
    /// resolves to, so a denied name denies them too (`localhost` denies
    /// 127.0.0.1 and ::1, however a request spells them, and a name that
    /// resolves to one of them): looked up once a
    /// run, when a request is first judged. Grants are not widened so: a
    /// grant of a name is of that name.
    func resolvedDenials() -> Permissions.Scope {
        guard case .only(let entries) = permissions.deniedNet, entries.contains(where: { !HostAddress.isAddress(Self.hostAndPort(entry: $0).host) }) else {
            return permissions.deniedNet
        }
        return denialsWithAddresses.withLockedValue { known in
            if let known { return known }
            var widened = entries
            for entry in entries {
                let (host, port) = Self.hostAndPort(entry: entry)
                guard !HostAddress.isAddress(host) else { continue }
                // RFC 6761: localhost is the loopback addresses, whatever
                // /etc/hosts lists (often 127.0.0.1 alone).
                let loopback = host == "localhost" || host.hasSuffix(".localhost") ? ["127.0.0.1", "[::1]"] : []
                for address in loopback + resolve(host) {
                    let denial = port.map { "\(address):\($0)" } ?? address
                    if !widened.contains(denial) { widened.append(denial) }
                }
            }
            known = .only(widened)
            return .only(widened)
        }
    }

    private let denialsWithAddresses = NIOLockedValueBox<Permissions.Scope?>(nil)

    /// A rule's host (in its one form) and port, if it names one.
    static func hostAndPort(entry: String) -> (host: String, port: String?) {
        if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
            let after = entry[entry.index(after: close)...]
            return (String(entry[...close]), after.hasPrefix(":") ? String(after.dropFirst()) : nil)
        }
        if let colon = entry.lastIndex(of: ":") { return (String(entry[..<colon]), String(entry[entry.index(after: colon)...])) }
        return (entry, nil)
    }

    /// Reading the environment variable `name` (`env["TOKEN"]`): `shown`
    /// is the expression, for the message. Whether it is set is not asked,
    /// so a denial says nothing of the variable but its name.
    public func checkEnv(_ name: String, shown: String) throws {
        if permissions.deniedEnv.contains(name: name) {
            throw FlowError("\(shown): reading the environment variable \(name) is denied by \(permissions.command) --deny-env")
        }
        guard permissions.env.contains(name: name) else {
            let what: String
            switch permissions.env {
            case .only(let names): what = "reading environment variables other than \(names.joined(separator: ", "))"
            default: what = "reading the environment"
            }
            throw FlowError("\(shown): \(what) is not allowed (\(permissions.command) --allow-env=\(name) grants it)")
        }
    }

    /// The host (lower-cased, IPv6 in brackets) and port of an http(s) URL.
    public static func hostAndPort(of url: String) -> (String, Int)? {
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
