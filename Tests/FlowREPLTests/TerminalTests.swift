import FlowTestSupport
import Foundation
import Testing

/// The REPL in a real terminal: `flow` started in a tmux pane, driven with
/// `send-keys`, read with `capture-pane`.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed here: the REPL's terminal tests need it"))
struct TerminalTests {
    @Test func startsWithAHintAndExitsOnCtrlD() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        let screen = try tmux.waitFor { $0.contains("flow>") }
        #expect(screen.hasPrefix("flow 0.1.0: type a stream to watch it run; :help for commands"))
        tmux.press("C-d")
        #expect(try tmux.waitForExit() == 0)
    }

    @Test func completesOperatorsCommandsAndNames() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("let ticks = interval(1s)")
        tmux.press("Enter")
        // The name is known once the line has been evaluated: completing
        // it before then (a loaded machine) would race the evaluation.
        try tmux.waitFor { $0.contains("ticks: Stream") }
        tmux.type("tic")
        tmux.press("Tab")
        tmux.type(".switchL")
        tmux.press("Tab")
        try tmux.waitFor { $0.contains("flow> ticks.switchLatest") }
        tmux.press("C-u")
        tmux.type(":he")
        tmux.press("Tab")
        try tmux.waitFor { $0.contains("flow> :help") }
        tmux.press("C-u")
        // Two Tabs list the choices.
        tmux.type("of(1).ma")
        tmux.press("Tab")
        tmux.press("Tab")
        let listed = try tmux.waitFor { $0.contains("materialize") }
        #expect(listed.contains("map"))
        #expect(listed.contains("max"))
    }

    @Test func historyIsKeptAcrossSessions() throws {
        let state = URL(fileURLWithPath: temporaryPath("state"))
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try Tmux(environment: ["XDG_STATE_HOME": state.path])
        try first.waitFor { $0.contains("flow>") }
        first.type("let remembered = 42")
        first.press("Enter")
        try first.waitFor { $0.contains("remembered: Int = 42") }
        first.press("C-d")
        #expect(try first.waitForExit() == 0)
        first.close()
        let saved = try String(contentsOf: state.appendingPathComponent("flow/history"), encoding: .utf8)
        #expect(saved.contains("let remembered = 42"))

        let second = try Tmux(environment: ["XDG_STATE_HOME": state.path])
        defer { second.close() }
        try second.waitFor { $0.contains("flow>") }
        second.press("Up")
        try second.waitFor { $0.contains("flow> let remembered = 42") }
        second.press("Enter")
        try second.waitFor { $0.contains("remembered: Int = 42") }
    }

    @Test func multiLineInputContinuesWithDots() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("of(1, 2).map {")
        tmux.press("Enter")
        try tmux.waitFor { $0.hasSuffix("...") }
        tmux.type("$0 * 10")
        tmux.press("Enter")
        tmux.type("}")
        tmux.press("Enter")
        // The times are the live clock's: a loaded machine may take a
        // millisecond or more to print a line, so they are not compared.
        let screen = try tmux.waitFor { $0.contains("  completed") }
        #expect(screen.contains("flow> of(1, 2).map {\n...   $0 * 10\n...   }\n"))
        #expect(screen.contains(try Regex(#"#1 \+\d+ms  10\n#1 \+\d+ms  20\n#1 \+\d+ms  completed"#)))
    }

    @Test func aLiveStreamPrintsWhileALineIsTypedAndCtrlCCancelsIt() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("interval(100ms)")
        tmux.press("Enter")
        tmux.type("let partial = 1")
        // Events keep arriving above the line being edited, which stays whole
        // at the bottom. Any value from the fifth on will do: on a loaded
        // machine the screen may be read only after earlier ones scrolled away.
        let fifthOrLater = try Regex(#"(?m)^#1 \+\S+  ([4-9]|[1-9]\d+)$"#)
        let screen = try tmux.waitFor { $0.contains(fifthOrLater) }
        let lines = screen.split(separator: "\n")
        #expect(lines.last == "flow> let partial = 1")
        #expect(lines.filter { $0.contains("let partial") }.count == 1)
        tmux.press("C-c")
        let cancelled = try tmux.waitFor { $0.contains("cancelled #1 interval(100ms)") }
        #expect(cancelled.contains("flow> let partial = 1^C"))
        let count = cancelled.components(separatedBy: "#1 +").count
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try tmux.screen().components(separatedBy: "#1 +").count == count)
        // The prompt is back, and usable.
        tmux.type("1 + 1")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> 1 + 1\n2") }
    }

    /// Ctrl-C stops a line's sink, which then says what it committed:
    /// the lines the file holds.
    @Test func ctrlCStopsASinkThatSaysWhatItCommitted() throws {
        let log = temporaryPath("repl-cancelled-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("interval(20ms).sink(file.append(\"\(log)\"))")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("#1 running") }
        #expect(waitFor(seconds: 30) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3 })
        tmux.press("C-c")
        let said = #/#1 cancelled; what the sinks committed:\n  file\.append\("[^"]+"\): (\d+) lines appended \(\d+ bytes\)/#
        let screen = try tmux.waitFor { $0.contains(said) }
        #expect(screen.contains("cancelled #1 interval(20ms)"), "\(screen)")
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
        let reported = screen.firstMatch(of: said).flatMap { Int($0.1) }
        #expect(reported == lines, "the file holds \(lines) lines: \(screen)")
        // The prompt is back, and usable.
        tmux.type("1 + 1")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> 1 + 1\n2") }
    }

    @Test func ctrlCStopsALongSynchronousStream() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("range(1, 100000000)")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("#1 +") }
        tmux.press("C-c")
        try tmux.waitFor { $0.contains("cancelled #1 range(1, 100000000)") && $0.hasSuffix("flow>") }
        tmux.type("2 + 2")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> 2 + 2\n4") }
    }

    /// Loops nested three deep, each too short to reach a stride of its
    /// own: Ctrl-C stops them, and the prompt is back.
    @Test func ctrlCStopsShortNestedLoops() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("var n = 0; print(\"started\"); for i in 0..<1000 { for j in 0..<1000 { for k in 0..<1000 { n += 1 } } }; print(\"done\")")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("\nstarted") }
        tmux.press("C-c")
        try tmux.waitFor { $0.contains("loop stopped by Ctrl-C") && $0.hasSuffix("flow>") }
        #expect(!(try tmux.screen()).contains("\ndone"))
        tmux.type("n > 0")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> n > 0\ntrue") }
    }

    /// A deinit chain that no limit ends (each Hen's deinit makes two,
    /// sixty deep): Ctrl-C ends it, with its error, and the rest of the
    /// line does not run; the prompt is back.
    @Test func ctrlCStopsADeinitChainAndTheRestOfItsLine() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("var deep = false; class Hen { let generation: Int; init(_ generation: Int) { self.generation = generation }; "
                  + "deinit { if generation == 60 && !deep { deep = true; print(\"deep in the chain\") }; "
                  + "if generation < 60 { let _ = Hen(generation + 1); let _ = Hen(generation + 1) } } }")
        tmux.press("Enter")
        try tmux.waitFor { $0.hasSuffix("flow>") && $0.contains("Hen") }
        tmux.press("C-l")
        tmux.type("var hen: Hen? = Hen(0); hen = nil; print(\"rest of the line\")")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("\ndeep in the chain") }
        tmux.press("C-c")
        try tmux.waitFor { $0.contains("making Hen stopped by Ctrl-C") && $0.hasSuffix("flow>") }
        #expect(!(try tmux.screen()).contains("\nrest of the line"))
        tmux.type("deep")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> deep\ntrue") }
    }

    @Test func docAndMarbleDrawWithTheEngine() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type(":doc take")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("source.take(2)  -a-(b|)") }
        tmux.press("C-l")
        tmux.type(#":marble cold("-a-b|").map { $0 + "!" }"#)
        tmux.press("Enter")
        let screen = try tmux.waitFor { $0.contains("legend") }
        #expect(screen.contains(#"cold("-a-b|").map { $0 + "!" }  -a-b|"#))
        #expect(screen.contains(#"legend                          a = "a!", b = "b!""#))
    }

    @Test func errorsShowACaretAndTheSessionGoesOn() throws {
        let tmux = try Tmux()
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("flow>") }
        tmux.type("1 / 0")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("<input-1>:1:3: error: division by zero\n 1 | 1 / 0\n   |   ^") }
        tmux.type("2 + 2")
        tmux.press("Enter")
        try tmux.waitFor { $0.contains("flow> 2 + 2\n4\nflow>") }
        // Two SIGINTs that arrive before the process is scheduled merge
        // into one (the kernel keeps one pending signal), so the second
        // Ctrl-C waits until the first has been seen, as a person's would.
        tmux.press("C-c")
        try tmux.waitFor { $0.contains("(Ctrl-C again or Ctrl-D to exit)") }
        tmux.press("C-c")
        #expect(try tmux.waitForExit() == 0)
    }
}

