import FlowRuntime
import NIOCore

/// Reads the length of each message the server sends before postgres-nio
/// gathers it: a row larger than the memory budget (a 900 MB value under
/// `--max-memory 256MB`) is refused from its five-byte header, before a
/// buffer for it is grown, which under an address-space limit ended the
/// process inside NIO's ByteBuffer (SIGILL). A message over the budget, or
/// one the system would not give the memory for (`MemoryBudget.probe`),
/// ends the connection with a `FlowError` that the statement's error
/// carries to the script.
///
/// It also keeps postgres-nio from a trap: while a result waits for the
/// script to take more rows (demand), postgres-nio asks for no reads and
/// expects no "read complete" until it does; but when the server closes
/// the connection, NIO reads to the end and always says "read complete",
/// asked or not, and postgres-nio stopped the process ("How can we receive
/// a body part, after a channelReadComplete, but no read has been
/// forwarded yet", SIGILL) whenever a server went away under a query read
/// slower than it arrived. A "read complete" that no read asked for is not
/// passed on; the close that follows fails the query as a lost connection.
///
/// It sits right after TLS (or first) and is added once the connection is
/// ready for its first query, when the bytes that follow start a message.
final class ServerMessageGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    /// The type byte and the length of the message being read.
    private var header: [UInt8] = []
    /// Bytes of the current message not yet passed.
    private var remaining = 0
    private var refused = false
    /// Whether a read was asked for since the last "read complete" passed:
    /// one is, when the guard is put in (a channel reading on its own).
    private var readAsked = true

    func read(context: ChannelHandlerContext) {
        readAsked = true
        context.read()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard readAsked else { return }
        readAsked = false
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        var buffer = unwrapInboundIn(data)
        let whole = buffer
        while buffer.readableBytes > 0 {
            if remaining > 0 {
                let skipped = min(remaining, buffer.readableBytes)
                buffer.moveReaderIndex(forwardBy: skipped)
                remaining -= skipped
                continue
            }
            header.append(buffer.readInteger(as: UInt8.self)!)
            guard header.count == 5 else { continue }
            // The length counts itself, not the type byte.
            let length = Int(header[1]) << 24 | Int(header[2]) << 16 | Int(header[3]) << 8 | Int(header[4])
            let kind = header[0]
            header = []
            remaining = max(0, length - 4)
            if let refusal = Self.refusal(kind: kind, bytes: remaining) {
                refused = true
                context.fireErrorCaught(refusal)
                return
            }
        }
        context.fireChannelRead(wrapInboundOut(whole))
    }

    static func refusal(kind: UInt8, bytes: Int) -> FlowError? {
        let what = kind == UInt8(ascii: "D") ? "a row" : "a message"
        do {
            try MemoryBudget.checkString(bytes: bytes, "reading \(what) of \(MemoryBudget.describe(bytes)) from the database; select less of it, as substring(column, 1, 1000000) does")
            return nil
        } catch {
            return FlowError.wrap(error)
        }
    }
}
