import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// JSON-RPC's base protocol: each message a `Content-Length` header, a
/// blank line, and that many bytes of JSON.
public struct MessageFramer {
    private var buffer: [UInt8] = []

    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next whole message's body, or nil until one has come.
    public mutating func next() throws -> [UInt8]? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headerEnd = buffer.indices.dropLast(3).first(where: { Array(buffer[$0..<($0 + 4)]) == separator }) else {
            if buffer.count > 64 * 1024 { throw Malformed(description: "a header longer than 64 KiB") }
            return nil
        }
        let header = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        guard let length, length >= 0 else { throw Malformed(description: "a message without a Content-Length: \(header)") }
        let start = headerEnd + 4
        guard buffer.count >= start + length else { return nil }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        return body
    }

    public static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

/// `flow lsp`: the server on standard input and output; what it logs
/// goes to standard error. One thread reads and frames messages, another
/// computes the answers in order: so a `$/cancelRequest` is read while a
/// request is being computed and stops it (`RequestCancellation`).
public enum StdioTransport {
    /// Serves until `exit` (or the end of input); returns the exit status.
    public static func run(_ server: LanguageServer, input: Int32 = 0, output: Int32 = 1) -> Int32 {
        let inbox = Inbox()
        let cancellation = server.cancellation
        server.sendAtOnce = { write(LanguageServer.encode($0), to: output) }
        let reader = Thread {
            read(input, into: inbox, cancelling: cancellation)
        }
        reader.stackSize = 1 << 20
        reader.start()
        while true {
            // What has arrived together is handled together, so a request
            // cancelled before its turn is not computed.
            let (arrived, ending) = inbox.take()
            for reply in server.receive(batch: arrived) { write(reply, to: output) }
            if let status = server.exitStatus { return status }
            switch ending {
            case nil: continue
            case .endOfInput: return server.exitStatus ?? 1
            case .malformed(let problem):
                log("flow lsp: \(problem)")
                return 1
            }
        }
    }

    /// Messages read and not yet handled, and how the input ended.
    final class Inbox: Sendable {
        enum Ending: Sendable {
            case endOfInput
            case malformed(String)
        }

        private let queue = Mutex<(messages: [[UInt8]], ending: Ending?)>(([], nil))
        private let arrived = DispatchSemaphore(value: 0)

        func put(_ message: [UInt8]) {
            queue.withLock { $0.messages.append(message) }
            arrived.signal()
        }

        func end(_ ending: Ending) {
            queue.withLock { $0.ending = $0.ending ?? ending }
            arrived.signal()
        }

        /// Waits for messages (or the end), and takes all there are.
        func take() -> (messages: [[UInt8]], ending: Ending?) {
            while true {
                arrived.wait()
                let taken = queue.withLock { queue -> (messages: [[UInt8]], ending: Ending?)? in
                    guard !queue.messages.isEmpty || queue.ending != nil else { return nil }
                    defer { queue.messages = [] }
                    return (queue.messages, queue.messages.isEmpty ? queue.ending : nil)
                }
                if let taken { return taken }
            }
        }
    }

    /// The reading thread: frames messages into the inbox, and passes each
    /// `$/cancelRequest` on at once.
    private static func read(_ input: Int32, into inbox: Inbox, cancelling cancellation: RequestCancellation) {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(input, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return inbox.end(.endOfInput) }
            framer.append(chunk[0..<count])
            do {
                while let body = try framer.next() {
                    if let id = cancelledID(body) { cancellation.cancel(id) }
                    inbox.put(body)
                }
            } catch {
                return inbox.end(.malformed("\(error)"))
            }
        }
    }

    /// The request a `$/cancelRequest` message cancels.
    static func cancelledID(_ body: [UInt8]) -> Any? {
        // Only a message that can be one is parsed twice (its method may
        // be written `$\/cancelRequest`: JSON may escape a slash).
        guard body.count < 4096, String(decoding: body, as: UTF8.self).contains("cancelRequest"),
              let message = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              message["method"] as? String == "$/cancelRequest" else { return nil }
        return (message["params"] as? [String: Any])?["id"]
    }

    static func write(_ body: [UInt8], to output: Int32) {
        let framed = MessageFramer.frame(body)
        var offset = 0
        while offset < framed.count {
            let n = framed[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }

    static func log(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

extension LanguageServer {
    /// Handles one message's JSON text; returns the JSON texts to send.
    public func receive(_ body: [UInt8]) -> [[UInt8]] { receive(batch: [body]) }

    /// Handles messages that arrived together, in order; a request that a
    /// later `$/cancelRequest` among them cancels is answered as cancelled
    /// (-32800) without being computed. Stops at `exit`.
    public func receive(batch bodies: [[UInt8]]) -> [[UInt8]] {
        let messages = bodies.map { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        var cancellations: [Int: Set<String>] = [:]
        for (index, message) in messages.enumerated() where message?["method"] as? String == "$/cancelRequest" {
            if let id = (message?["params"] as? [String: Any])?["id"] { cancellations[index, default: []].insert("\(id)") }
        }
        var replies: [[UInt8]] = []
        for (index, message) in messages.enumerated() {
            guard exitStatus == nil else { break }
            guard let message else {
                replies.append(Self.encode(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": -32700, "message": "the message is not a JSON object"]]))
                continue
            }
            if let id = message["id"], message["method"] != nil,
               cancellations.contains(where: { $0.key > index && $0.value.contains("\(id)") }) {
                replies.append(Self.encode(cancelled(id)))
                continue
            }
            replies += handle(message).map(Self.encode)
        }
        return replies
    }

    /// A message as JSON, keys sorted (a transcript compares them as text).
    public static func encode(_ message: Message) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }
}