/// One tmux server of its own (so tests never meet another session), with
/// `flow` in a 120×40 pane. A shell around `flow` prints its exit status
/// when it ends: tmux itself may be slow to collect it.
final class Tmux {
    static let isAvailable: Bool = (try? run(["-V"])) != nil

    private let socket = "flow-test-\(UUID().uuidString)"
    private let wrapper = FileManager.default.temporaryDirectory.appendingPathComponent("flow-pane-\(UUID().uuidString).sh")

    init(environment: [String: String] = [:]) throws {
        var variables = ["NO_COLOR": "1", "TERM": "xterm-256color", "HOME": FileManager.default.temporaryDirectory.path]
        variables["XDG_STATE_HOME"] = URL(fileURLWithPath: temporaryPath("state")).path
        variables.merge(environment) { $1 }
        let exports = variables.map { "export \($0.key)='\($0.value)'" }.joined(separator: "\n")
        // The shell survives the Ctrl-Cs sent to `flow` (its handler is reset in `flow`).
        try "#!/bin/sh\n\(exports)\ntrap true INT\n'\(FlowProcess.binary.path)'\necho \"[flow exited $?]\"\nexec sleep 600\n"
            .write(to: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper.path, 0o755)
        // Not through Process: Foundation sees a child end when every copy of
        // a descriptor it hands the child is closed, and the tmux server this
        // starts keeps its copy.
        let status = system("tmux -L \(socket) -f /dev/null new-session -d -s repl -x 120 -y 40 '\(wrapper.path)' </dev/null >/dev/null 2>&1")
        guard status == 0 else { throw TmuxFailed(arguments: ["new-session", wrapper.path]) }
    }

