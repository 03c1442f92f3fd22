import FlowTestSupport
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import Testing

/// Runs from the page never take the server from its other clients: busy
/// live runs leave it answering, Stop ends each, and SIGTERM ends them all.
@Suite struct BusyServerTests {
    /// A live run that says it started (a file appears) and then spins.
    static func busy(_ n: Int) -> String {
        "of(1).sink(file.write(\"started-\(n).txt\"))\nvar i = 0\nwhile true { i += 1 }\n"
    }

    /// Starts a live run, waits until `stop` is set, asks it to stop, and
    /// returns the last message the server sent about it (JSON text). Its
    /// callers start it on ThreadExecutor too: a task waiting for a turn on
    /// a cooperative pool that synchronous tests hold would not even open
    /// its socket, and the live run would never start.
    static func run(_ script: String, on served: ServedFolder, stop: NIOLockedValueBox<Bool>) async throws -> String {
        let last = NIOLockedValueBox("")
        let url = served.address.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "live"
        // On a thread of its own, to answer the server's pings (ThreadExecutor says why).
        try await withTaskExecutorPreference(ThreadExecutor.shared) {
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "busy")) { inbound, outbound, _ in
            try await outbound.write(.text(ServedFolder.encode(["text": script, "name": "busy.flow"])))
            let stopper = Task(executorPreference: ThreadExecutor.shared) {
                while !stop.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
                try await outbound.write(.text(#"{"stop":true}"#))
            }
            defer { stopper.cancel() }
            for try await message in inbound.messages(maxSize: 1 << 24) {
                guard case .text(let text) = message else { continue }
                let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
                last.withLockedValue { $0 = text }
                if json["running"] as? Bool != true { break }
            }
        }
        }
        return last.withLockedValue { $0 }
    }

    @Test func busyLiveRunsLeaveTheServerAnsweringAndStopWhenAsked() async throws {
        let served = try ServedFolder()
        let stop = NIOLockedValueBox(false)
        let runs = 4
        try await withThrowingTaskGroup(of: String.self) { group in
            for n in 0..<runs { group.addTask(executorPreference: ThreadExecutor.shared) { try await Self.run(Self.busy(n), on: served, stop: stop) } }
            let started = await waitFor { (0..<runs).allSatisfy { FileManager.default.fileExists(atPath: served.folder.appendingPathComponent("started-\($0).txt").path) } }
            #expect(started, "the live runs did not start")
            // Every run spins; the server still answers, over HTTP and a new socket.
            let (status, body) = try await served.request("/api/files")
            #expect(status == 200 && body.contains("lesson.flow"), "\(status) \(body)")
            let preview = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": "marbles(cold(\"-a|\"))", "name": "x.flow"]))
            #expect(preview["ok"] as? Bool == true, "\(preview)")
            stop.withLockedValue { $0 = true }
            var finals: [[String: Any]] = []
            for try await final in group { finals.append((try? JSONSerialization.jsonObject(with: Data(final.utf8)) as? [String: Any]) ?? [:]) }
            #expect(finals.count == runs)
            for final in finals {
                #expect(final["running"] as? Bool == false)
                let errors = ((final["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
                #expect(errors.contains("loop stopped by the page's Stop"), "\(final.filter { $0.key != "svg" })")
            }
        }
    }

    /// A page whose script doubles a string without end: the render is a
    /// located error, and the server goes on serving (it used to abort).
    @Test func aMemoryBombIsAnErrorNotTheServersEnd() async throws {
        let served = try ServedFolder(options: ["--max-memory", "64MB"])
        let bomb = "var s = \"x\"\nwhile true { s = s + s }\n"
        let rendering = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": bomb, "name": "bomb.flow"]))
        let errors = ((rendering["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.hasPrefix("memory limit of 64 MB reached while joining two strings with +") }, "\(rendering.filter { $0.key != "svg" })")
        #expect(try await served.request("/api/files").status == 200)
    }

    /// A page drawing a million events, and one whose deinits make each
    /// other: the first is a located error instead of a 325 MB picture
    /// built for a minute, the second ends with one instead of wedging
    /// every later render; the next render is answered.
    @Test func aHugeDiagramOrAnEndlessDeinitChainIsAnErrorAndTheServerGoesOn() async throws {
        let served = try ServedFolder()
        let huge = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": "marbles(range(0, 999999))\n", "name": "huge.flow"]))
        let errors = ((huge["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.hasPrefix("the diagram would draw 1000000 events, more than the 10000 a diagram draws") }, "\(huge.filter { $0.key != "svg" })")
        #expect(((huge["svg"] as? String) ?? "").utf8.count < 100_000)
        let long = "var s = \"x\"\nfor _ in 0..<18 { s = s + s }\nmarbles(Observable.from(Array(repeating: s, count: 100)))\n"
        let wide = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": long, "name": "long.flow"]))
        let wideErrors = ((wide["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(wideErrors.contains { $0.hasPrefix("the diagram would take more than the 8 MB a diagram may take to draw") }, "\(wide.filter { $0.key != "svg" })")
        #expect(((wide["svg"] as? String) ?? "").utf8.count < 100_000)
        let chain = "class Hen { deinit { let _ = Egg() } }\nclass Egg { deinit { let _ = Hen() } }\nvar hen: Hen? = Hen()\nhen = nil\n"
        let ended = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": chain, "name": "chain.flow"]))
        let chainErrors = ((ended["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
        #expect(chainErrors.contains { $0.contains("a deinit made an object whose deinit made another") }, "\(ended.filter { $0.key != "svg" })")
        let next = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": "marbles(cold(\"-a|\"))", "name": "x.flow"]))
        #expect(((next["errors"] as? [[String: Any]]) ?? []).isEmpty, "\(next.filter { $0.key != "svg" })")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheServerWhateverItsRunsDo(_ signal: Int32) async throws {
        let served = try ServedFolder()
        let stop = NIOLockedValueBox(false)
        let runs = Task(executorPreference: ThreadExecutor.shared) {
            try await withThrowingTaskGroup(of: String.self) { group in
                for n in 0..<3 { group.addTask(executorPreference: ThreadExecutor.shared) { try await Self.run(Self.busy(n), on: served, stop: stop) } }
                for try await _ in group {}
            }
        }
        let started = await waitFor { (0..<3).allSatisfy { FileManager.default.fileExists(atPath: served.folder.appendingPathComponent("started-\($0).txt").path) } }
        #expect(started)
        let status = served.stop(with: signal)
        #expect(status != nil, "flow serve did not exit on signal \(signal)")
        #expect(status == (signal == SIGINT ? 130 : 143))
        _ = await runs.result
    }
}
