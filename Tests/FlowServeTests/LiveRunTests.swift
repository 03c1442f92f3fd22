import FlowTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import Testing

/// Scripts with real-time sources on the page: not run on each edit when
/// they reach outside, run on the live clock on request with what they
/// drew sent as it happens, and stopped from the page.
@Suite struct LiveRunTests {
    static let ticking = """
        let ticks = interval(20ms).map { $0 * 10 }
        marbles(ticks)
        ticks.sink { print($0) }

        """

    @Test func aLiveScriptRunsUntilThePageStopsIt() async throws {
        let served = try ServedFolder()
        // An edit does not run it (its timers would run to the virtual-time
        // limit on every keystroke): the page is told it runs live.
        let preview = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": Self.ticking, "name": "ticks.flow"]))
        #expect(preview["live"] as? Bool == true)
        #expect((preview["notRun"] as? String)?.contains("timers") == true)
        #expect((preview["inputs"] as? [Any])?.isEmpty == true)

        let messages = try await served.live(Self.ticking, name: "ticks.flow") { message in
            // Stop once a few ticks were printed.
            message["running"] as? Bool == true && ((message["output"] as? String) ?? "").split(separator: "\n").count >= 3
        }
        let running = messages.filter { $0["running"] as? Bool == true }
        #expect(!running.isEmpty)
        // The lanes grew while it ran: a snapshot shows ticks drawn so far.
        #expect(running.contains { ($0["svg"] as? String)?.contains("data-e=\"1\"") == true })
        let final = try #require(messages.last)
        #expect(final["running"] as? Bool == false)
        let printed = ((final["output"] as? String) ?? "").split(separator: "\n")
        // The ticks in order, ten apart. Not necessarily from the first: on
        // a busy machine the stop can come so late that the page has kept
        // only the last lines of the output.
        let ticks = printed.compactMap { Int($0) }
        #expect(ticks.count >= 3, "\(printed)")
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1 == $0 + 10 }, "\(printed)")
        // Stopped, not ended: the lane is cut where it was cancelled.
        #expect((final["text"] as? String)?.contains("!") == true, "\(final["text"] ?? "")")
    }

    /// A page's script reaches the served folder and nothing else: it may
    /// write and read beside the scripts, not read /etc nor request a host.
    @Test func aPagesScriptReachesTheServedFolderAlone() async throws {
        let served = try ServedFolder()
        let script = """
            of("kept").sink(file.write("notes.txt"))
            file.read("/etc/hostname").sink { print($0) }
            http.get("http://127.0.0.1:9/").sink { print($0) }

            """
        let messages = try await served.live(script, name: "reach.flow") { _ in false }
        let final = try #require(messages.last)
        let errors = ((final["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.contains("file.read \"/etc/hostname\": reading outside the served folder is not allowed (flow serve --allow-read=/etc grants it)") },
                "\(errors)")
        #expect(errors.contains { $0.contains("network access is not allowed (flow serve --allow-net=127.0.0.1 grants it)") }, "\(errors)")
        let written = try String(contentsOf: served.folder.appendingPathComponent("notes.txt"), encoding: .utf8)
        #expect(written == "kept\n")
    }

    /// A dangling symlink in the served folder that leads outside it is no
    /// way out, end to end through the server: a live run's `file.write`
    /// and `file.append` through one are refused at their calls and make
    /// nothing outside, and the page cannot save a script through one.
    @Test func aDanglingSymlinkLeadsAPagesRunNowhereOutside() async throws {
        let served = try ServedFolder()
        let outside = served.folder.deletingLastPathComponent().appendingPathComponent("escaped-\(UUID().uuidString)").path
        defer { for suffix in [".txt", "-appended.txt", ".flow"] { try? FileManager.default.removeItem(atPath: outside + suffix) } }
        for (link, target) in [("written.txt", ".txt"), ("appended.txt", "-appended.txt"), ("saved.flow", ".flow")] {
            try FileManager.default.createSymbolicLink(atPath: served.folder.appendingPathComponent(link).path, withDestinationPath: outside + target)
        }
        // A run ends at its first error: one run for each.
        for (operation, link) in [("write", "written.txt"), ("append", "appended.txt")] {
            let messages = try await served.live("of(\"x\").sink(file.\(operation)(\"\(link)\"))\n", name: "escape.flow") { _ in false }
            let final = try #require(messages.last)
            #expect(final["running"] as? Bool == false)
            let errors = ((final["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
            #expect(errors.contains { $0.contains("file.\(operation) \"\(link)\"") && $0.contains("writing outside the served folder is not allowed") },
                    "\(errors)")
        }
        let saved = try await served.request("/api/file?path=saved.flow", method: "PUT", body: "print(1)\n")
        #expect(saved.status == 403, "\(saved)")
        for suffix in [".txt", "-appended.txt", ".flow"] {
            #expect(!FileManager.default.fileExists(atPath: outside + suffix), "\(outside + suffix) was made")
        }
        // The links are as they were.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: served.folder.appendingPathComponent("written.txt").path) == outside + ".txt")
    }

    /// The page's Stop ends a live run stuck in a deinit chain (each Hen's
    /// deinit makes two, sixty deep, which no limit ends): one located
    /// error, and nothing after it runs.
    @Test func thePagesStopEndsARunStuckInADeinitChain() async throws {
        let served = try ServedFolder()
        let hens = """
            var deep = false
            class Hen {
              let generation: Int
              init(_ generation: Int) { self.generation = generation }
              deinit {
                if generation == 60 && !deep { deep = true; of("deep").sink(file.append("deep.txt")) }
                if generation < 60 { let _ = Hen(generation + 1); let _ = Hen(generation + 1) }
              }
            }
            var hen: Hen? = Hen(0)
            hen = nil
            print("not reached")

            """
        // The loop is busy in the chain, so the page is sent nothing until
        // it ends: the script says it is deep in it through a file.
        let deep = served.folder.appendingPathComponent("deep.txt").path
        let messages = try await served.live(hens, name: "hens.flow", stopOnceTrue: { FileManager.default.fileExists(atPath: deep) }) { _ in false }
        let final = try #require(messages.last)
        #expect(final["running"] as? Bool == false)
        let errors = ((final["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.count == 1 && errors.first?.contains("making Hen stopped by the page's Stop") == true, "\(errors)")
        #expect(!((final["output"] as? String) ?? "").contains("not reached"))
    }

    /// Each live run of a page is a run of its own for the files it
    /// writes: running a script that writes a file again replaces it, but
    /// two writers of one file in one run are an error at the second.
    @Test func eachLiveRunClaimsItsFilesForItself() async throws {
        let served = try ServedFolder()
        for word in ["first", "second"] {
            let messages = try await served.live("of(\"\(word)\").sink(file.write(\"notes.txt\"))\n", name: "notes.flow") { _ in false }
            let errors = (try #require(messages.last)["errors"] as? [[String: Any]]) ?? []
            #expect(errors.isEmpty, "\(errors)")
            #expect(try String(contentsOf: served.folder.appendingPathComponent("notes.txt"), encoding: .utf8) == word + "\n")
        }
        let twice = "of(\"a\").sink(file.write(\"notes.txt\"))\nof(\"b\").sink(file.append(\"notes.txt\"))\n"
        let messages = try await served.live(twice, name: "twice.flow") { _ in false }
        let errors = ((try #require(messages.last)["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.contains("file.append \"notes.txt\": file.write at twice.flow:1:19 replaces it in this run") }, "\(errors)")
        #expect(try String(contentsOf: served.folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "a\n")
    }

    /// A live run's output panel says what its sinks committed: so far in
    /// each snapshot while it runs, then how it ended with the count the
    /// file holds (stopped from the page, or done).
    @Test func aLiveRunSaysWhatItsSinksCommitted() async throws {
        let served = try ServedFolder()
        let ticking = "interval(20ms).map { \"tick \\($0)\" }.sink(file.append(\"ticks.log\"))\n"
        let messages = try await served.live(ticking, name: "ticks.flow") { message in
            guard let committed = message["committed"] as? String else { return false }
            return committed.hasPrefix("so far; what the sinks committed:") && Self.appended(in: committed) >= 3
        }
        let snapshots = messages.filter { $0["running"] as? Bool == true }.compactMap { $0["committed"] as? String }
        #expect(snapshots.contains { $0.hasPrefix("so far; what the sinks committed:\n  file.append(\"ticks.log\"): ") }, "\(snapshots)")
        let final = try #require(messages.last)
        let committed = try #require(final["committed"] as? String, "\(final.keys)")
        #expect(committed.hasPrefix("stopped; what the sinks committed:\n  file.append(\"ticks.log\"): "), "\(committed)")
        let lines = try String(contentsOf: served.folder.appendingPathComponent("ticks.log"), encoding: .utf8).split(separator: "\n").count
        #expect(Self.appended(in: committed) == lines, "the file holds \(lines) lines: \(committed)")

        let done = try await served.live("of(1, 2, 3).sink(file.write(\"three.txt\"))\n", name: "three.flow") { _ in false }
        #expect(try #require(done.last)["committed"] as? String == """
            done; what the sinks committed:
              file.write("three.txt"): 3 lines written (6 bytes), three.txt replaced
            """)
        // A run whose sinks committed nothing says nothing of them.
        let quiet = try await served.live("of(1).sink { print($0) }\n", name: "quiet.flow") { _ in false }
        #expect(try #require(quiet.last)["committed"] == nil)
    }

    private static func appended(in summary: String) -> Int {
        summary.firstMatch(of: #/: (\d+) lines? appended/#).flatMap { Int($0.1) } ?? -1
    }

    /// A relative permission path means the folder the user saw when
    /// starting the server, not one inside the folder it changes into.
    @Test func relativePermissionPathsAreTheUsers() async throws {
        let served = try ServedFolder(files: ["lesson.flow": ServedFolder.lesson, "answers/alice.flow": "secret\n"],
                                      options: ["--deny-read={folder}/answers"], fromParent: true)
        let messages = try await served.live("file.read(\"answers/alice.flow\").sink { print($0) }\n", name: "peek.flow") { _ in false }
        let final = try #require(messages.last)
        let errors = ((final["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.contains("reading it is denied by flow serve --deny-read") }, "\(errors)")
        #expect(!((final["output"] as? String) ?? "").contains("secret"))
    }

    @Test func aLiveScriptThatEndsSaysSoAndRunsItsTests() async throws {
        let served = try ServedFolder()
        let script = """
            let three = interval(5ms).take(3)
            three.sink { print($0) }
            test "three ticks" {
              expect(three).toBe("-----a----b----(c|)", a: 0, b: 1, c: 2)
            }

            """
        let messages = try await served.live(script, name: "three.flow") { _ in false }
        let final = try #require(messages.last)
        #expect(final["running"] as? Bool == false)
        #expect(final["output"] as? String == "0\n1\n2")
        let tests = final["tests"] as? [[String: Any]] ?? []
        #expect(tests.count == 1 && tests.first?["passed"] as? Bool == true, "\(tests)")
    }

    /// A finished live run is drawn as its snapshots were: its inner
    /// streams level, not slanting.
    @Test func aFinishedLiveRunIsDrawnLevelAtItsScale() async throws {
        let served = try ServedFolder()
        let script = """
            let ticks = interval(5ms).take(2)
            marbles(ticks.flatMap { _ in interval(3ms).take(2) })
            ticks.flatMap { _ in interval(3ms).take(2) }.sink { print($0) }

            """
        let messages = try await served.live(script, name: "nested.flow") { _ in false }
        let final = try #require(messages.last)
        #expect(final["running"] as? Bool == false)
        let svg = try #require(final["svg"] as? String)
        let lines = SVGGeometry.elements(svg).filter { $0.attributes["data-lane-line"] != nil }
        #expect(lines.count >= 3, "\(svg)")
        for line in lines {
            #expect(line.attributes["y1"] == line.attributes["y2"], "a lane drawn slanting: \(line.attributes)")
        }
    }

    /// While it runs, a live run's picture grows at the live scale (100 ms
    /// a column); once it has ended, it is drawn at the run's own scale,
    /// chosen from all its events: ticks 30 ms apart, which 100 ms columns
    /// would heap three to a column, each get a column of their own, at
    /// their times.
    @Test func aFinishedLiveRunIsDrawnAtTheScaleOfAllItsEvents() async throws {
        let served = try ServedFolder()
        let script = """
            let ticks = interval(30ms).take(12)
            marbles(ticks)
            ticks.sink { _ in }

            """
        let messages = try await served.live(script, name: "ticks.flow") { _ in false }
        let final = try #require(messages.last)
        #expect(final["running"] as? Bool == false)
        let snapshots = messages.filter { $0["running"] as? Bool == true && ($0["svg"] as? String)?.contains("data-e=") == true }
        #expect(!snapshots.isEmpty, "a run of 360 ms sends snapshots every quarter second")
        // Each diagram of it: the marbles(...) lane and the traced chain.
        for snapshot in snapshots { #expect((snapshot["columnFrames"] as? [Int])?.allSatisfy { $0 == 100 } == true, "\(snapshot["columnFrames"] ?? "none")") }
        let frame = try #require((final["columnFrames"] as? [Int])?.first)
        #expect(frame < 30, "ticks 30 ms apart drawn \(frame) ms a column")
        let marks = SVGGeometry.elements(try #require(final["svg"] as? String))
            .filter { $0.attributes["data-d"] == "0" && $0.attributes["data-l"] == "0" }.compactMap { Int($0.attributes["data-t"] ?? "") }
        #expect(marks.count == 13, "12 ticks and the completion: \(marks)")
        // In order, and true to time: tick k is due 30k ms after the start and
        // a timer never fires early, so its column is never before that time
        // (a loaded machine may draw it later, and catch-up ticks closer:
        // nothing here depends on how late).
        #expect(marks == marks.sorted(), "\(marks)")
        for (k, column) in marks.dropLast().enumerated() {
            #expect((column + 1) * frame >= 30 * (k + 1), "tick \(k + 1) drawn at column \(column), \(frame) ms a column: \(marks)")
        }
    }

    /// Reading or writing files happens only when the learner runs the
    /// script, never on a keystroke.
    @Test func scriptsThatReachOutsideRunOnlyWhenAskedTo() async throws {
        let served = try ServedFolder()
        let script = "range(0, 3).map { String($0) }.sink(file.append(\"out.txt\"))\n"
        let preview = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": script, "name": "writes.flow"]))
        #expect(preview["ok"] as? Bool == true)
        #expect((preview["notRun"] as? String)?.contains("files or the network") == true, "\(preview)")
        let written = served.folder.appendingPathComponent("out.txt")
        #expect(!FileManager.default.fileExists(atPath: written.path))
        // Run live from the served folder, the file is written there.
        let final = try #require(try await served.live(script, name: "writes.flow") { _ in false }.last)
        #expect(final["running"] as? Bool == false)
        #expect(((final["errors"] as? [Any]) ?? []).isEmpty, "\(final)")
        #expect(try String(contentsOf: written, encoding: .utf8) == "0\n1\n2\n")
    }

    /// Another site open in the learner's browser cannot use the server:
    /// not to save over a script, not to run one.
    @Test func requestsFromOtherOriginsAreRefused() async throws {
        let served = try ServedFolder()
        let origin = served.address.absoluteString.dropLast()
        #expect(try await served.request("/api/files", headers: ["Origin": String(origin)]).status == 200)
        let save = try await served.request("/api/file?path=lesson.flow", method: "PUT", body: "overwritten", headers: ["Origin": "http://evil.example"])
        #expect(save.status == 403)
        #expect(try String(contentsOf: served.folder.appendingPathComponent("lesson.flow"), encoding: .utf8) == ServedFolder.lesson)
        let rebound = try await served.request("/api/files", headers: ["Host": "evil.example:\(served.address.port ?? 0)"])
        #expect(rebound.status == 403)
        // The Host must be this server's, parsed strictly: its own port, and no name smuggled after it.
        let port = served.address.port ?? 0
        for host in ["127.0.0.1:\(port == 9999 ? 9998 : 9999)", "127.0.0.1:x.evil.com", "127.0.0.1:\(port)x", "127.0.0.1:\(port)@evil.example", "",
                     "127.evil.example:\(port)", "127.0.0.1.evil.example:\(port)"] {
            #expect(try await served.request("/api/files", headers: ["Host": host]).status == 403, "Host: \(host)")
        }
        #expect(try await served.request("/api/files", headers: ["Host": "localhost:\(port)"]).status == 200)
        #expect(try await served.request("/api/files", headers: ["Host": "127.0.0.2:\(port)"]).status == 200)
    }

    /// A drag's numbers are checked before use: out of range is a 400, never a crash.
    @Test func aDragOutOfRangeIsABadRequest() async throws {
        let served = try ServedFolder()
        let text = "let a = cold(\"-a-|\")\nmarbles(a)\n"
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
        // Written out: numbers as a page could send them, past what JSONSerialization would make.
        for frames in ["10000000000000", "-9223372036854775808", "9223372036854775807"] {
            let body = "{\"text\": \(quoted), \"start\": 14, \"end\": 18, \"event\": 0, \"frames\": \(frames)}"
            let answer = try await served.request("/api/move", method: "POST", body: body)
            #expect(answer.status == 400, "frames \(frames): \(answer)")
        }
        let fine = try await served.json("/api/move", method: "POST", body: ServedFolder.encode(["text": text, "start": 14, "end": 18, "event": 0, "frames": 1]))
        #expect(fine["text"] as? String == "let a = cold(\"--a|\")\nmarbles(a)\n", "\(fine)")
        // And the server is still there.
        #expect(try await served.request("/api/files").status == 200)
    }

    /// Beyond loopback, the server answers only requests that carry the
    /// token of the URL it printed (then kept by the page as a cookie).
    @Test func beyondLoopbackATokenIsRequired() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ServedFolder.lesson.write(to: folder.appendingPathComponent("lesson.flow"), atomically: true, encoding: .utf8)
        let (process, out, _) = try FlowProcess.start(["serve", folder.path, "--host", "0.0.0.0", "--port", "0"])
        defer { process.interrupt(); process.waitUntilExit() }
        let line = ServedFolder.firstLine(of: out)
        let match = try #require(line.firstMatch(of: #/http://0\.0\.0\.0:(\d+)/\?token=([0-9a-f]{32})/#), "\(line)")
        let port = String(match.1), token = String(match.2)
        // Only loopback is used here: the server listens everywhere, the test talks to 127.0.0.1.
        // No cookie store: each request carries exactly the cookie given.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let session = URLSession(configuration: configuration)
        func get(_ path: String, cookie: String? = nil) async throws -> (Int, String?) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.timeoutInterval = 60
            if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
            let (_, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Set-Cookie"))
        }
        #expect(try await get("/api/files").0 == 403)
        #expect(try await get("/api/files?token=0123456789abcdef0123456789abcdef").0 == 403)
        let (status, cookie) = try await get("/?token=\(token)")
        #expect(status == 200)
        #expect(cookie?.hasPrefix("flow-token=\(token);") == true, "\(cookie ?? "")")
        #expect(try await get("/api/files", cookie: "flow-token=\(token)").0 == 200)
        #expect(try await get("/api/files", cookie: "flow-token=wrong").0 == 403)
    }
}

extension ServedFolder {
    /// Runs `script` live through `/live`: every message the server sends,
    /// in order, until it says the run is over. Once `stopWhen` holds for a
    /// message, the test asks the run to stop, as the page's Stop does.
    /// `stopOnceTrue`: asked until it holds, then the run is asked to stop,
    /// whether or not the page was sent anything meanwhile.
    func live(_ script: String, name: String, stopAtOnce: Bool = false, stopOnceTrue: (@Sendable () -> Bool)? = nil,
              stopWhen: @escaping @Sendable ([String: Any]) -> Bool) async throws -> [[String: Any]] {
        let received = NIOLockedValueBox<[String]>([])
        let url = address.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "live"
        let start = Self.encode(["text": script, "name": name])
        // Frames as large as the server's drawings grow. On a thread of its
        // own, so that it answers the server's pings however busy the
        // tests around it keep the cooperative pool (ThreadExecutor says why).
        try await withTaskExecutorPreference(ThreadExecutor.shared) {
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "live-test")) { inbound, outbound, _ in
            try await outbound.write(.text(start))
            var stopped = stopAtOnce
            if stopAtOnce { try await outbound.write(.text(#"{"stop":true}"#)) }
            if let stopOnceTrue {
                #expect(await waitFor(stopOnceTrue), "the condition to stop on never held")
                stopped = true
                try await outbound.write(.text(#"{"stop":true}"#))
            }
            for try await message in inbound.messages(maxSize: 1 << 24) {
                guard case .text(let text) = message else { continue }
                received.withLockedValue { $0.append(text) }
                let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
                if json["running"] as? Bool != true { break }
                if !stopped && stopWhen(json) {
                    stopped = true
                    try await outbound.write(.text(#"{"stop":true}"#))
                }
            }
        }
        }
        return received.withLockedValue { $0 }.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:] }
    }
}
