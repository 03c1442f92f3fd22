import Foundation
import FlowTestSupport
import Testing

/// Signals as a job under systemd meets them: SIGHUP stops a run cleanly
/// unless the script handles it (`signals("HUP")`), and every stop says
/// what the sinks committed.
@Suite struct SignalCommandTests {
    func script(_ text: String) throws -> String { try scriptFile(text, named: "signals.flow") }

    /// The number of lines the stop report says `sink` committed.
    func reported(_ err: String, _ sink: String) -> Int? {
        guard let line = err.split(separator: "\n").first(where: { $0.contains(sink) }),
              let match = line.firstMatch(of: /: (\d+) lines? appended/) else { return nil }
        return Int(match.1)
    }

    @Test(arguments: [(SIGHUP, Int32(129)), (SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aStopReportsWhatTheSinksCommitted(_ signal: Int32, _ status: Int32) throws {
        let log = temporaryPath("ticks.log"), output = temporaryPath("never.txt")
        let path = try script("""
            interval(5ms).map { "tick \\($0)" }.sink(file.append("\(log)"))
            interval(5ms).sink(file.write("\(output)"))
            """)
        defer { for p in [path, log, output] { try? FileManager.default.removeItem(atPath: p) } }
        let (process, _, err) = try FlowProcess.start([path])
        try waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count >= 5 }
        kill(process.processIdentifier, signal)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(message)")
        #expect(message.contains("what the sinks committed:"), "\(message)")
        let appended = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
        #expect(reported(message, "file.append(\"\(log)\")") == appended, "\(appended) lines in the file: \(message)")
        #expect(message.contains("file.write(\"\(output)\")") && message.contains("not put in place: \(output) keeps its old contents"),
                "\(message)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aScriptThatWatchesHUPHandlesItAndGoesOn() throws {
        let marker = temporaryPath("ready")
        let path = try script("""
            signals("HUP").scan(0) { n, _ in n + 1 }.sink { print("reloaded", $0) }
            signals("SIGTERM").sink { _ in
              print("cleaning up")
              exit(0)
            }
            timer(1ms).sink { _ in print("ready") }
            interval(10ms).sink { _ in }
            """)
        defer { for p in [path, marker] { try? FileManager.default.removeItem(atPath: p) } }
        let (process, out, _) = try FlowProcess.start([path])
        let reader = LineReader(out)
        try waitUntil { reader.lines.contains("ready") }
        kill(process.processIdentifier, SIGHUP)
        try waitUntil { reader.lines.contains("reloaded 1") }
        kill(process.processIdentifier, SIGHUP)
        try waitUntil { reader.lines.contains("reloaded 2") }
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try waitUntil { reader.lines.contains("cleaning up") }
        #expect(process.terminationStatus == 0)
    }

    @Test func anUnknownSignalIsALocatedError() throws {
        let path = try script("signals(\"KILL\").sink { print($0) }\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run([path], timeout: waitingDeadline)
        #expect(result.status == 1 && result.err.contains(#"signals takes HUP, INT, TERM, USR1, USR2, not "KILL""#), "\(result)")
        #expect(result.err.contains(":1:1"), "\(result.err)")
    }
}

/// Collects a pipe's lines as they come, on a thread of its own.
final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread {
            var pending = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    self.lock.lock()
                    self.collected.append(line)
                    self.lock.unlock()
                }
            }
        }.start()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
