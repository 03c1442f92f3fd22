import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOConcurrencyHelpers
import Testing

@testable import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime

@Suite(.serialized) struct HTTPTests {
    @Test(arguments: [false, true])
    func getDecodesJSON(live: Bool) throws {
        try withServer { server in
            let result = try run("""
                http.get("\(server.base)/json").sink { r in print(r.status, r.headers["x-test"], r.json()["name"], r.json()["items"].count) }
                """, live: live)
            #expect(result.out == ["200 yes flow 3"], "\(result.err)")
            #expect(result.outcome.passed)
        }
    }

    @Test func postSendsJSONAndRequestPassesAnyStatus() throws {
        try withServer { server in
            let result = try run("""
                http.post("\(server.base)/echo", body: ["a": 1, "b": [true]]).sink { print($0.json()["b"], $0.headers["content-type"]) }
                http.request(method: "DELETE", url: "\(server.base)/status/500").sink { print($0.status, $0.body) }
                """)
            #expect(result.out == ["[true] application/json", "500 nope"], "\(result.err)")
        }
    }

    @Test func aNon2xxStatusIsAnErrorCarryingIt() throws {
        try withServer { server in
            let result = try run("""
                http.get("\(server.base)/status/404").catch { e in just(e.status) }.sink { print($0) }
                http.get("\(server.base)/status/503").sink { print($0) }
                """)
            #expect(result.out == ["404"])
            #expect(result.err.first?.contains("io.flow:2:6: error: GET \(server.base)/status/503: HTTP 503 Service Unavailable") == true)
        }
    }

    @Test func linesAndServerSentEventsArriveAsTheyCome() throws {
        try withServer { server in
            let result = try run("""
                http.lines("\(server.base)/lines").timeInterval().sink { print($0.value) }
                http.events("\(server.base)/events").sink { e in print(e.event, e.data, e.id) }
                """, live: true)
            #expect(result.out.filter { !$0.contains(" ") } == ["one", "two", "three"])
            #expect(result.out.filter { $0.contains(" ") } == ["greeting hello 1", "message a\nb 1"])
        }
    }

