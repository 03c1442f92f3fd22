#if canImport(Glibc)
import Glibc
#endif

/// A host as a network permission judges it. The same address has many
/// spellings (`127.0.0.1`, `127.1`, `2130706433`, `0x7f000001`,
/// `0177.0.0.1`, `[::ffff:127.0.0.1]`, `%31%32%37.0.0.1`), and a rule
/// written in one of them must hold for all: every host is brought to one
/// form before it is compared, grants and denials as well as the host a
/// script names.
///
/// The forms: an IPv4 address is written in dotted decimal, whichever way
/// it was written (WHATWG's URL host parser, which is what `inet_aton`
/// and the resolvers accept too: one to four parts, each decimal, octal
/// with a leading `0` or hexadecimal with `0x`, the last filling the bytes
/// left); an IPv6 address that is an IPv4 one (`::ffff:a.b.c.d`) is that
/// IPv4 address; other IPv6 addresses are in brackets, lower case, in
/// `inet_ntop`'s shortest form, without a zone; a name is lower case,
/// percent-escapes decoded, without a trailing dot. The unspecified
/// addresses are the loopback ones they reach: Linux connects a socket
/// aimed at `0.0.0.0` (`0`, `[::ffff:0.0.0.0]`) to 127.0.0.1 and one at
/// `[::]` to `[::1]`, so a rule about the loopback address holds for them.
public enum HostAddress {
    public static func canonical(_ host: String) -> String {
        var text = percentDecoded(host).lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.contains(":") { return ipv6(text).map { reached(canonical(ipv6: $0)) } ?? "[\(text)]" }
        if text.hasSuffix("."), text.count > 1 { text.removeLast() }
        if let address = ipv4(text) { return reached(dotted(address)) }
        return text
    }

    /// The address a connection to `address` (in its one form) reaches.
    static func reached(_ address: String) -> String {
        switch address {
        case "0.0.0.0": "127.0.0.1"
        case "[::]": "[::1]"
        default: address
        }
    }

    /// Whether `host` (canonical) is an IP address rather than a name.
    public static func isAddress(_ canonicalHost: String) -> Bool {
        canonicalHost.hasPrefix("[") || ipv4(canonicalHost) != nil
    }

    /// The IPv4 address `text` spells, by WHATWG's rules; nil for a name or
    /// a number out of range.
    static func ipv4(_ text: String) -> UInt32? {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = number(part) else { return nil }
            numbers.append(number)
        }
        var address: UInt64 = 0
        for number in numbers.dropLast() {
            guard number <= 255 else { return nil }
            address = address << 8 | number
        }
        let room = 8 * (5 - numbers.count)
        guard let last = numbers.last, last < (UInt64(1) << room) else { return nil }
        return UInt32(address << room | last)
    }

    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part, radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
            if digits.isEmpty { return 0 }
        } else if digits.count > 1, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        // Long runs of leading zeros are still the same number.
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 12 else { return nil }
        if significant.isEmpty { return digits.allSatisfy { $0 == "0" } ? 0 : nil }
        return UInt64(significant, radix: radix)
    }

    static func dotted(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xff).\(address >> 8 & 0xff).\(address & 0xff)"
    }

    /// The 16 bytes of an IPv6 address, its zone (`%eth0`) dropped.
    static func ipv6(_ text: String) -> [UInt8]? {
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        return withUnsafeBytes(of: &bytes) { Array($0) }
    }

    private static func canonical(ipv6 bytes: [UInt8]) -> String {
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return dotted(bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "[?]" }
        return "[" + String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "]"
    }

    /// `%XX` escapes decoded, as a URL's host is before it is parsed.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The addresses a name resolves to, each in its one form, in the
    /// resolver's order: what a request to the name is judged by.
    public static func resolve(_ name: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ai_next
            guard let address = entry.ai_addr else { continue }
            var text: String?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    text = dotted(UInt32(bigEndian: $0.pointee.sin_addr.s_addr))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var bytes = $0.pointee.sin6_addr
                    text = canonical(ipv6: withUnsafeBytes(of: &bytes) { Array($0) })
                }
            default: break
            }
            if let text = text.map(reached), !found.contains(text) { found.append(text) }
        }
        return found
    }
}
