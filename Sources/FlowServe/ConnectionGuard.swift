import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// What one connection to `flow serve` may take, judged on its bytes
/// before HTTP or WebSocket code reads them: a server on a learner's
/// machine must stay up for its page whatever else connects to it.
///
/// - At most `mostConnections` at once (half the open-files limit): past
///   it the oldest idle connection is closed for the new one, or the new
///   one is answered 503 when none is idle. A thousand half-open
///   connections made the server unreachable and spin on `accept`.
/// - A request's head within `headDeadline` of its first byte (else 408),
///   a connection silent for `idleDeadline` closed, a body within
///   `bodyDeadline` of its head (else 408): slow clients hold nothing.
/// - A head of more than `largestHead` bytes or `mostHeaderFields` fields
///   is answered 431, a body declared larger than `largestBody` 413, a
///   body of unknown length (chunked) 411: before any of it is kept.
/// - On a WebSocket, a client frame that is not masked closes the
///   connection with 1002 (protocol error), as RFC 6455 §5.1 requires.
struct ConnectionLimits: Sendable {
    var mostConnections = ConnectionLimits.halfTheOpenFilesLimit
    var largestHead = 64 << 10
    var mostHeaderFields = 100
    var largestBody: Int
    var headDeadline = TimeAmount.seconds(10)
    var idleDeadline = TimeAmount.seconds(60)
    var bodyDeadline = TimeAmount.seconds(30)

    static var halfTheOpenFilesLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else { return 512 }
        return max(16, min(4096, Int(limit.rlim_cur) / 2))
    }
}

/// The connections open now, oldest first, each with whether it is idle
/// (between requests, nothing of a head received).
final class OpenConnections: Sendable {
    private struct Entry {
        let id: ObjectIdentifier
        let channel: any Channel
        var isIdle: Bool
    }
    private let entries = Mutex<[Entry]>([])

    /// Takes `channel` in; false when it must be refused. Over the limit,
    /// the oldest idle connection makes room.
    func admit(_ channel: any Channel, id: ObjectIdentifier, limit: Int) -> Bool {
        let evicted: (any Channel)?? = entries.withLock { entries in
            var evicted: (any Channel)?
            if entries.count >= limit {
                guard let oldest = entries.firstIndex(where: \.isIdle) else { return .none }
                evicted = entries.remove(at: oldest).channel
            }
            entries.append(Entry(id: id, channel: channel, isIdle: true))
            return .some(evicted)
        }
        guard let evicted else { return false }
        evicted?.close(promise: nil)
        return true
    }

    func setIdle(_ id: ObjectIdentifier, _ idle: Bool) {
        entries.withLock { entries in
            if let i = entries.firstIndex(where: { $0.id == id }) { entries[i].isIdle = idle }
        }
    }

    func leave(_ id: ObjectIdentifier) {
        entries.withLock { $0.removeAll { $0.id == id } }
    }
}

/// A server child channel guarded by `ConnectionGuardHandler`, first in
/// its pipeline, in front of `inner` (Hummingbird's HTTP and WebSocket).
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: ConnectionLimits
    let open: OpenConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.flatSubmit { [inner, limits, open] in
            let handler = ConnectionGuardHandler(limits: limits, open: open)
            // A connection refused is answered 503 by its guard once it is
            // active: here, before the channel is registered, a write went
            // nowhere and the connection was left open, unanswered.
            handler.refuses = !open.admit(channel, id: ObjectIdentifier(handler), limit: limits.mostConnections)
            do {
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            } catch {
                open.leave(ObjectIdentifier(handler))
                return channel.eventLoop.makeFailedFuture(error)
            }
            return inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the WebSocket upgrade, as Hummingbird's own
    /// `http1WebSocketUpgrade`, each connection guarded by `limits`.
    static func guardedWebSocketUpgrade<Router: HTTPResponderBuilder>(
        webSocketRouter: Router, configuration: WebSocketServerConfiguration, limits: ConnectionLimits
    ) -> HTTPServerBuilder where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        let open = OpenConnections()
        return HTTPServerBuilder { responder in
            GuardedChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                               configuration: .init(http1: .init(), ws: configuration)),
                           limits: limits, open: open)
        }
    }
}

