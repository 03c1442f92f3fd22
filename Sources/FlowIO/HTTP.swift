import AsyncHTTPClient
import Collections
import Foundation
import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// HTTP as streams, with AsyncHTTPClient. The exchange runs on the client's
/// own threads; on the live loop each event hops onto the loop (and a hold
/// keeps the run alive while a request is in flight); in virtual time the
/// exchange is awaited and delivered at the current instant. Disposing the
/// subscription cancels the request, closing its connection.
final class HTTPNode: Observable {
    enum Kind: Sendable {
        /// One response value; `raw` passes every status, else non-2xx fails.
        case response(raw: Bool)
        /// Each line of the body as it arrives.
        case lines
        /// Server-sent events.
        case events

        var isStreaming: Bool { if case .response = self { false } else { true } }
    }

    struct Call: Sendable {
        var method: HTTPMethod
        var url: String
        var headers: [(String, String)]
        var body: String?
        /// One response: the whole exchange's deadline. A stream (`lines`,
        /// `events`): the longest silence between chunks, nil for none.
        var timeout: TimeSpan?
        /// A stream's total deadline, if the script asks for one.
        var deadline: TimeSpan?
    }

    /// The largest body gathered into one response value (and all a
    /// virtual-time run collects of a stream).
    static let maximumBodyBytes = 64 << 20

    let call: Call
    let kind: Kind
    let access: Access

    /// `name` is the script's function (`http.lines`), for messages.
    init(_ call: Call, kind: Kind, name: String, location: SourceLocation?, access: Access) {
        self.call = call
        self.kind = kind
        self.access = access
        super.init(operatorName: name)
        self.location = location
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let exchange = HTTPExchange(observer: observer, call: call, kind: kind, name: operatorName, location: location, access: access)
        observer.onSubscribe(exchange)
        if let live = scheduler as? any LiveLoop {
            exchange.startLive(on: live)
            return
        }
        // Virtual time waits for the exchange; on an event loop (the REPL's)
        // that wait would stall the loop itself, so it is refused.
        if MultiThreadedEventLoopGroup.currentEventLoop != nil {
            return exchange.handle(.failure("cannot be requested inside a virtual-time diagram here (waiting for it would stall the loop); "
                                            + "run it as a statement to watch it live, or use flow run --virtual"), hop: 0)
        }
        exchange.runVirtually(hop: 0)
    }

    /// Why a URL cannot be requested, checked before the client sees it (it
    /// traps on some malformed ones, such as a port above 65535).
    static func problem(with url: String) -> String? {
        if url.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) {
            return "a URL cannot contain spaces or control characters (encode a space as %20)"
        }
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else {
            return "only http:// and https:// URLs can be requested"
        }
        let rest = url.dropFirst(scheme.count)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "an IPv6 host is written in brackets, as in http://[::1]:8080/" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "unexpected text after the host" }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        if host.isEmpty || host == "[]" { return "the URL has no host" }
        if let port {
            guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
                  let number = Int(port), (1...65535).contains(number) else {
                return "the port \(port.isEmpty ? "is empty" : "'\(port)' is not a number from 1 to 65535")"
            }
        }
        return nil
    }
}

