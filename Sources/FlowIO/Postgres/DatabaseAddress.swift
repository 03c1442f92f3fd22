import FlowLive
import FlowRuntime
import NIOCore
import NIOSSL
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// Where a database is and how to reach it: from a URL
/// (`postgres://user:pass@host:5432/db?sslmode=require`), or, when a script
/// names none, from `DATABASE_URL` or libpq's `PG*` variables, as `psql`
/// reads them.
struct DatabaseAddress: Sendable, Hashable {
    enum TLSMode: String, Sendable {
        /// libpq's default: TLS when the server offers it, unverified.
        case prefer
        case disable
        /// Encrypted, but the certificate is not checked.
        case require
        /// Encrypted, and the certificate checked against `sslrootcert`
        /// (or the system's roots) and the host name.
        case verifyFull = "verify-full"
    }

    var host = "localhost"
    var port = 5432
    var user: String
    var password: String?
    var database: String?
    var tls = TLSMode.prefer
    var rootCertificate: String?
    /// The bytes of `rootCertificate`, read through the run's permissions
    /// (`DatabaseRun.pool`) before anything connects: the TLS library is
    /// never handed the path to open by itself.
    var rootCertificateBytes: [UInt8]?
    var connectTimeout: TimeSpan = .seconds(10)
    /// The address the host name was judged by, when the run's
    /// permissions resolved it (`DatabaseRun.pool`): connected to instead
    /// of the name, so a second look-up cannot lead elsewhere; the name is
    /// still the one a certificate is checked against.
    var judgedAddress: String?

