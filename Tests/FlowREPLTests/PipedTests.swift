import FlowTestSupport
import Foundation
import Testing

/// `flow repl` with standard input not a terminal: plain lines, no prompt.
@Suite struct PipedInputTests {
    @Test func readsPlainLinesWithoutAPrompt() throws {
        let result = try FlowProcess.run(["repl"], stdin: "let x = 2\nx * 21\n:doc take\n")
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("x: Int = 2\n42\ntake(Int) — the first n values, then completion\n"))
        #expect(!result.out.contains("flow>"))
        #expect(result.err.isEmpty)
    }

    @Test func controlBytesInTheInputAreData() throws {
        // A Tab would complete, and ESC [ A recall history, under readline.
        let result = try FlowProcess.run(["repl"], stdin: "\tlet s = \"a\\tb\"\ns.count\n\u{1B}[A\n")
        #expect(result.out.hasPrefix("s: String = \"a\\tb\"\n3\n"))
        #expect(result.err.contains("error"))
    }

    @Test func streamsStillRunningFinishAtTheEndOfInput() throws {
        let result = try FlowProcess.run(["repl"], stdin: "interval(20ms).take(3)\n:subs\n")
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "#1 running: :cancel 1 or Ctrl-C stops it")
        #expect(lines[1].hasPrefix("  #1 interval(20ms).take(3), after "))
        #expect(lines.filter { $0.hasPrefix("#1 +") }.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") } == ["0", "1", "2", "completed"])
    }

    /// What a line's sinks committed follows the line: at once when its
    /// subscriptions ended with it, else once the last of them ends; a
    /// sink bound by one line and subscribed by another is said by the
    /// line that used it, and a line that commits nothing says nothing.
    @Test func eachLineSaysWhatItsSinksCommittedOnceTheyEnd() throws {
        let folder = temporaryPath("repl-committed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = """
            of(1, 2).sink(file.append("now.log"))
            let later = file.write("later.txt")
            interval(20ms).take(3).sink(later)
            print("typed after")

            """
        let result = try FlowProcess.run(["repl"], stdin: input, in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
            what the sinks committed:
              file.append("now.log"): 2 lines appended (4 bytes)
            later: Closure = <closure file.write>
            #1 running: :cancel 1 or Ctrl-C stops it
            typed after
            #1 ended; what the sinks committed:
              file.write("later.txt"): 3 lines written (6 bytes), later.txt replaced

            """, "\(result.out)")
        #expect(try String(contentsOfFile: folder + "/later.txt", encoding: .utf8) == "0\n1\n2\n")
    }

    @Test func aPastedChainRunsOnce() throws {
        let result = try FlowProcess.run(["repl"], stdin: "of(1, 2)\n  .map { $0 * 10 }\n  .filter { $0 > 10 }\n")
        // The times are the live clock's: only the events are compared.
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("#1 +") })
        #expect(lines.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") } == ["20", "completed"])
    }

    @Test func errorsDoNotEndTheSession() throws {
        let result = try FlowProcess.run(["repl"], stdin: "1 / 0\nnope\n:nope\n2 + 2\n")
        // Every input ran, and the session says some failed, as a script would.
        #expect(result.status == 1)
        #expect(result.out == "4\n")
        #expect(result.err.contains("<input-1>:1:3: error: division by zero\n 1 | 1 / 0\n   |   ^\n"))
        #expect(result.err.contains("<input-2>:1:1: error: unknown name 'nope'"))
        #expect(result.err.contains("unknown command ':nope'"))
    }

    @Test func quitEndsTheSessionAtOnce() throws {
        let result = try FlowProcess.run(["repl"], stdin: "1\ninterval(1s)\n:quit\n2\n")
        #expect(result.status == 0)
        #expect(result.out == "1\n#1 running: :cancel 1 or Ctrl-C stops it\n")
    }

    @Test func withoutReplPipedInputIsStillAScript() throws {
        // The contract: `flow` with a script on standard input runs it.
        let result = try FlowProcess.run([], stdin: "let x = 2\nprint(x * 21)\n")
        #expect(result.out == "42\n")
    }
}
