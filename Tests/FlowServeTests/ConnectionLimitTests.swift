import FlowTestSupport
import Foundation
import Testing

/// `flow serve` against clients that do not play by the rules, over raw
/// sockets on loopback: huge or endless heads, huge or slow bodies,
/// unmasked WebSocket frames, more connections than it can hold. Each is
/// answered as HTTP says (431, 413, 411, 408, a 1002 close), and the server
/// stays up for its page and for SIGTERM.
@Suite struct ConnectionLimitTests {
    @Test func hugeHeadsAndBodiesAreAnsweredBeforeTheyAreRead() throws {
        let served = try ServedFolder()
        let host = "Host: 127.0.0.1:\(served.port)\r\n"
        let hugeField = "GET /api/files HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 1_000_000))\r\n\r\n"
        #expect(try RawClient(served.port).send(hugeField).firstLine() == "HTTP/1.1 431 Request Header Fields Too Large")
        let manyFields = "GET /api/files HTTP/1.1\r\n\(host)" + (0..<10_000).map { "X-\($0): a\r\n" }.joined() + "\r\n"
        #expect(try RawClient(served.port).send(manyFields).firstLine() == "HTTP/1.1 431 Request Header Fields Too Large")
        let hugeBody = "POST /api/render HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"
        #expect(try RawClient(served.port).send(hugeBody).firstLine() == "HTTP/1.1 413 Content Too Large")
        let chunked = "POST /api/render HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n"
        #expect(try RawClient(served.port).send(chunked).firstLine() == "HTTP/1.1 411 Length Required")
        // A request as the page makes it is answered as ever.
        #expect(try RawClient(served.port).send("GET /api/files HTTP/1.1\r\n\(host)\r\n").firstLine() == "HTTP/1.1 200 OK")
    }