/// Reads a connection's bytes as they arrive, passing them on untouched,
/// and ends the connection itself where a limit is passed (see
/// `ConnectionLimits`). It knows just enough of HTTP/1.1 to find where a
/// head and a body end, and of RFC 6455 to find each frame's mask bit.
final class ConnectionGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Reading a request's head: what of it has come (`head` keeps at
        /// most `largestHead` bytes), and how much of "\r\n\r\n" ends it.
        case head(head: [UInt8], fields: Int, matched: Int)
        case body(remaining: Int)
        /// A WebSocket's frames: the header bytes of the frame under way,
        /// then how much of its payload is left.
        case frameHeader([UInt8])
        case framePayload(remaining: UInt64)
        case ended
    }

    private let limits: ConnectionLimits
    private let open: OpenConnections
    private var state = State.head(head: [], fields: 0, matched: 0)
    private var deadline: Scheduled<Void>?
    /// Past the connection limit with none idle to close: answered 503 and
    /// closed as soon as it is active, nothing of it read.
    var refuses = false

    init(limits: ConnectionLimits, open: OpenConnections) {
        self.limits = limits
        self.open = open
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if refuses {
            if context.channel.isActive { end(context, .answer(503, "Service Unavailable")) }
            return
        }
        waitForAHead(context)
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if refuses { end(context, .answer(503, "Service Unavailable")) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        open.leave(ObjectIdentifier(self))
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        open.leave(ObjectIdentifier(self))
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if case .ended = state { return }
        let verdict = buffer.withUnsafeReadableBytes { judge($0, context) }
        if let verdict {
            end(context, verdict)
            return
        }
        context.fireChannelRead(data)
    }

    /// What ends a connection: a status to answer, or a WebSocket close.
    private enum Verdict {
        case answer(Int, String)
        case closeWebSocket
        case close
    }

    private func judge(_ bytes: UnsafeRawBufferPointer, _ context: ChannelHandlerContext) -> Verdict? {
        var i = 0
        while i < bytes.count {
            switch state {
            case .head(var head, var fields, var matched):
                if head.isEmpty {
                    open.setIdle(ObjectIdentifier(self), false)
                    arm(context, after: limits.headDeadline, .answer(408, "Request Timeout"))
                }
                let byte = bytes[i]
                i += 1
                if head.count >= limits.largestHead { return .answer(431, "Request Header Fields Too Large") }
                head.append(byte)
                let expected: UInt8 = matched % 2 == 0 ? 13 : 10
                if byte == expected {
                    matched += 1
                } else {
                    matched = byte == 13 ? 1 : 0
                }
                if byte == 10 {
                    fields += 1
                    // The request line and the blank line are not fields.
                    if fields - 1 > limits.mostHeaderFields { return .answer(431, "Request Header Fields Too Large") }
                }
                if matched == 4 {
                    if let verdict = headEnded(head, context) { return verdict }
                } else {
                    state = .head(head: head, fields: fields, matched: matched)
                }
            case .body(let remaining):
                let taken = min(remaining, bytes.count - i)
                i += taken
                if remaining - taken == 0 {
                    waitForAHead(context)
                } else {
                    state = .body(remaining: remaining - taken)
                }
            case .frameHeader(var header):
                header.append(bytes[i])
                i += 1
                guard header.count >= 2 else {
                    state = .frameHeader(header)
                    continue
                }
                // RFC 6455 §5.2: a client's frames are masked.
                guard header[1] & 0x80 != 0 else { return .closeWebSocket }
                let short = header[1] & 0x7F
                let lengthBytes = short == 127 ? 8 : short == 126 ? 2 : 0
                guard header.count == 2 + lengthBytes + 4 else {
                    state = .frameHeader(header)
                    continue
                }
                let length = lengthBytes == 0 ? UInt64(short) : header[2..<(2 + lengthBytes)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                state = length == 0 ? .frameHeader([]) : .framePayload(remaining: length)
            case .framePayload(let remaining):
                let taken = min(remaining, UInt64(bytes.count - i))
                i += Int(taken)
                state = remaining - taken == 0 ? .frameHeader([]) : .framePayload(remaining: remaining - taken)
            case .ended:
                return nil
            }
        }
        return nil
    }

    /// A head has come whole: its body's length decides what comes next.
    private func headEnded(_ head: [UInt8], _ context: ChannelHandlerContext) -> Verdict? {
        var length = 0, chunked = false, upgrades = false
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length": length = Int(value) ?? 0
            case "transfer-encoding": chunked = chunked || value.lowercased().contains("chunked")
            case "upgrade": upgrades = upgrades || value.lowercased() == "websocket"
            default: break
            }
        }
        if chunked { return .answer(411, "Length Required") }
        if length > limits.largestBody { return .answer(413, "Content Too Large") }
        if upgrades {
            deadline?.cancel()
            state = .frameHeader([])
        } else if length > 0 {
            arm(context, after: limits.bodyDeadline, .answer(408, "Request Timeout"))
            state = .body(remaining: length)
        } else {
            waitForAHead(context)
        }
        return nil
    }

    private func waitForAHead(_ context: ChannelHandlerContext) {
        state = .head(head: [], fields: 0, matched: 0)
        open.setIdle(ObjectIdentifier(self), true)
        arm(context, after: limits.idleDeadline, .close)
    }

    private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount, _ verdict: Verdict) {
        deadline?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.end(context, verdict)
        }
    }

    private func end(_ context: ChannelHandlerContext, _ verdict: Verdict) {
        if case .ended = state { return }
        state = .ended
        deadline?.cancel()
        var reply = context.channel.allocator.buffer(capacity: 128)
        switch verdict {
        case .answer(let status, let reason):
            reply.writeString("HTTP/1.1 \(status) \(reason)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        case .closeWebSocket:
            // A close frame, unmasked as a server's are: status 1002.
            reply.writeBytes([0x88, 0x02, 0x03, 0xEA])
        case .close:
            break
        }
        context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in context.close(promise: nil) }
    }
}