    @Test func failuresAreStreamErrorsWithClearMessages() throws {
        try withServer { server in
            let started = Date()
            let closedPort = try Self.unusedPort()
            let result = try run("""
                http.get("\(server.base)/slow", timeout: 200ms).sink { print($0) }
                http.get("http://127.0.0.1:\(closedPort)/").sink { print($0) }
                http.get("http://nonexistent.invalid/").sink { print($0) }
                http.get("https://127.0.0.1:\(server.port)/json", timeout: 5s).sink { print($0) }
                http.get("\(server.base)/malformed").map { $0.json() }.sink { print($0) }
                http.get("not a url").sink { print($0) }
                """, live: true)
            let errors = result.err.joined(separator: "\n")
            #expect(errors.contains("io.flow:1:6: error: GET \(server.base)/slow: 127.0.0.1:\(server.port) accepted the connection but sent no response within 200ms"))
            #expect(errors.contains("io.flow:2:6: error: GET http://127.0.0.1:\(closedPort)/: connection refused"))
            #expect(errors.contains("io.flow:3:6: error: GET http://nonexistent.invalid/: cannot resolve the host"))
            #expect(errors.contains("io.flow:4:6: error: GET https://127.0.0.1:\(server.port)/json: TLS failure: the handshake failed (WRONG_VERSION_NUMBER)"))
            #expect(errors.contains("io.flow:5:\(33 + server.base.count): error: malformed JSON at line 1, column 2"))
            #expect(errors.contains("io.flow:6:6: error: cannot request \"not a url\": a URL cannot contain spaces or control characters"))
            #expect(result.out.isEmpty)
            // Failures are reported when they happen, not after retrying to a deadline.
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    /// A host that never answers is told apart from one that closed the
    /// connection: whether it accepted the connection at all, and for how
    /// long flow waited, on both clocks (a stream's silence is timed on the
    /// live clock alone: in virtual time a stream is read to its end).
    @Test(arguments: [false, true])
    func aHostThatNeverAnswersSaysSo(live: Bool) throws {
        let silent = try SilentListener(acceptsConnections: true)
        let full = try SilentListener(acceptsConnections: false)
        let result = try run("""
            http.get("http://127.0.0.1:\(silent.port)/", timeout: 1s).sink { print($0) }
            http.lines("http://127.0.0.1:\(silent.port)/lines", \(live ? "timeout" : "deadline"): 1s).sink { print($0) }
            http.get("http://127.0.0.1:\(full.port)/", timeout: 1s).sink { print($0) }
            http.events("http://127.0.0.1:\(full.port)/events", deadline: 1500ms).sink { print($0) }
            """, live: live)
        let errors = result.err.joined(separator: "\n")
        #expect(errors.contains("io.flow:1:6: error: GET http://127.0.0.1:\(silent.port)/: 127.0.0.1:\(silent.port) accepted the connection but sent no response within 1s"), "\(errors)")
        #expect(errors.contains("io.flow:2:6: error: GET http://127.0.0.1:\(silent.port)/lines: 127.0.0.1:\(silent.port) accepted the connection but sent no response within 1s"), "\(errors)")
        #expect(errors.contains("io.flow:3:6: error: GET http://127.0.0.1:\(full.port)/: 127.0.0.1:\(full.port) did not accept the connection within 1s"), "\(errors)")
        #expect(errors.contains("io.flow:4:6: error: GET http://127.0.0.1:\(full.port)/events: 127.0.0.1:\(full.port) did not accept the connection within 1.5s"), "\(errors)")
        #expect(!errors.contains("closed the connection"))
        #expect(result.out.isEmpty)
        withExtendedLifetime((silent, full)) {}
    }

    /// Without a timeout of the script's, flow gives up connecting after 10 s.
    @Test func aHostThatNeverAcceptsIsGivenUpAfterTheConnectTimeout() throws {
        let full = try SilentListener(acceptsConnections: false)
        let result = try run("http.get(\"http://127.0.0.1:\(full.port)/\").sink { print($0) }", live: true)
        #expect(result.err.joined(separator: "\n").contains(
            "io.flow:1:6: error: GET http://127.0.0.1:\(full.port)/: 127.0.0.1:\(full.port) did not accept the connection within 10s"), "\(result.err)")
        withExtendedLifetime(full) {}
    }

    @Test(arguments: [false, true])
    func redirectsAreFollowedButNotInCycles(live: Bool) throws {
        try withServer { server in
            let started = Date()
            let result = try run("""
                http.get("\(server.base)/redirect/json").sink { print($0.json()["name"]) }
                http.get("\(server.base)/redirect/self", timeout: 5s).sink { print($0) }
                http.lines("\(server.base)/redirect/a").sink { print($0) }
                """, live: live)
            #expect(result.out == ["flow"])
            let errors = result.err.joined(separator: "\n")
            #expect(errors.contains("io.flow:2:6: error: GET \(server.base)/redirect/self: redirected in a cycle"), "\(errors)")
            #expect(errors.contains("io.flow:3:6: error: GET \(server.base)/redirect/a: redirected in a cycle"), "\(errors)")
            // Reported at once, not at a timeout.
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    /// A name judged by the address it resolves to is connected to at that
    /// address (`localhost` from /etc/hosts: no DNS), its Host header kept.
    @Test func aNameIsConnectedToAtTheAddressJudged() throws {
        try withServer { server in
            var graded = Permissions.graded(folders: ["/tmp"])
            graded.allow(.net, "127.0.0.1")
            let result = try run("http.get(\"http://localhost:\(server.port)/json\").sink { print($0.json()[\"name\"]) }", live: true,
                                 access: Access(graded))
            #expect(result.out == ["flow"], "\(result.err)")
        }
    }

    /// A denial names the function that asked, whichever of the module's
    /// it is (a denied `http.lines` was once reported as `http.get`), on
    /// the live clock and in virtual time.
    @Test(arguments: [
        ("http.get(\"URL\")", "http.get"),
        ("http.post(\"URL\", body: \"x\")", "http.post"),
        ("http.request(method: \"PUT\", url: \"URL\")", "http.request"),
        ("http.lines(\"URL\")", "http.lines"),
        ("http.events(\"URL\")", "http.events"),
    ])
    func aDenialNamesTheFunctionThatAsked(call: String, name: String) throws {
        let url = "http://127.0.0.1:9/feed"
        for live in [true, false] {
            let result = try run(call.replacingOccurrences(of: "URL", with: url) + ".sink { print($0) }", live: live,
                                 access: Access(.graded(folders: ["/tmp"])))
            #expect(result.out.isEmpty)
            #expect(result.err.joined(separator: "\n").contains("io.flow:1:6: error: \(name) \"\(url)\": network access is not allowed "
                                                               + "(flow grade --allow-net=127.0.0.1 grants it)"), "\(result.err)")
        }
    }