/// flow's client: AsyncHTTPClient's default event loops, and no retrying
/// of a failed connection (by default the pool retries until the request's
/// deadline, so a refused connection would take 30 s to report; a script
/// that wants retries says `retry(n)`). Redirects are followed at most five
/// times and never in a cycle. Never shut down: it lives as long as the
/// process.
enum FlowHTTP {
    /// The client follows no redirect itself: each is a new request the
    /// exchange judges (`HTTPExchange.redirect`).
    static let connectTimeout = TimeSpan.seconds(10)

    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .nanoseconds(connectTimeout.nanoseconds)
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The request for one hop of an exchange, and the client that sends it
    /// to where the run's `Access` judged it may go. A name resolved to be
    /// judged is connected to at the address judged, so a second look-up
    /// cannot give another (DNS rebinding): over http the URL names the
    /// address and `Host:` the name; over https the name stays in the URL,
    /// for SNI and the certificate's check, and a client of the request's
    /// own maps the name to the address (AsyncHTTPClient's `dnsOverride`,
    /// which connects there and still verifies the certificate for the name).
    static func prepare(_ hop: HTTPExchange.Hop, access: Access, name: String) throws -> PreparedRequest {
        let checked = try access.checkNet(url: hop.url, by: name)
        let secure = hop.url.lowercased().hasPrefix("https://")
        var url = hop.url, headers = HTTPHeaders(hop.headers)
        if let address = checked?.address, !secure, let pinned = replacingHost(of: hop.url, with: address) {
            url = pinned.url
            if !headers.contains(name: "Host") { headers.add(name: "Host", value: pinned.authority) }
        }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: hop.method, headers: headers, body: hop.body.map { .string($0) })
        } catch {
            throw FlowError("not a URL flow can request; write it as http://host/path")
        }
        guard secure, let address = checked?.address else { return PreparedRequest(request: request, pinnedClient: nil) }
        return PreparedRequest(request: request, pinnedClient: pinnedClient(connecting: request.host, to: address))
    }

    /// A client that connects to `address` (bracketed if IPv6) whenever a
    /// request names `host`, verifying the certificate for `host`. One a
    /// request, shut down when the request ends.
    static func pinnedClient(connecting host: String, to address: String) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .nanoseconds(connectTimeout.nanoseconds)
        configuration.redirectConfiguration = .disallow
        configuration.dnsOverride = [host: address.hasPrefix("[") ? String(address.dropFirst().dropLast()) : address]
        let testRoots = additionalTrustRoots.withLockedValue { $0 }
        if !testRoots.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(testRoots)]
            configuration.tlsConfiguration = tls
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Certificate authorities trusted besides the system's, for the
    /// pinned connections: set by tests alone (their loopback TLS server's
    /// own authority); flow itself never sets it.
    static let additionalTrustRoots = NIOLockedValueBox<[NIOSSLCertificate]>([])

    /// `url` with its host replaced by `address`, and the authority it had (for `Host:`).
    static func replacingHost(of url: String, with address: String) -> (url: String, authority: String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@").last.map(String.init) ?? String(authority)
        var port = ""
        if hostAndPort.hasPrefix("[") {
            if let close = hostAndPort.firstIndex(of: "]") { port = String(hostAndPort[hostAndPort.index(after: close)...]) }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            port = String(hostAndPort[colon...])
        }
        return (String(url[..<schemeEnd.upperBound]) + address + port + rest.dropFirst(authority.count), hostAndPort)
    }
}

/// One hop's request, and the client of its own when its connection is
/// pinned to the address judged (https to a resolved name).
struct PreparedRequest: Sendable {
    let request: HTTPClient.Request
    let pinnedClient: HTTPClient?

    /// Sends the request; a client of its own is shut down once it ends.
    func execute(delegate: HTTPEvents, deadline: NIODeadline?) -> HTTPClient.Task<Void> {
        let client = pinnedClient ?? FlowHTTP.client
        let task = client.execute(request: request, delegate: delegate, deadline: deadline)
        if let pinnedClient { task.futureResult.whenComplete { _ in pinnedClient.shutdown { _ in } } }
        return task
    }
}

/// What the client's threads report, in order.
enum HTTPEvent: Sendable {
    case head(status: Int, reason: String, headers: [(String, String)])
    /// A chunk's lines; `received` is released once they are delivered, and
    /// the client reads no more of the body until then (backpressure).
    case lines([String], received: Acknowledgement?)
    case event(name: String, data: String, id: String?)
    case body(String)
    case end
    /// The request's head was written: the server accepted the connection.
    case sent
    case failure(String)
    /// The run's permissions refused the request: the whole message.
    case refused(String)
}

/// Completes a promise when the loop is done with what it was handed, or
/// when it is dropped unhandled (a stopped loop): the client never waits
/// forever, and no promise is leaked.
final class Acknowledgement: Sendable {
    private let promise: EventLoopPromise<Void>

    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

    deinit { promise.succeed(()) }
}

/// The subscription side, on the scheduler's thread: one request after
/// another while the server redirects (each judged by the run's `Access`
/// as a new request, at most `--max-redirects` of them, never in a cycle),
/// then the response's events. Events of a request left for a redirect
/// are ignored: each carries the number of its hop.
///
/// `http.lines` and `http.events` honour demand: while the consumer has
/// enough, the last chunk's acknowledgement is held, so the client reads no
/// more of the body (and the idle timeout does not count the pause).
final class HTTPExchange: Disposable, DemandControl {
    /// One request of the exchange.
    struct Hop: Sendable {
        var url: String
        var method: HTTPMethod
        var headers: [(String, String)]
        var body: String?
    }