    /// A head that never ends and a body that never comes hold nothing:
    /// 408 after their deadlines (10 s and 30 s), while the server answers others.
    @Test func slowHeadsAndBodiesAreAnswered408() throws {
        let served = try ServedFolder()
        let host = "Host: 127.0.0.1:\(served.port)\r\n"
        let slowHead = try RawClient(served.port).send("GET /api/files HTTP/1.1\r\n")
        let slowBody = try RawClient(served.port).send("POST /api/render HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        #expect(try RawClient(served.port).send("GET /api/files HTTP/1.1\r\n\(host)\r\n").firstLine() == "HTTP/1.1 200 OK")
        #expect(try slowHead.firstLine(waiting: 120) == "HTTP/1.1 408 Request Timeout")
        #expect(try slowBody.firstLine(waiting: 120) == "HTTP/1.1 408 Request Timeout")
    }

    /// RFC 6455 §5.1: a server closes the connection on a client frame that
    /// is not masked; masked frames are read as before.
    @Test func anUnmaskedClientFrameClosesTheWebSocket() throws {
        let served = try ServedFolder()
        let upgrade = "GET /live HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let unmasked = try RawClient(served.port).send(upgrade)
        #expect(try unmasked.readHead().hasPrefix("HTTP/1.1 101"))
        try unmasked.send(bytes: [0x81, 0x02] + Array("hi".utf8))
        #expect(try unmasked.readToEnd() == [0x88, 0x02, 0x03, 0xEA], "a close frame with status 1002, then the end")

        let masked = try RawClient(served.port).send(upgrade)
        #expect(try masked.readHead().hasPrefix("HTTP/1.1 101"))
        let message = Array(#"{"text":"print(1)","name":"x.flow"}"#.utf8), mask: [UInt8] = [1, 2, 3, 4]
        try masked.send(bytes: [0x81, 0x80 | UInt8(message.count)] + mask + message.enumerated().map { $1 ^ mask[$0 % 4] })
        let reply = try masked.read(atLeast: 8)
        #expect(reply.first == 0x81 && String(decoding: reply, as: UTF8.self).contains("\"live\""), "\(reply)")
    }

    /// Under an open-files limit of 128 (so at most 64 connections): 100
    /// idle connections (a thousand half-open ones made the server
    /// unreachable, spinning on accept) make room for a new request, the
    /// oldest closed first; SIGTERM still ends the server.
    @Test func pastTheConnectionLimitTheOldestIdleMakesRoom() throws {
        let served = try ServedFolder(openFiles: 128)
        let host = "Host: 127.0.0.1:\(served.port)\r\n"
        let idle = try (0..<100).map { _ in try RawClient(served.port) }
        #expect(try RawClient(served.port).send("GET /api/files HTTP/1.1\r\n\(host)\r\n").firstLine(waiting: 60) == "HTTP/1.1 200 OK")
        #expect(try idle[0].readToEnd(waiting: 60).isEmpty, "the oldest idle connection is closed")
        #expect(served.stop(with: SIGTERM) == 143)
        _ = idle
    }

    /// When every connection it holds is busy (64 WebSockets, each upgraded,
    /// under an open-files limit of 128) there is none to close for a new
    /// one: it is answered 503 and closed, and the server stays up. Once a
    /// WebSocket goes, the next request is answered as ever.
    @Test func whenEveryConnectionIsBusyANewOneIsAnswered503() throws {
        let served = try ServedFolder(openFiles: 128)
        let host = "Host: 127.0.0.1:\(served.port)\r\n"
        let upgrade = "GET /live HTTP/1.1\r\n\(host)Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        var busy: [RawClient] = []
        for _ in 0..<64 {
            let socket = try RawClient(served.port).send(upgrade)
            #expect(try socket.readHead().hasPrefix("HTTP/1.1 101"))
            busy.append(socket)
        }
        let refused = try RawClient(served.port)
        #expect(try refused.firstLine() == "HTTP/1.1 503 Service Unavailable")
        _ = try refused.readToEnd(waiting: 60) // then closed: a connection left open throws here
        #expect(busy.count == 64)
        busy.removeFirst()
        // The server sees the WebSocket go when its close arrives: ask until it has.
        var answer = ""
        let answered = waitFor(seconds: 60) {
            answer = (try? RawClient(served.port).send("GET /api/files HTTP/1.1\r\n\(host)\r\n").firstLine()) ?? ""
            return answer == "HTTP/1.1 200 OK"
        }
        #expect(answered, "the last answer: \(answer)")
        #expect(served.stop(with: SIGTERM) == 143)
        _ = busy
    }
}

/// A client on a raw TCP socket to 127.0.0.1.
final class RawClient {
    private let fd: Int32

    init(_ port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawClientError(description: "connect: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Sends all of `text`; a server that closes early may take less (it answered already).
    @discardableResult
    func send(_ text: String) throws -> RawClient {
        try send(bytes: Array(text.utf8))
        return self
    }

    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Bytes until the server closes, or `waiting` seconds pass.
    func readToEnd(waiting: Double = 60) throws -> [UInt8] {
        try read(until: { _ in false }, waiting: waiting)
    }

    func read(atLeast count: Int, waiting: Double = 60) throws -> [UInt8] {
        try read(until: { $0.count >= count }, waiting: waiting)
    }

    /// The response head (up to the blank line), as text.
    func readHead(waiting: Double = 60) throws -> String {
        String(decoding: try read(until: { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }, waiting: waiting), as: UTF8.self)
    }

    /// The response's status line.
    func firstLine(waiting: Double = 60) throws -> String {
        let text = String(decoding: try read(until: { $0.contains(10) }, waiting: waiting), as: UTF8.self)
        return text.split(separator: "\r\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    private func read(until done: ([UInt8]) -> Bool, waiting: Double) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(waiting)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !done(received) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw RawClientError(description: "nothing more within \(waiting) s; received \(received.prefix(200))") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[..<n]
        }
        return received
    }
}

struct RawClientError: Error, CustomStringConvertible {
    let description: String
}