    /// An https request to a name judged by its addresses goes to the
    /// address judged, and its certificate is still checked for the name.
    /// The name is one no DNS knows, answered by a resolver that says
    /// 127.0.0.1 the first time and ::1 after (a rebinding): the request
    /// must reach the server on 127.0.0.1, and nothing the one at the same
    /// port on ::1; a name the certificate is not for is refused.
    @Test func anHttpsRequestGoesToTheAddressJudgedAndChecksTheName() throws {
        FlowHTTP.additionalTrustRoots.withLockedValue {
            $0 = [try! NIOSSLCertificate(bytes: Array(TLSTestServer.authority.utf8), format: .pem)]
        }
        defer { FlowHTTP.additionalTrustRoots.withLockedValue { $0 = [] } }
        let judged = try TLSTestServer()
        defer { judged.shutdown() }
        // Where a second look-up would lead: absent where the machine has no IPv6.
        let rebound = try? TLSTestServer(address: "::1", port: judged.port)
        defer { rebound?.shutdown() }
        let rebinding = RebindingResolver()
        // A rule naming an address makes names be resolved to be judged.
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.net, "192.0.2.1")
        for live in [true, false] {
            rebinding.forget()
            let result = try run("http.get(\"https://\(TLSTestServer.name):\(judged.port)/\").sink { print($0.json()[\"served\"]) }",
                                 live: live, access: Access(permissions, resolve: rebinding.resolve))
            #expect(result.out == ["127.0.0.1"], "\(result.err)")
            #expect(rebinding.lookUps == [TLSTestServer.name])
        }
        #expect(judged.connections.withLockedValue { $0 } == 2)
        #expect(rebound?.connections.withLockedValue { $0 } ?? 0 == 0)