    private let observer: Observer
    private let call: HTTPNode.Call
    private let kind: HTTPNode.Kind
    private let name: String
    private let location: SourceLocation?
    private let access: Access
    var hold: Disposable?
    var task: HTTPClient.Task<Void>?
    private var head: (status: Int, reason: String, headers: [(String, String)])?
    private var isDone = false
    /// The hop under way, its number, and the URLs visited.
    private var current: Hop
    private var hop = 0
    private var visited: Set<String>
    private let deadline: NIODeadline?
    /// The whole exchange's time limit, for messages.
    private let limit: TimeSpan?
    /// Whether the hop under way reached its server (its request was sent).
    private var connected = false
    private var live: (any LiveLoop)?
    /// For a stream with an idle timeout: when data last arrived, and the
    /// timer that checks it.
    private var lastActivity = TimeSpan.zero
    private var idleCheck: Disposable?
    private var consumerWantsMore = true
    private var heldAcknowledgement: Acknowledgement?

    init(observer: Observer, call: HTTPNode.Call, kind: HTTPNode.Kind, name: String, location: SourceLocation?, access: Access) {
        self.observer = observer
        self.call = call
        self.kind = kind
        self.name = name
        self.location = location
        self.access = access
        current = Hop(url: call.url, method: call.method, headers: call.headers, body: call.body)
        visited = [call.url]
        let total = kind.isStreaming ? call.deadline : call.timeout
        limit = total
        deadline = total.map { NIODeadline.now() + .nanoseconds($0.nanoseconds) }
    }

    func startLive(on live: any LiveLoop) {
        self.live = live
        hold = live.hold()
        if kind.isStreaming, let idle = call.timeout { watchIdleness(idle, on: live) }
        send(current, hop: hop, on: live)
    }

    /// Judges and sends one hop. Judging may resolve a name, which can
    /// wait on a resolver: done on a thread of its own, never on the loop.
    private func send(_ request: Hop, hop number: Int, on live: any LiveLoop) {
        let access = self.access, name = self.name, kind = self.kind, deadline = self.deadline, limit = self.limit
        let deliver = live.makeCallback { (event: HTTPEvent) in self.handle(event, hop: number) }
        let started = live.makeCallback { [weak self] (task: HTTPClient.Task<Void>) in
            guard let self, number == self.hop, !self.isDone else { return task.cancel() }
            self.task = task
        }
        startBackgroundThread {
            let prepared: PreparedRequest
            do { prepared = try FlowHTTP.prepare(request, access: access, name: name) } catch {
                return deliver(.refused(FlowError.wrap(error).message))
            }
            let events = HTTPEvents(kind, server: request.url, limit: limit, send: deliver)
            let task = prepared.execute(delegate: events, deadline: deadline)
            // Some failures fail the task without telling the delegate; one
            // the delegate did report arrives twice, and the second is ignored.
            task.futureResult.whenFailure { deliver(.failure(events.describe($0))) }
            started(task)
        }
    }

    /// Virtual time: the exchange is awaited, then its events delivered at
    /// the current instant.
    func runVirtually(hop number: Int) {
        let prepared: PreparedRequest
        do { prepared = try FlowHTTP.prepare(current, access: access, name: name) } catch {
            return handle(.refused(FlowError.wrap(error).message), hop: number)
        }
        let collected = NIOLockedValueBox<[HTTPEvent]>([])
        let bytes = NIOLockedValueBox(0)
        let running = NIOLockedValueBox<HTTPClient.Task<Void>?>(nil)
        let events = HTTPEvents(kind, server: current.url, limit: limit) { event in
            // Nothing waits for the loop here: acknowledge at once.
            guard case .lines(let lines, _) = event else { return collected.withLockedValue { $0.append(event) } }
            if lines.isEmpty { return }
            collected.withLockedValue { $0.append(.lines(lines, received: nil)) }
            let total = bytes.withLockedValue { $0 += lines.reduce(0) { $0 + $1.utf8.count }; return $0 }
            if total > HTTPNode.maximumBodyBytes {
                collected.withLockedValue {
                    $0.append(.failure("the stream sent more than \(HTTPNode.maximumBodyBytes >> 20) MiB, "
                                       + "all a virtual-time run keeps; read it on the live clock"))
                }
                running.withLockedValue { $0 }?.cancel()
            }
        }
        let task = prepared.execute(delegate: events, deadline: deadline)
        running.withLockedValue { $0 = task }
        do { try task.futureResult.wait() } catch { collected.withLockedValue { $0.append(.failure(events.describe(error))) } }
        for event in collected.withLockedValue({ $0 }) {
            // A redirect ran the next hop already; this one is over.
            guard number == hop, !isDone else { return }
            handle(event, hop: number)
            if case .failure = event { break }
        }
    }

