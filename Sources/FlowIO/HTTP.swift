import AsyncHTTPClient
import Collections
import FlowRuntime
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
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
    }

    struct Call: Sendable {
        var method: HTTPMethod
        var url: String
        var headers: [(String, String)]
        var body: String?
        var timeout: TimeSpan
    }

    let call: Call
    let kind: Kind
    let location: SourceLocation?

    init(_ call: Call, kind: Kind, location: SourceLocation?) {
        self.call = call
        self.kind = kind
        self.location = location
        super.init(operatorName: "http.\(call.method.rawValue.lowercased())")
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let exchange = HTTPExchange(observer: observer, call: call, kind: kind, location: location)
        observer.onSubscribe(exchange)
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: call.url, method: call.method,
                                             headers: HTTPHeaders(call.headers), body: call.body.map { .string($0) })
        } catch {
            return exchange.handle(.failure("not a URL flow can request (\(error)); write it as http://host/path"))
        }
        let deadline = NIODeadline.now() + .nanoseconds(call.timeout.nanoseconds)
        if let live = scheduler as? LiveScheduler {
            exchange.hold = live.hold()
            let deliver = live.makeCallback { (event: HTTPEvent) in exchange.handle(event) }
            exchange.task = FlowHTTP.client.execute(request: request, delegate: HTTPEvents(kind, send: deliver), deadline: deadline)
        } else {
            let collected = NIOLockedValueBox<[HTTPEvent]>([])
            let task = FlowHTTP.client.execute(
                request: request, delegate: HTTPEvents(kind) { event in collected.withLockedValue { $0.append(event) } }, deadline: deadline)
            _ = try? task.futureResult.wait()
            for event in collected.withLockedValue({ $0 }) { exchange.handle(event) }
        }
    }
}

/// flow's client: AsyncHTTPClient's default event loops, and no retrying
/// of a failed connection (by default the pool retries until the request's
/// deadline, so a refused connection would take 30 s to report; a script
/// that wants retries says `retry(n)`). Never shut down: it lives as long as
/// the process.
enum FlowHTTP {
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// What the client's threads report, in order.
enum HTTPEvent: Sendable {
    case head(status: Int, reason: String, headers: [(String, String)])
    case line(String)
    case event(name: String, data: String, id: String?)
    case body(String)
    case end
    case failure(String)
}

/// The subscription side, on the scheduler's thread.
final class HTTPExchange: Disposable {
    private let observer: Observer
    private let call: HTTPNode.Call
    private let kind: HTTPNode.Kind
    private let location: SourceLocation?
    var hold: Disposable?
    var task: HTTPClient.Task<Void>?
    private var head: (status: Int, reason: String, headers: [(String, String)])?
    private var isDone = false

    init(observer: Observer, call: HTTPNode.Call, kind: HTTPNode.Kind, location: SourceLocation?) {
        self.observer = observer
        self.call = call
        self.kind = kind
        self.location = location
    }

    func handle(_ event: HTTPEvent) {
        guard !isDone else { return }
        switch event {
        case .head(let status, let reason, let headers):
            head = (status, reason, headers)
            if case .response(raw: true) = kind { return }
            if !(200..<300).contains(status) {
                fail(FlowError(.record([
                    "message": .string("\(call.method.rawValue) \(call.url): HTTP \(status) \(reason)"),
                    "status": .int(status),
                ]), at: location))
            }
        case .line(let line): observer.onNext(.string(line))
        case .event(let name, let data, let id):
            observer.onNext(.record(["event": .string(name), "data": .string(data), "id": id.map(Value.string) ?? .null]))
        case .body(let text):
            var headers = OrderedDictionary<Value, Value>()
            for (name, value) in head?.headers ?? [] { headers[.string(name.lowercased())] = .string(value) }
            observer.onNext(.record(["status": .int(head?.status ?? 0), "headers": .dictionary(headers), "body": .string(text)]))
        case .end:
            finish()
            observer.onCompleted()
        case .failure(let reason):
            fail(FlowError("\(call.method.rawValue) \(call.url): \(reason)", at: location))
        }
    }

    private func fail(_ error: FlowError) {
        dispose()
        observer.onError(error)
    }

    private func finish() {
        isDone = true
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
    private var splitter = LineSplitter()
    private var body: [UInt8] = []
    private var pendingEvent: (name: String, data: [String], id: String?) = ("message", [], nil)
    private var failed = false

    init(_ kind: HTTPNode.Kind, send: @escaping @Sendable (HTTPEvent) -> Void) {
        self.kind = kind
        self.send = send
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        send(.head(status: Int(head.status.code), reason: head.status.reasonPhrase, headers: head.headers.map { ($0.name, $0.value) }))
        return task.eventLoop.makeSucceededFuture(())
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let bytes = buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
        switch kind {
        case .response: body += bytes
        case .lines: for line in splitter.lines(in: bytes[...]) { send(.line(line)) }
        case .events: for line in splitter.lines(in: bytes[...]) { eventLine(line) }
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
        case .lines: if let rest = splitter.rest() { send(.line(rest)) }
        case .events: if let rest = splitter.rest() { eventLine(rest) }; eventLine("")
        }
        send(.end)
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
        failed = true
        send(.failure(Self.describe(error)))
    }

    /// A failure in words a script writer can act on.
    static func describe(_ error: Error) -> String {
        if let e = error as? HTTPClientError {
            if e == .connectTimeout { return "timed out connecting" }
            if e == .readTimeout || e == .deadlineExceeded { return "timed out waiting for the response" }
            if e == .remoteConnectionClosed { return "the server closed the connection" }
            if e == .cancelled { return "cancelled" }
            return "\(e)"
        }
        if let e = error as? IOError, e.errnoCode == ECONNREFUSED { return "connection refused" }
        if let e = error as? NIOConnectionError {
            if e.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) { return "connection refused" }
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
        if text.contains("SSL") || text.contains("TLS") { return "TLS failure: \(text)" }
        if text.contains("connectTimeout") { return "timed out connecting" }
        return text
    }
}