        let elsewhere = try run("http.get(\"https://flow-elsewhere.test:\(judged.port)/\").sink { print($0) }", live: true,
                                access: Access(permissions, resolve: { _ in ["127.0.0.1"] }))
        #expect(elsewhere.out.isEmpty)
        #expect(elsewhere.err.joined(separator: "\n").contains("io.flow:1:6: error: GET https://flow-elsewhere.test:\(judged.port)/: TLS failure"),
                "\(elsewhere.err)")
    }

    /// Each redirect is judged as a new request: a grant of one port does
    /// not reach another through a redirect, nor a denied host; and
    /// `--max-redirects` bounds how many are followed.
    @Test(arguments: [false, true])
    func eachRedirectIsJudgedAsANewRequest(live: Bool) throws {
        let other = try TestServer()
        defer { other.shutdown() }
        try withServer { server in
            let elsewhere = "\(other.base)/json".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            var graded = Permissions.graded(folders: ["/tmp"])
            graded.allow(.net, "127.0.0.1:\(server.port)")
            var denying = Permissions.everything(command: "flow run")
            denying.deny(.net, "127.1:\(other.port)")
            for permissions in [graded, denying] {
                let result = try run("""
                    http.get("\(server.base)/redirect/to?url=\(elsewhere)").sink { print($0.json()["name"]) }
                    http.get("\(server.base)/redirect/json").sink { print($0.json()["name"]) }
                    """, live: live, access: Access(permissions))
                #expect(result.out == ["flow"], "\(result.err)")
                let errors = result.err.joined(separator: "\n")
                #expect(errors.contains("io.flow:1:6: error: GET \(server.base)/redirect/to?url=\(elsewhere): redirected to \(other.base)/json, "
                                        + "and http.get \"\(other.base)/json\": "), "\(errors)")
                #expect(errors.contains(permissions == graded ? "is not allowed" : "is denied by flow run --deny-net"), "\(errors)")
            }
            #expect(other.requests.withLockedValue { $0 }.isEmpty)

            let chain = "http.get(\"\(server.base)/redirect/chain/7\").sink { print($0.json()[\"name\"]) }"
            let limited = try run(chain, live: live)
            #expect(limited.err.joined().contains("redirected more than 5 times (flow run --max-redirects=10 allows more)"), "\(limited.err)")
            var more = Permissions.everything(command: "flow run")
            more.maximumRedirects = 7
            #expect(try run(chain, live: live, access: Access(more)).out == ["flow"])
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:99999/", "the port '99999' is not a number from 1 to 65535"),
        ("http://127.0.0.1:0/", "the port '0' is not a number from 1 to 65535"),
        ("ftp://127.0.0.1/", "only http:// and https:// URLs can be requested"),
        ("http:///path", "the URL has no host"),
        ("http://127.0.0.1/a b", "a URL cannot contain spaces or control characters"),
    ])
    func urlsAreCheckedBeforeTheClientSeesThem(url: String, problem: String) throws {
        let result = try run("http.get(\"\(url)\").sink { print($0) }", live: true)
        #expect(result.err.joined().contains("io.flow:1:6: error: cannot request \"\(url)\": \(problem)"), "\(result.err)")
        #expect(!result.outcome.passed)
    }

    /// For a stream, `timeout:` is the longest silence, not a limit on the
    /// whole stream: /lines takes about 90 ms in parts 30 ms apart.
    @Test func aStreamsTimeoutIsTheSilenceBetweenChunks() throws {
        try withServer { server in
            let result = try run("""
                http.lines("\(server.base)/lines", timeout: 1s).sink { print($0) }
                http.lines("\(server.base)/quiet", timeout: 300ms).sink { print($0) }
                http.lines("\(server.base)/quiet", timeout: 10s, deadline: 300ms).sink { print("deadline", $0) }
                """, live: true)
            #expect(result.out.filter { !$0.hasPrefix("hello") && !$0.hasPrefix("deadline") } == ["one", "two", "three"])
            #expect(result.out.filter { $0 == "hello" }.count == 1)
            #expect(result.out.contains("deadline hello"))
            let errors = result.err.joined(separator: "\n")
            #expect(errors.contains("io.flow:2:6: error: GET \(server.base)/quiet: no data for 300ms (the timeout between chunks of a stream)"), "\(errors)")
            #expect(errors.contains("io.flow:3:6: error: GET \(server.base)/quiet: the stream's deadline of 300ms passed"), "\(errors)")
        }
    }

    @Test func disposalCancelsTheRequestInFlight() throws {
        try withServer { server in
            let started = Date()
            let result = try run("""
                http.get("\(server.base)/slow").timeout(300ms).catchAndReturn("gave up").sink { print($0) }
                """, live: true)
            #expect(result.out == ["gave up"])
            #expect(Date().timeIntervalSince(started) < 2.5, "the run waited for the slow response")
            // The server sees the connection closed before it answered.
            var waited = 0.0
            while server.abandoned.withLockedValue({ $0 }) == 0 && waited < 3 {
                Thread.sleep(forTimeInterval: 0.05)
                waited += 0.05
            }
            #expect(server.abandoned.withLockedValue { $0 } == 1)
        }
    }

    /// A port nothing listens on (bound, then closed).
    static func unusedPort() throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let channel = try ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress!.port!
        try channel.close().wait()
        return port
    }
}

extension HTTPTests {
    /// examples/ourplanet.flow against the test server's EONET-shaped API.
    @Test func ourPlanetExampleCountsEventsPerCategory() throws {
        try withServer { server in
            let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let example = try String(contentsOf: project.appendingPathComponent("examples/ourplanet.flow"), encoding: .utf8)
            let lines = Lines()
            let console = Console(out: { lines.out.append($0) }, err: { lines.err.append($0) }, color: false)
            let program = try Program(file: SourceFile(path: "ourplanet.flow", text: example), console: console,
                                      arguments: [server.base + "/api/v3"], modules: IOModules.unrestricted)
            let outcome = program.run(on: .live(LiveWorld()))
            #expect(outcome.passed, "\(lines.err)")
            #expect(lines.out.sorted() == ["Floods: 3 events", "Volcanoes: 2 events", "Wildfires: 4 events"])
        }
    }
}