    /// Follows a redirect as a new request, judged as one.
    private func redirect(status: Int, to target: String) {
        let from = current.url
        guard let next = URL(string: target, relativeTo: URL(string: from))?.absoluteString else {
            return fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): redirected to \(SecretsHidden.quoted(target)), which is not a URL", at: location))
        }
        let limit = access.permissions.maximumRedirects
        guard visited.count <= limit else {
            return fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): redirected more than \(limit) times "
                                  + "(\(access.permissions.command) --max-redirects=\(max(limit * 2, 10)) allows more)", at: location))
        }
        guard !visited.contains(next) else {
            return fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): redirected in a cycle (\(SecretsHidden.url(next)) was visited already)", at: location))
        }
        if let problem = HTTPNode.problem(with: next) {
            return fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): redirected to \(SecretsHidden.quoted(next)), which cannot be requested: \(problem)",
                                  at: location))
        }
        visited.insert(next)
        var request = current
        request.url = next
        // As browsers and curl do: 303, and 301/302 after a POST, become a GET without a body.
        if status == 303 || ((status == 301 || status == 302) && current.method == .POST) {
            request.method = .GET
            request.body = nil
            request.headers.removeAll { ["content-type", "content-length"].contains($0.0.lowercased()) }
        }
        // Credentials are for the origin they were written for.
        if Access.hostAndPort(of: next).map({ "\($0.0):\($0.1)" }) != Access.hostAndPort(of: from).map({ "\($0.0):\($0.1)" }) {
            request.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.0.lowercased()) }
        }
        task?.cancel()
        task = nil
        head = nil
        connected = false
        hop += 1
        current = request
        if let live { send(request, hop: hop, on: live) } else { runVirtually(hop: hop) }
    }

    /// Fails the stream when `idle` passes with no data. One timer, moved
    /// on lazily: each check re-arms it for the latest activity.
    func watchIdleness(_ idle: TimeSpan, on scheduler: Scheduler) {
        idleClock = scheduler
        lastActivity = scheduler.now
        func arm(at due: TimeSpan) {
            idleCheck = scheduler.schedule(at: due) { [weak self] in
                guard let self, !self.isDone else { return }
                if !self.consumerWantsMore { self.lastActivity = scheduler.now }
                let due = self.lastActivity + idle
                if scheduler.now >= due {
                    self.handle(.failure(self.head != nil ? "no data for \(idle) (the timeout between chunks of a stream)"
                                         : HTTPEvents.unanswered(self.current.url, connected: self.connected, within: idle)), hop: self.hop)
                    self.task?.cancel()
                } else {
                    arm(at: due)
                }
            }
        }
        arm(at: lastActivity + idle)
    }

    /// The clock activity is measured on, when an idle timeout is watched.
    private var idleClock: Scheduler?

    /// One event of hop `number`: ignored unless it is the hop under way.
    func handle(_ event: HTTPEvent, hop number: Int) {
        guard !isDone, number == hop else { return }
        if let idleClock { lastActivity = idleClock.now }
        switch event {
        case .head(let status, let reason, let headers):
            if [301, 302, 303, 307, 308].contains(status), let target = headers.first(where: { $0.0.lowercased() == "location" })?.1 {
                return redirect(status: status, to: target)
            }
            head = (status, reason, headers)
            if case .response(raw: true) = kind { return }
            if !(200..<300).contains(status) {
                fail(FlowError(.record([
                    "message": .string("\(call.method.rawValue) \(SecretsHidden.url(call.url)): HTTP \(status) \(reason)"),
                    "status": .int(status),
                ]), at: location))
            }
        case .lines(let lines, let received):
            for line in lines where !isDone { observer.onNext(.string(line)) }
            if !consumerWantsMore, !isDone { heldAcknowledgement = received }
        case .event(let name, let data, let id):
            observer.onNext(.record(["event": .string(name), "data": .string(data), "id": id.map(Value.string) ?? .null]))
        case .body(let text):
            var headers = OrderedDictionary<Value, Value>()
            for (name, value) in head?.headers ?? [] { headers[.string(name.lowercased())] = .string(value) }
            observer.onNext(.record(["status": .int(head?.status ?? 0), "headers": .dictionary(headers), "body": .string(text)]))
        case .end:
            finish()
            observer.onCompleted()
        case .sent:
            connected = true
        case .failure(let reason):
            fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): \(reason)", at: location))
        case .refused(let message) where hop == 0:
            fail(FlowError(message, at: location))
        case .refused(let message):
            fail(FlowError("\(call.method.rawValue) \(SecretsHidden.url(call.url)): redirected to \(SecretsHidden.url(current.url)), and \(message)", at: location))
        }
    }

    private func fail(_ error: FlowError) {
        dispose()
        observer.onError(error)
    }

    func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        if wantsMore {
            heldAcknowledgement = nil
            if let idleClock { lastActivity = idleClock.now }
        }
    }

    private func finish() {
        isDone = true
        heldAcknowledgement = nil
        idleCheck?.dispose()
        idleCheck = nil
        let h = hold
        hold = nil
        h?.dispose()
    }

    func dispose() {
        guard !isDone else { return }
        finish()
        task?.cancel()
    }
}

