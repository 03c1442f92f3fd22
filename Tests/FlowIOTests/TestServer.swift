import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP server on 127.0.0.1 for the tests: fixed JSON, error statuses,
/// a slow response, streamed lines, a stream that falls silent, redirects
/// (a cycle among them), server-sent events, an echo, and an
/// EONET-shaped API. It counts connections the client closed before their
/// response was sent, to check cancellation.
/// Runs `body` with a fresh server, shut down after it.
func withServer(_ body: (TestServer) throws -> Void) throws {
    let server = try TestServer()
    defer { server.shutdown() }
    try body(server)
}

final class TestServer: Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let port: Int
    private let channel: Channel
    let abandoned = NIOLockedValueBox(0)
    /// Requests received, by path.
    let requests = NIOLockedValueBox<[String]>([])
    /// The bodies posted to /alert, in order.
    let alerts = NIOLockedValueBox<[String]>([])
    /// Requests to /flaky so far: two of every three fail.
    let flakyCount = NIOLockedValueBox(0)
    /// Bytes of /many-lines' body the socket took so far: sent only while
    /// the connection is writable, so a client that stops reading stops it.
    let streamedBytes = NIOLockedValueBox(0)

    var base: String { "http://127.0.0.1:\(port)" }

    init() throws {
        let abandoned = self.abandoned, requests = self.requests, alerts = self.alerts, flakyCount = self.flakyCount
        let streamedBytes = self.streamedBytes
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(abandoned: abandoned, requests: requests, alerts: alerts, flakyCount: flakyCount,
                                                        streamedBytes: streamedBytes))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
    }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    static let categories = #"{"categories":[{"id":"fires","title":"Wildfires"},{"id":"floods","title":"Floods"},{"id":"volcanoes","title":"Volcanoes"}]}"#

    /// Open and closed events per category.
    static let eventCounts = ["fires": (open: 3, closed: 1), "floods": (open: 1, closed: 2), "volcanoes": (open: 2, closed: 0)]

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        // Used only on the channel's event loop.
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let abandoned: NIOLockedValueBox<Int>
        private let requests: NIOLockedValueBox<[String]>
        private let alerts: NIOLockedValueBox<[String]>
        private let flakyCount: NIOLockedValueBox<Int>
        private let streamedBytes: NIOLockedValueBox<Int>
        /// /many-lines' chunks still to send.
        private var chunksLeft = 0
        private var head: HTTPRequestHead?
        private var body = ""
        private var responding = false

        init(abandoned: NIOLockedValueBox<Int>, requests: NIOLockedValueBox<[String]>, alerts: NIOLockedValueBox<[String]>,
             flakyCount: NIOLockedValueBox<Int>, streamedBytes: NIOLockedValueBox<Int>) {
            self.streamedBytes = streamedBytes
            self.abandoned = abandoned
            self.requests = requests
            self.alerts = alerts
            self.flakyCount = flakyCount
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let h): head = h; body = ""
            case .body(var buffer): body += buffer.readString(length: buffer.readableBytes) ?? ""
            case .end: if let head { route(head, context: context) }
            }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if chunksLeft > 0 { pump(context) }
            context.fireChannelWritabilityChanged()
        }

        /// Sends /many-lines' chunks while the connection is writable.
        private func pump(_ context: ChannelHandlerContext) {
            let line = String(repeating: "x", count: 4095) + "\n"
            let chunk = String(repeating: line, count: 16)
            while chunksLeft > 0 && context.channel.isWritable {
                chunksLeft -= 1
                let sent = context.eventLoop.makePromise(of: Void.self)
                let streamedBytes = self.streamedBytes, size = chunk.utf8.count
                sent.futureResult.whenSuccess { streamedBytes.withLockedValue { $0 += size } }
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: chunk)))), promise: sent)
            }
            if chunksLeft == 0 && responding {
                responding = false
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if responding { abandoned.withLockedValue { $0 += 1 } }
            context.fireChannelInactive()
        }

        private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
            let path = String(head.uri.split(separator: "?").first ?? "")
            let query = Dictionary(uniqueKeysWithValues: (head.uri.split(separator: "?").dropFirst().first ?? "")
                .split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                })
            requests.withLockedValue { $0.append(path) }
            switch path {
            case "/redirect/to": redirect(context, to: (query["url"] ?? "/").removingPercentEncoding ?? "/")
            case let p where p.hasPrefix("/redirect/chain/"):
                // /redirect/chain/N redirects N times, then answers /json.
                let n = Int(p.dropFirst(16)) ?? 0
                redirect(context, to: n > 1 ? "/redirect/chain/\(n - 1)" : "/json")
            case "/json": respond(context, .ok, #"{"name":"flow","items":[1,2,3]}"#, type: "application/json")
            case "/echo": respond(context, .ok, body, type: head.headers["content-type"].first ?? "text/plain")
            case "/malformed": respond(context, .ok, "{not json", type: "application/json")
            case "/flaky":
                // examples/ops/poll-api.flow's API: two requests of every three fail.
                let n = flakyCount.withLockedValue { $0 += 1; return $0 }
                if n % 3 == 0 { respond(context, .ok, "answer \(n / 3)", type: "text/plain") }
                else { respond(context, .serviceUnavailable, "busy", type: "text/plain") }
            case "/alert":
                // examples/ops/tail-alert.flow's webhook.
                alerts.withLockedValue { $0.append(body) }
                respond(context, .ok, "{}", type: "application/json")
            case let p where p.hasPrefix("/discount/"):
                // examples/orders.flow's discount service: ada gets 10%, anyone else none.
                respond(context, .ok, #"{"percent": \#(p == "/discount/ada" ? 10 : 0)}"#, type: "application/json")
            case let p where p.hasPrefix("/status/"):
                respond(context, HTTPResponseStatus(statusCode: Int(p.dropFirst(8)) ?? 500), "nope", type: "text/plain")
            case "/slow":
                responding = true
                context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(3)) { [self] in
                    if context.channel.isActive { respond(context, .ok, "late", type: "text/plain") }
                }
            case "/lines": stream(context, ["one\n", "two\n", "three"], type: "application/x-ndjson")
            case "/page":
                // One page of a paged API: 500 lines of 1 KiB, numbered by the page asked for.
                let page = Int(query["n"] ?? "") ?? 0
                let lines = (0..<500).map { "\(page * 500 + $0) " + String(repeating: "x", count: 1017) + "\n" }
                respond(context, .ok, lines.joined(), type: "text/plain")
            case "/many-lines":
                // 100 MB of 4 KiB lines, as fast as the client takes them.
                responding = true
                let headers = HTTPHeaders([("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                chunksLeft = 1600
                pump(context)
            case "/events":
                stream(context, ["event: greeting\ndata: hello\nid: 1\n\n", ": a comment\ndata: a\ndata: b\n\n"], type: "text/event-stream")
            case "/redirect/self": redirect(context, to: "/redirect/self")
            case "/redirect/a": redirect(context, to: "/redirect/b")
            case "/redirect/b": redirect(context, to: "/redirect/a")
            case "/redirect/json": redirect(context, to: "/json")
            case "/quiet":
                // One line, then silence with the connection open.
                responding = true
                let headers = HTTPHeaders([("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "hello\n")))), promise: nil)
            case "/api/v3/categories": respond(context, .ok, TestServer.categories, type: "application/json")
            case "/api/v3/events":
                let counts = TestServer.eventCounts[query["category"] ?? ""] ?? (0, 0)
                let n = query["status"] == "closed" ? counts.closed : counts.open
                let events = (0..<n).map { #"{"id":"\#(query["category"] ?? "")-\#($0)","title":"event \#($0)"}"# }
                respond(context, .ok, #"{"events":[\#(events.joined(separator: ","))]}"#, type: "application/json")
            default: respond(context, .notFound, "no route", type: "text/plain")
            }
        }

        private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ text: String, type: String) {
            responding = false
            var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", "\(text.utf8.count)")])
            headers.add(name: "X-Test", value: "yes")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func redirect(_ context: ChannelHandlerContext, to location: String) {
            let headers = HTTPHeaders([("Location", location), ("Content-Length", "0")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .movedPermanently, headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        /// A chunked body, one part every 30 ms.
        private func stream(_ context: ChannelHandlerContext, _ parts: [String], type: String) {
            let headers = HTTPHeaders([("Content-Type", type), ("Transfer-Encoding", "chunked")])
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            for (i, part) in parts.enumerated() {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(30 * (i + 1)))) { [self] in
                    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: part)))), promise: nil)
                    if i == parts.count - 1 { context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil) }
                }
            }
        }
    }
}
