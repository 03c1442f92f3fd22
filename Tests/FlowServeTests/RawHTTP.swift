import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 written byte by byte to a loopback socket: requests no client
/// library would send (a path with `..` or `%2e%2e`, a doubled header, a
/// forged cookie), as an attacker sends them to `flow serve`.
struct RawHTTP {
    let port: Int

    struct Answer: CustomStringConvertible {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        /// The token a `Set-Cookie: flow-token=...` gives.
        var token: String? {
            guard let cookie = header("Set-Cookie"), cookie.hasPrefix("flow-token=") else { return nil }
            return String(cookie.dropFirst("flow-token=".count).prefix { $0 != ";" })
        }
        var description: String { "\(status) \(body)" }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `method path` with a body, as the page sends it; `token` as its cookie.
    func send(_ method: String, _ path: String, json body: String? = nil, token: String? = nil, headers: [String] = []) throws -> Answer {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers
        if let token { lines.append("Cookie: flow-token=\(token)") }
        let bytes = Array((body ?? "").utf8)
        if body != nil { lines += ["Content-Type: application/json", "Content-Length: \(bytes.count)"] }
        return try exchange(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + bytes)
    }

    /// Sends `request` as it is and reads the answer to the end.
    func exchange(_ request: [UInt8]) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to 127.0.0.1:\(port): \(errno)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "write: \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return try Self.parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw Failure(description: "no answer: \(text)") }
        let head = text[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("HTTP/1.1 "), let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw Failure(description: "no status line: \(text)")
        }
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = String(text[end.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            var rest = Substring(body), joined = ""
            while let lineEnd = rest.range(of: "\r\n"), let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 {
                let start = lineEnd.upperBound
                let utf8 = rest[start...].utf8
                let stop = utf8.index(utf8.startIndex, offsetBy: size)
                joined += String(rest[start..<stop])
                rest = rest[stop...].dropFirst(2)
            }
            body = joined
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