    /// The address as messages show it: never the password.
    var shown: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(hostPart):\(port)/\(database ?? user)"
    }

    /// The host as a permission names it (`--allow-net=HOST`).
    var permissionHost: String { host.contains(":") ? "[\(host.lowercased())]" : host.lowercased() }

    static func parse(_ url: String) throws -> DatabaseAddress {
        let lower = url.lowercased()
        guard let scheme = ["postgres://", "postgresql://"].first(where: lower.hasPrefix) else {
            throw FlowError("a database URL starts with postgres:// (as in postgres://user:password@localhost:5432/shop), got \(SecretsHidden.quoted(url))")
        }
        var rest = Substring(url.dropFirst(scheme.count))
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var address = DatabaseAddress(user: defaultUser)
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                address.user = try decode(credentials[..<colon], in: url)
                address.password = try decode(credentials[credentials.index(after: colon)...], in: url)
            } else {
                address.user = try decode(credentials, in: url)
            }
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw FlowError("an IPv6 host is written in brackets, as in postgres://[::1]:5432/db")
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw FlowError("unexpected text after the host in \(SecretsHidden.quoted(url))")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        if !hostPart.isEmpty { address.host = try decode(hostPart, in: url) }
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else {
                throw FlowError("the port in \(SecretsHidden.quoted(url)) is not a number from 1 to 65535")
            }
            address.port = port
        }
        if !path.isEmpty { address.database = try decode(path, in: url) }
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let key = String(parts[0]), value = parts.count > 1 ? try decode(parts[1], in: url) : ""
            try address.set(key, value, from: "the URL")
        }
        return address
    }

    /// `DATABASE_URL` when set, else libpq's variables (`PGHOST`, `PGPORT`,
    /// `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`,
    /// `PGCONNECT_TIMEOUT`) over libpq's defaults.
    static func fromEnvironment(_ environment: [String: String]) throws -> DatabaseAddress {
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            do { return try parse(url) } catch { throw FlowError("DATABASE_URL: \(FlowError.wrap(error).message)") }
        }
        var address = DatabaseAddress(user: environment["PGUSER"] ?? defaultUser)
        if let host = environment["PGHOST"], !host.isEmpty {
            if host.hasPrefix("/") {
                throw FlowError("PGHOST names a socket folder (\(host)); flow connects over TCP: set PGHOST=localhost")
            }
            address.host = host
        }
        if let port = environment["PGPORT"], !port.isEmpty {
            guard let number = Int(port), (1...65535).contains(number) else { throw FlowError("PGPORT=\(port) is not a port number") }
            address.port = number
        }
        address.password = environment["PGPASSWORD"]
        address.database = environment["PGDATABASE"]
        for (variable, key) in [("PGSSLMODE", "sslmode"), ("PGSSLROOTCERT", "sslrootcert"), ("PGCONNECT_TIMEOUT", "connect_timeout")] {
            if let value = environment[variable], !value.isEmpty { try address.set(key, value, from: variable) }
        }
        return address
    }

    private mutating func set(_ key: String, _ value: String, from source: String) throws {
        switch key {
        case "sslmode":
            switch value {
            case "disable": tls = .disable
            case "allow", "prefer": tls = .prefer
            case "require": tls = .require
            case "verify-ca", "verify-full": tls = .verifyFull
            default:
                throw FlowError("sslmode=\(value) in \(source) is not one of disable, prefer, require, verify-ca, verify-full")
            }
        case "sslrootcert": rootCertificate = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds > 0 else { throw FlowError("connect_timeout=\(value) in \(source) is not a number of seconds") }
            connectTimeout = .seconds(Double(seconds))
        case "application_name", "options", "target_session_attrs": break
        default:
            throw FlowError("\(source) sets \(key), which flow does not know (it knows sslmode, sslrootcert and connect_timeout)")
        }
    }

    /// What postgres-nio needs to start a connection on `channel`, which
    /// flow connected itself (to place `ServerMessageGuard` in it).
    func configuration(on channel: any Channel) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(establishedChannel: channel, tls: try tlsSetting(), username: user,
                                                             password: password, database: database ?? user)
        configuration.options.connectTimeout = .nanoseconds(connectTimeout.nanoseconds)
        // The name a certificate is checked against, which a channel
        // connected by address does not carry (an address is not sent).
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) != 1 && inet_pton(AF_INET6, host, &v6) != 1 {
            configuration.options.tlsServerName = host
        }
        return configuration
    }

    private func tlsSetting() throws -> PostgresConnection.Configuration.TLS {
        try configuration().tls
    }

    /// What postgres-nio needs to connect.
    func configuration() throws -> PostgresConnection.Configuration {
        let tlsSetting: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable:
            tlsSetting = .disable
        case .prefer, .require:
            var settings = TLSConfiguration.makeClientConfiguration()
            settings.certificateVerification = .none
            let context = try NIOSSLContext(configuration: settings)
            tlsSetting = tls == .prefer ? .prefer(context) : .require(context)
        case .verifyFull:
            var settings = TLSConfiguration.makeClientConfiguration()
            do {
                if let rootCertificateBytes {
                    settings.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(rootCertificateBytes))
                } else if let rootCertificate {
                    throw FlowError("\(rootCertificate) was not read through the run's permissions")
                }
                tlsSetting = .require(try NIOSSLContext(configuration: settings))
            } catch {
                throw FlowError("cannot read the certificate \(rootCertificate ?? "roots") for sslmode=verify-full: \(error)")
            }
        }
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database ?? user, tls: tlsSetting)
        configuration.options.connectTimeout = .nanoseconds(connectTimeout.nanoseconds)
        return configuration
    }

    private static var defaultUser: String {
        if let user = getenv("USER").map({ String(cString: $0) }), !user.isEmpty { return user }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }

    private static func decode(_ part: Substring, in url: String) throws -> String {
        guard let decoded = String(part).removingPercentEncodingForDatabase() else {
            throw FlowError("\(SecretsHidden.quoted(url)) has a broken %-escape")
        }
        return decoded
    }
}

extension String {
    /// `%40` to `@`, as in a password in a URL; nil for a broken escape.
    fileprivate func removingPercentEncodingForDatabase() -> String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