    func type(_ text: String) { _ = try? Self.run(["-L", socket, "send-keys", "-t", "repl", "-l", text]) }
    func press(_ key: String) { _ = try? Self.run(["-L", socket, "send-keys", "-t", "repl", key]) }

    /// The pane's text, without trailing blank lines (tmux drops the spaces
    /// at the end of each line: an empty prompt reads `flow>`).
    func screen() throws -> String {
        let text = try Self.run(["-L", socket, "capture-pane", "-p", "-t", "repl"])
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
            .reversed().drop(while: \.isEmpty).reversed().joined(separator: "\n")
    }

    struct Timeout: Error, CustomStringConvertible {
        let screen: String
        var threads = ""
        var description: String { "timed out; the screen was:\n\(screen)\n\(threads)" }
    }

    /// Where each thread of `flow` is waiting (Linux), to tell a hang from a slow machine.
    func threadStates() -> String {
        guard let shell = try? Self.run(["-L", socket, "display-message", "-p", "-t", "repl", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines),
            let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8),
            let flow = children.split(separator: " ").first,
            let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(flow)/task") else { return "" }
        return "flow's threads:\n" + tasks.sorted().map { task in
            let read = { (name: String) in ((try? String(contentsOfFile: "/proc/\(flow)/task/\(task)/\(name)", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines) }
            return "  \(task) \(read("comm")) waits in \(read("wchan")), \(read("syscall").split(separator: " ").first ?? "")"
        }.joined(separator: "\n")
    }

    /// Polls the screen until `condition` holds (generous: CI machines are slow).
    @discardableResult
    func waitFor(timeout: TimeInterval = waitingDeadline, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            text = try screen()
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(screen: text, threads: threadStates())
    }

    /// Waits for `flow` to exit; its status.
    func waitForExit(timeout: TimeInterval = waitingDeadline) throws -> Int {
        let screen = try waitFor(timeout: timeout) { $0.contains("[flow exited ") }
        let status = screen.components(separatedBy: "[flow exited ").last?.prefix(while: \.isNumber) ?? ""
        return Int(status) ?? -1
    }

    func close() {
        _ = try? Self.run(["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(at: wrapper)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TmuxFailed(arguments: arguments) }
        return String(decoding: data, as: UTF8.self)
    }

    struct TmuxFailed: Error { let arguments: [String] }
}
