import Foundation
import Hummingbird
import Synchronization

/// Refuses every request that is not the playground page's own, on every
/// address the server listens on:
/// - the Host header must name this server: its port, and on loopback a
///   loopback name (so DNS rebinding, a foreign name resolving to
///   127.0.0.1, is refused); it is parsed strictly (`127.0.0.1:x.evil.com`
///   is no host and port);
/// - an Origin header, which browsers send with a page's requests, must be
///   that same address: another site open in the learner's browser cannot
///   save over a script or run one;
/// - beyond loopback, the token of the URL the server printed must come
///   with the request, as Jupyter asks: in the query (`?token=`), which the
///   answer turns into a cookie for the page's own later requests.
final class RequestGuard: RouterMiddleware, Sendable {
    typealias Context = PlaygroundServer.Context

    static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]
    static let cookieName = "flow-token"

    /// The address given to listen on, as the user wrote it.
    let host: String
    let token: String?
    private let port = Atomic(-1)

    /// Other tokens that pass where `token` is asked for, and that the
    /// page keeps as its cookie: in `--exercise` with a class, a student's
    /// or the teacher's (the personal links).
    let alsoAccepts: (@Sendable (String) -> Bool)?

    init(host: String, token: String?, alsoAccepts: (@Sendable (String) -> Bool)? = nil) {
        self.host = host.lowercased()
        self.token = token
        self.alsoAccepts = alsoAccepts
    }

    /// Whether two secrets are the same, in a time that depends on their
    /// lengths alone: how long a refusal takes tells nothing of a token.
    static func sameSecret(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }

    /// Whether `presented` is a token this server accepts.
    func accepts(_ presented: String?) -> Bool {
        guard let presented else { return false }
        if let token, Self.sameSecret(token, presented) { return true }
        return alsoAccepts?(presented) ?? false
    }

    /// The port the server listens on, known once it has bound (`--port 0`).
    func listening(on port: Int) { self.port.store(port, ordering: .releasing) }

    private var isLoopback: Bool { Self.isLoopback(host) }

    /// A loopback name or an IPv4 address in 127/8, written as one: a DNS
    /// name that merely begins with `127.` is no address of this machine.
    static func isLoopback(_ name: String) -> Bool {
        if loopbackNames.contains(name.lowercased()) { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part).map { $0 <= 255 } == true
        }
    }
    private var isWildcard: Bool { host == "0.0.0.0" || host == "::" || host == "[::]" }

    /// A secret of 128 bits from the system's generator, in hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    func allows(_ request: Request) -> Bool {
        guard let (name, port) = Self.hostAndPort(request.head.authority ?? ""), port == self.port.load(ordering: .acquiring) else { return false }
        if isLoopback {
            guard Self.isLoopback(name) else { return false }
        } else if !isWildcard {
            guard name == host || "[\(name)]" == host else { return false }
        }
        if let origin = request.headers[.origin], !originIsOwn(origin, name: name, port: port) { return false }
        if token != nil { return accepts(presentedToken(request)) }
        return true
    }

    /// Browsers name a page's origin by its http(s) address; a WebSocket
    /// library outside a browser names the socket's (`ws://host`), and is
    /// no web page to guard against.
    private func originIsOwn(_ origin: String, name: String, port: Int) -> Bool {
        guard let url = URL(string: origin), let scheme = url.scheme, let originHost = url.host?.lowercased() else { return false }
        if scheme == "ws" || scheme == "wss" { return true }
        return scheme == "http" && originHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) == name && (url.port ?? 80) == port
    }

    func presentedToken(_ request: Request) -> String? {
        if let query = request.uri.queryParameters.get("token") { return query }
        for cookie in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let pair = cookie.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Self.cookieName { return String(pair[1]) }
        }
        return nil
    }

    /// `127.0.0.1:8080` → ("127.0.0.1", 8080); `[::1]:8080` → ("::1", 8080);
    /// no port is port 80. Nil for anything that is not a host and a port.
    static func hostAndPort(_ authority: String) -> (String, Int)? {
        var name: Substring, rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            name = authority[authority.index(after: authority.startIndex)..<close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            (name, rest) = (authority[..<colon], authority[colon...])
        } else {
            (name, rest) = (authority[...], "")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:"))
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        if rest.isEmpty { return (name.lowercased(), 80) }
        guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65535).contains(port), rest.dropFirst().allSatisfy(\.isNumber)
        else { return nil }
        return (name.lowercased(), port)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard allows(request) else {
            return PlaygroundServer.problem(.forbidden, token == nil
                ? "this server answers only its own page, on its own address"
                : "this server answers only its own page, with the token of the address it printed (?token=...)")
        }
        var response = try await next(request, context)
        // The page keeps the token for its own requests (and WebSockets).
        if let presented = request.uri.queryParameters.get("token"), accepts(presented), presented.allSatisfy(\.isHexDigit) {
            response.headers[.setCookie] = "\(Self.cookieName)=\(presented); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }
}
