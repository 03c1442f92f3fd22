import FlowLive
@testable import FlowRuntime
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every spelling of an address is judged as one: a property over random
/// addresses and the spellings URL parsers and resolvers accept, checked
/// against `inet_aton` (what the resolver would connect to) where it applies.
@Suite struct HostAddressTests {
    /// The runtime's seeded generator (retry's jitter uses it): the same
    /// spellings on every run.
    typealias Seeded = SplitMix64

    /// A number as decimal, octal (leading 0) or hexadecimal (0x, either case), with extra leading zeros.
    static func spell(_ n: UInt64, _ random: inout Seeded) -> String {
        let zeros = String(repeating: "0", count: Int.random(in: 0...3, using: &random))
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return String(n)
        case 1: return "0" + zeros + String(n, radix: 8)
        case 2: return "0x" + zeros + String(n, radix: 16)
        default: return "0X" + zeros + String(n, radix: 16, uppercase: true)
        }
    }

    /// The IPv4 spellings of `address`: four, three, two or one parts, the last filling the rest.
    static func ipv4Spellings(_ address: UInt32, _ random: inout Seeded) -> [String] {
        let a = UInt64(address)
        let bytes = [a >> 24, a >> 16 & 0xff, a >> 8 & 0xff, a & 0xff]
        return [
            bytes.map { spell($0, &random) }.joined(separator: "."),
            [spell(bytes[0], &random), spell(bytes[1], &random), spell(a & 0xffff, &random)].joined(separator: "."),
            [spell(bytes[0], &random), spell(a & 0xff_ffff, &random)].joined(separator: "."),
            spell(a, &random),
        ]
    }

    static func percentEncoded(_ text: String, _ random: inout Seeded) -> String {
        text.map { Bool.random(using: &random) ? "%" + String($0.asciiValue!, radix: 16, uppercase: Bool.random(using: &random)) : String($0) }.joined()
    }

    @Test func everySpellingOfAnIPv4AddressIsOneForm() {
        var random = Seeded(seed: 36)
        var addresses: [UInt32] = [0x7f00_0001, 0, 0xffff_ffff, 0x0a00_0001, 0xc0a8_0101]
        for _ in 0..<2_000 { addresses.append(UInt32.random(in: 0...UInt32.max, using: &random)) }
        for address in addresses {
            // 0.0.0.0 is judged as 127.0.0.1, the address a connection to it reaches.
            let expected = address == 0 ? "127.0.0.1" : "\(address >> 24).\(address >> 16 & 0xff).\(address >> 8 & 0xff).\(address & 0xff)"
            for spelling in Self.ipv4Spellings(address, &random) {
                #expect(HostAddress.canonical(spelling) == expected, "\(spelling)")
                #expect(HostAddress.canonical(spelling + ".") == expected, "\(spelling).")
                #expect(HostAddress.canonical(Self.percentEncoded(spelling, &random)) == expected, "\(spelling) encoded")
                // What the system's parser makes of it, which the resolver uses.
                var parsed = in_addr()
                #expect(inet_aton(spelling, &parsed) == 1 && UInt32(bigEndian: parsed.s_addr) == address, "inet_aton \(spelling)")
            }
            let b = [address >> 24, address >> 16 & 0xff, address >> 8 & 0xff, address & 0xff]
            let high = String(address >> 16, radix: 16), low = String(address & 0xffff, radix: 16)
            for mapped in ["[::ffff:\(expected)]", "[::FFFF:\(high.uppercased()):\(low)]", "[0:0:0:0:0:ffff:\(high):\(low)]",
                           "[0000::ffff:\(b[0]).\(b[1]).\(b[2]).\(b[3])]", "::ffff:\(expected)"] {
                #expect(HostAddress.canonical(mapped) == expected, "\(mapped)")
            }
        }
    }

    @Test func ipv6AddressesAndNamesHaveOneFormToo() {
        #expect(HostAddress.canonical("[::1]") == "[::1]")
        #expect(HostAddress.canonical("[0:0:0:0:0:0:0:1]") == "[::1]")
        #expect(HostAddress.canonical("[0000::0001]") == "[::1]")
        #expect(HostAddress.canonical("[::1%25lo]") == "[::1]")
        #expect(HostAddress.canonical("[FE80::A:1]") == "[fe80::a:1]")
        #expect(HostAddress.canonical("LocalHost.") == "localhost")
        #expect(HostAddress.canonical("%6cocalhost") == "localhost")
        for name in ["example.test", "127.0.0.1.example", "1.2.3.4.5", "256.0.0.1", "0x100000000", "1.2.3.08"] {
            #expect(HostAddress.canonical(name) == name, "\(name)")
            var parsed = in_addr()
            // Not an address to the system either.
            #expect(inet_aton(name, &parsed) == 0, "\(name)")
        }
    }

    /// The repro: `--deny-net=127.0.0.1` held for one spelling only.
    @Test func aDeniedAddressIsDeniedInEverySpelling() {
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.net, "127.0.0.1,[::1]")
        let access = Access(permissions)
        let spellings = ["127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "[::ffff:127.0.0.1]", "%31%32%37.0.0.1",
                         "127.0.0.1.", "0x7F.0.0.01", "[0:0:0:0:0:0:0:1]", "[::1]",
                         // The unspecified addresses: Linux connects them to the loopback ones.
                         "0.0.0.0", "0", "0x0", "[::ffff:0.0.0.0]", "[::]", "[0:0:0:0:0:0:0:0]"]
        for host in spellings {
            var message: String?
            do { try access.checkNet(url: "http://\(host):8080/x", by: "http.get") } catch { message = FlowError.wrap(error).message }
            #expect(message?.contains("is denied by flow run --deny-net") == true, "\(host): \(message ?? "allowed")")
        }
        // And a grant written in one spelling holds for the others.
        var graded = Permissions.graded(folders: ["/tmp"])
        graded.allow(.net, "0x7f000001:8080")
        for host in spellings.prefix(8) {
            #expect((try? Access(graded).checkNet(url: "http://\(host):8080/", by: "http.get")) != nil, "\(host)")
            #expect((try? Access(graded).checkNet(url: "http://\(host):8081/", by: "http.get")) == nil, "\(host)")
        }
    }

    /// A denied name denies the addresses it resolves to, in every spelling,
    /// and any name that resolves to one of them: `--deny-net=localhost`
    /// stops 127.0.0.1 and ::1 (RFC 6761: localhost is the loopback
    /// addresses, whatever /etc/hosts lists; here it lists 127.0.0.1 alone).
    @Test func aDeniedNameDeniesItsAddresses() {
        let answers = ["localhost": ["127.0.0.1"], "loopback.test": ["[::1]"], "elsewhere.test": ["192.0.2.9"]]
        let lookUps = LookUps()
        let resolve: @Sendable (String) -> [String] = { name in
            lookUps.names.withLock { $0.append(name) }
            return answers[name] ?? []
        }
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.net, "localhost")
        let access = Access(permissions, resolve: resolve)
        for host in ["localhost", "LOCALHOST.", "127.0.0.1", "127.1", "2130706433", "[::ffff:127.0.0.1]", "[::1]", "[0:0:0:0:0:0:0:1]",
                     "0.0.0.0", "[::]", "loopback.test"] {
            var message: String?
            do { try access.checkNet(url: "http://\(host):8080/x", by: "http.get") } catch { message = FlowError.wrap(error).message }
            #expect(message?.contains("is denied by flow run --deny-net") == true, "\(host): \(message ?? "allowed")")
        }
        for host in ["elsewhere.test", "127.0.0.2", "[::2]"] {
            #expect((try? access.checkNet(url: "http://\(host):8080/x", by: "http.get")) != nil, "\(host) was denied")
        }
        // The denied name is looked up once a run, not at each request.
        lookUps.names.withLock { $0 = [] }
        let another = Access(permissions, resolve: resolve)
        for host in ["127.0.0.1", "[::1]", "127.0.0.2"] { _ = try? another.checkNet(url: "http://\(host)/", by: "http.get") }
        #expect(lookUps.names.withLock { $0 } == ["localhost"])

        // With a port, its addresses at that port alone.
        var onePort = Permissions.everything(command: "flow run")
        onePort.deny(.net, "localhost:8080")
        let atPort = Access(onePort, resolve: resolve)
        #expect((try? atPort.checkNet(url: "http://127.0.0.1:8080/", by: "http.get")) == nil)
        #expect((try? atPort.checkNet(url: "http://[::1]:8080/", by: "http.get")) == nil)
        #expect((try? atPort.checkNet(url: "http://127.0.0.1:8081/", by: "http.get")) != nil)
    }

    /// A name is judged by the addresses it resolves to when a rule names
    /// an address, and the request then goes to the address judged.
    /// (`localhost` is resolved from /etc/hosts: no DNS.)
    @Test func aNameIsJudgedByItsAddressesAndConnectedThere() throws {
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.net, "127.0.0.1,[::1]")
        var message: String?
        do { try Access(permissions).checkNet(url: "http://localhost:8080/", by: "http.get") } catch { message = FlowError.wrap(error).message }
        #expect(message?.contains("http.get \"http://localhost:8080/\": the network access to localhost, which is ") == true, "\(message ?? "allowed")")

        var graded = Permissions.graded(folders: ["/tmp"])
        graded.allow(.net, "127.0.0.1")
        let checked = try Access(graded).checkNet(url: "http://localhost:8080/", by: "http.get")
        #expect(checked?.host == "localhost" && checked?.address == "127.0.0.1")
        // Without a rule naming an address, a name is judged by its name alone.
        #expect(try Access(.everything(command: "flow run")).checkNet(url: "http://localhost/", by: "http.get")?.address == nil)
    }
}

/// The names a stand-in resolver was asked, in order.
private final class LookUps: Sendable {
    let names = Mutex<[String]>([])
}