/// Receives the exchange on the client's event loop (one at a time) and
/// reports it as `HTTPEvent`s.
final class HTTPEvents: HTTPClientResponseDelegate, @unchecked Sendable {
    // Mutable state is touched only by the delegate callbacks, which the
    // client calls one after another on the request's event loop.
    typealias Response = Void

    private let kind: HTTPNode.Kind
    private let send: @Sendable (HTTPEvent) -> Void
    /// The URL requested and the exchange's time limit, for messages.
    private let server: String
    private let limit: TimeSpan?
    /// How far the exchange came: a time limit passing before the request
    /// was sent means the server never accepted the connection.
    private var requestSent = false
    private var headReceived = false
    private var splitter = LineSplitter()
    private var body: [UInt8] = []
    private var pendingEvent: (name: String, data: [String], id: String?) = ("message", [], nil)
    private var failed = false

    init(_ kind: HTTPNode.Kind, server: String, limit: TimeSpan?, send: @escaping @Sendable (HTTPEvent) -> Void) {
        self.kind = kind
        self.server = server
        self.limit = limit
        self.send = send
    }

    func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
        requestSent = true
        send(.sent)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        headReceived = true
        send(.head(status: Int(head.status.code), reason: head.status.reasonPhrase, headers: head.headers.map { ($0.name, $0.value) }))
        return task.eventLoop.makeSucceededFuture(())
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let bytes = buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
        do {
            switch kind {
            case .response:
                body += bytes
                if body.count > HTTPNode.maximumBodyBytes {
                    throw FlowError("the response body is larger than \(HTTPNode.maximumBodyBytes >> 20) MiB; read it with http.lines")
                }
            case .lines:
                // The next chunk is read once the loop has delivered these lines.
                let promise = task.eventLoop.makePromise(of: Void.self)
                send(.lines(try splitter.lines(in: bytes[...]), received: Acknowledgement(promise)))
                return promise.futureResult
            case .events:
                for line in try splitter.lines(in: bytes[...]) { eventLine(line) }
                // An empty batch marks activity for the idle timeout, and
                // holds the client back until the loop has caught up.
                let promise = task.eventLoop.makePromise(of: Void.self)
                send(.lines([], received: Acknowledgement(promise)))
                return promise.futureResult
            }
        } catch {
            failed = true
            send(.failure(FlowError.wrap(error).message))
            task.cancel()
        }
        return task.eventLoop.makeSucceededFuture(())
    }

    /// Server-sent events: fields until a blank line dispatches the event.
    private func eventLine(_ line: String) {
        if line.isEmpty {
            if !pendingEvent.data.isEmpty {
                send(.event(name: pendingEvent.name, data: pendingEvent.data.joined(separator: "\n"), id: pendingEvent.id))
            }
            pendingEvent = ("message", [], pendingEvent.id)
            return
        }
        if line.hasPrefix(":") { return }
        let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let field = String(parts[0])
        var value = parts.count > 1 ? String(parts[1]) : ""
        if value.hasPrefix(" ") { value.removeFirst() }
        switch field {
        case "event": pendingEvent.name = value
        case "data": pendingEvent.data.append(value)
        case "id": pendingEvent.id = value
        default: break
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        guard !failed else { return }
        switch kind {
        case .response: send(.body(String(decoding: body, as: UTF8.self)))
        case .lines: if let rest = splitter.rest() { send(.lines([rest], received: nil)) }
        case .events: if let rest = splitter.rest() { eventLine(rest) }; eventLine("")
        }
        send(.end)
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
        failed = true
        send(.failure(describe(error)))
    }

    /// A failure in words a script writer can act on, saying how far the
    /// exchange came: a server that never accepted the connection, one that
    /// accepted it and never answered, one that stopped half-way.
    func describe(_ error: Error) -> String {
        let address = Self.address(of: server)
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout:
                return Self.unanswered(server, connected: false, within: min(limit ?? FlowHTTP.connectTimeout, FlowHTTP.connectTimeout))
            case .readTimeout, .deadlineExceeded:
                guard let limit else { break }
                if !headReceived { return Self.unanswered(server, connected: requestSent, within: limit) }
                return kind.isStreaming ? "the stream's deadline of \(limit) passed"
                    : "\(address) sent part of the response, and not the rest within \(limit)"
            case .remoteConnectionClosed:
                return headReceived ? "\(address) closed the connection before the response was complete"
                    : "\(address) closed the connection without sending a response"
            default: break
            }
        }
        if let e = error as? IOError, e.errnoCode == ETIMEDOUT, !requestSent { return "\(address) did not accept the connection (timed out)" }
        return Self.describe(error)
    }

    /// `127.0.0.1:8080`: the server as the URL names it, its port always shown.
    static func address(of url: String) -> String {
        guard let (host, port) = Access.hostAndPort(of: url) else { return SecretsHidden.url(url) }
        return "\(host):\(port)"
    }

    /// A server that gave no response within `time`, in words that say
    /// whether it accepted the connection.
    static func unanswered(_ url: String, connected: Bool, within time: TimeSpan) -> String {
        connected ? "\(address(of: url)) accepted the connection but sent no response within \(time)"
            : "\(address(of: url)) did not accept the connection within \(time)"
    }

    /// A failure in words a script writer can act on, whatever the exchange's state.
    static func describe(_ error: Error) -> String {
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout: return "timed out connecting"
            case .readTimeout, .deadlineExceeded: return "timed out waiting for the response"
            case .remoteConnectionClosed: return "the server closed the connection before the response was complete"
            case .cancelled: return "cancelled"
            case .invalidURL, .emptyHost, .emptyScheme: return "not a URL flow can request; write it as http://host/path"
            default: break
            }
        }
        if let e = error as? HTTPParserError {
            switch e {
            case .invalidEOFState, .closedConnection: return "the server closed the connection before the response was complete"
            default: return "the server's answer is not valid HTTP (\(e))"
            }
        }
        if let e = error as? IOError { return systemError(e.errnoCode) }
        if let e = error as? NIOConnectionError {
            if let io = e.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first { return systemError(io.errnoCode) }
            if e.connectionErrors.isEmpty { return "cannot resolve the host" }
        }
        let text = String(describing: error)
        if text.contains("Connection refused") { return "connection refused" }
        if text.contains("NXDOMAIN") || text.contains("resolve") || text.contains("getaddrinfo") { return "cannot resolve the host" }
        if text.contains("handshakeFailed") {
            // BoringSSL's reason is the last upper-case word after "OPENSSL_internal:".
            let reason = text.split(separator: "OPENSSL_internal:").last?.prefix { $0.isUppercase || $0 == "_" }
            return "TLS failure: the handshake failed" + (reason.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        }
        if text.contains("SSL") || text.contains("TLS") { return "TLS failure: the secure connection could not be set up" }
        if text.contains("connectTimeout") { return "timed out connecting" }
        return "the request failed (\(text))"
    }

    /// A system error in plain words, as a person would say it.
    private static func systemError(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "the server reset the connection"
        case EPIPE: return "the server closed the connection while the request was being sent"
        case ETIMEDOUT: return "timed out connecting"
        case EHOSTUNREACH, ENETUNREACH: return "the host cannot be reached"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
