import Foundation
import FlowLanguage
import FlowLive
@testable import FlowREPL
import FlowRuntime
import Testing

/// Collects what the REPL shows.
final class RecordingScreen: Screen, @unchecked Sendable {
    // Written and read on the test's thread only.
    var out: [String] = []
    var err: [String] = []
    func show(_ text: String) { out.append(text) }
    func showError(_ text: String) { err.append(text) }
}

/// A REPL on virtual time: lines typed, the clock advanced by hand.
final class Harness {
    let scheduler = VirtualScheduler()
    let screen = RecordingScreen()
    let controller: Controller

    init() {
        let screen = self.screen
        let console = Console(out: { screen.show($0) }, err: { screen.showError($0) }, color: false)
        let session = Session(scheduler: scheduler, console: console, modules: REPL.modules(.unrestricted))
        controller = Controller(session: session, screen: screen, color: false, errorColor: false, modules: REPL.modules(.unrestricted))
        session.listener = controller
    }

    /// Types lines (each with Enter); returns what they printed.
    @discardableResult
    func enter(_ lines: String...) -> (out: String, err: String) {
        collect { for line in lines { controller.receive(line, moreInputWaiting: false) } }
    }

    func advance(by milliseconds: Int64) -> (out: String, err: String) {
        collect { scheduler.advance(by: .milliseconds(milliseconds)) }
    }

    func collect(_ body: () -> Void) -> (out: String, err: String) {
        let (outBefore, errBefore) = (screen.out.count, screen.err.count)
        body()
        return (screen.out[outBefore...].joined(separator: "\n"), screen.err[errBefore...].joined(separator: "\n"))
    }
}

@Suite struct EvaluationTests {
    @Test func bindingsPersistAndANewLetReplacesTheOld() {
        let repl = Harness()
        #expect(repl.enter("let x = 1").out == "x: Int = 1")
        repl.enter("let addX = { $0 + x }")
        #expect(repl.enter("let x = 10").out == "x: Int = 10")
        #expect(repl.enter("x * 2").out == "20")
        // A closure keeps the binding it captured.
        #expect(repl.enter("addX(1)").out == "2")
        #expect(repl.enter("let x = x + 1", "x").out == "x: Int = 11\n11")
    }

    @Test func varsFuncsAndTypesLiveAcrossInputs() {
        let repl = Harness()
        repl.enter("var total = 1")
        repl.enter("total += 2")
        repl.enter("func twice(_ n: Int) -> Int { n * 2 }")
        repl.enter("enum Coin: String { case heads, tails }")
        #expect(repl.enter("twice(total)").out == "6")
        #expect(repl.enter("Coin.tails.rawValue").out == "\"tails\"")
        #expect(repl.enter("if total > 2 { \"big\" } else { \"small\" }").out == "\"big\"")
        #expect(repl.enter("just(Coin.heads)").out == "#1 +0ms  .heads\n#1 +0ms  completed")
    }

    @Test func ctrlCStopsAnEndlessLoop() {
        let repl = Harness()
        // Ctrl-C is asked for every 1024 iterations, long before virtual time bounds the loop.
        repl.controller.session.stopRequested = { true }
        let stopped = repl.enter("var n = 0", "while true { n += 1 }", "n > 0")
        #expect(stopped.err.contains("loop stopped by Ctrl-C"), "\(stopped)")
        #expect(stopped.out.hasSuffix("true"), "\(stopped)")
    }

    /// Loops too short to reach a stride each, nested: every iteration
    /// counts towards the session's stride, so Ctrl-C is asked as often.
    @Test func ctrlCStopsShortNestedLoops() {
        let repl = Harness()
        repl.controller.session.stopRequested = { true }
        let stopped = repl.enter("var n = 0", "for i in 0..<100 { for j in 0..<100 { for k in 0..<100 { n += 1 } } }", "n < 1000000")
        #expect(stopped.err.contains("loop stopped by Ctrl-C"), "\(stopped)")
        #expect(stopped.out.hasSuffix("true"), "\(stopped)")
    }

    /// Making objects is work too, asked about as loops are, outside any loop.
    @Test func ctrlCStopsMakingObjects() {
        let repl = Harness()
        repl.controller.session.stopRequested = { true }
        repl.enter("class Box {}")
        let stopped = repl.enter("Array(0..<100000).forEach { _ in let _ = Box() }")
        #expect(stopped.err.contains("making Box stopped by Ctrl-C"), "\(stopped)")
    }

    /// Ctrl-C during a deinit chain ends the chain and the rest of its
    /// line: the statement whose release started the chain does not fail
    /// (the chain's error is the run's), yet nothing after it runs.
    @Test func ctrlCInADeinitChainStopsTheRestOfTheLine() {
        let repl = Harness()
        repl.enter("class Hen { deinit { let _ = Hen() } }")
        // Ctrl-C comes once the chain is under way: the first asks (after
        // the first statement, and by the chain's first strides) say no.
        final class Asks { var count = 0 }
        let asks = Asks()
        repl.controller.session.stopRequested = { asks.count += 1; return asks.count > 3 }
        let stopped = repl.enter("var hen: Hen? = Hen(); hen = nil; print(\"not reached\")")
        #expect(stopped.err.contains("making Hen stopped by Ctrl-C"), "\(stopped)")
        #expect(!stopped.out.contains("not reached"), "\(stopped)")
    }

    @Test func aStreamRunsAndItsEventsAreLabelled() {
        let repl = Harness()
        #expect(repl.enter("of(1, 2).map { $0 * 10 }").out == "#1 +0ms  10\n#1 +0ms  20\n#1 +0ms  completed")
        #expect(repl.enter(#"just("a")"#).out == "#2 +0ms  \"a\"\n#2 +0ms  completed")
    }

    @Test func theDialectIsChosenByCommandOrImport() {
        let repl = Harness()
        #expect(repl.enter(":dialect").out.hasPrefix("following flow where the libraries disagree"))
        repl.enter("cold(\"-t|\").withLatestFrom(just(\"x\"))")
        #expect(repl.advance(by: 10).out == "#1 +1ms  (\"t\", \"x\")\n#1 +2ms  completed")
        #expect(repl.enter(":dialect rxswift").out == "following RxSwift where the libraries disagree")
        repl.enter("cold(\"-t|\").withLatestFrom(just(\"x\"))")
        #expect(repl.advance(by: 10).out == "#2 +1ms  \"x\"\n#2 +2ms  completed")
        repl.enter("import Combine")
        #expect(repl.enter("Empty().first()").out == "#3 +0ms  finished")
        #expect(repl.enter(":dialect Rx").err.contains("unknown dialect 'Rx'"))
        #expect(repl.enter(":dialect").out.hasPrefix("following Combine"))
    }

    @Test func aTimedStreamKeepsRunningAndPrintsOnTheClock() {
        let repl = Harness()
        #expect(repl.enter("interval(100ms).take(3)").out == "#1 running: :cancel 1 or Ctrl-C stops it")
        #expect(repl.advance(by: 250).out == "#1 +100ms  0\n#1 +200ms  1")
        #expect(repl.enter(":subs").out == "  #1 interval(100ms).take(3), after 250ms, 2 values")
        #expect(repl.advance(by: 1000).out == "#1 +300ms  2\n#1 +300ms  completed")
        #expect(repl.enter(":subs").out == "no subscriptions running")
    }

    @Test func aSubjectFedFromThePrompt() {
        let repl = Harness()
        repl.enter("let s = subject()", "s.scan(0) { $0 + $1 }")
        #expect(repl.enter("s.send(5)", "s.send(2)").out == "#1 +0ms  5\n#1 +0ms  7")
        #expect(repl.enter("s.complete()").out == "#1 +0ms  completed")
        #expect(repl.enter(":subs").out == "no subscriptions running")
    }

    @Test func printingAndSinkingStatementsSubscribeOnce() {
        let repl = Harness()
        #expect(repl.enter(#"of(1).print("p")"#).out == """
            p: receive subscription: (of)
            p: request unlimited
            p: receive value: (1)
            p: receive finished
            """)
        #expect(repl.enter("of(1, 2).sink { print($0) }").out == "1\n2")
        repl.enter("let s = subject()", "s.sink { print($0) }")
        #expect(repl.enter(":subs").out == "  #1 s.sink { print($0) }, after 0ms")
    }

    @Test func errorsShowWithACaretAndTheSessionGoesOn() {
        let repl = Harness()
        let division = repl.enter("1 / 0")
        #expect(division.err == "<input-1>:1:3: error: division by zero\n 1 | 1 / 0\n   |   ^")
        let unknown = repl.enter("let y = interva(1s)")
        #expect(unknown.err.contains("<input-2>:1:9: error: unknown function 'interva'"))
        #expect(unknown.err.contains("did you mean 'interval'?"))
        // Nothing of a failed input is bound.
        #expect(repl.enter("y").err.contains("unknown name 'y'"))
        #expect(repl.enter("2 + 2").out == "4")
    }

    @Test func aStreamErrorPointsIntoTheInputThatMadeIt() {
        let repl = Harness()
        repl.enter("let half = { 10 / $0 }")
        let failed = repl.enter("of(2, 0).map(half)")
        #expect(failed.out == "#1 +0ms  5")
        #expect(failed.err.hasPrefix("#1 +0ms  <input-1>:1:17: error: division by zero\n 1 | let half = { 10 / $0 }"))
    }

    @Test func multiLineInput() {
        let repl = Harness()
        #expect(repl.enter("of(1, 2).map {").out == "")
        #expect(repl.controller.prompt == Controller.continuationPrompt)
        #expect(repl.enter("  $0 + 1", "}").out == "#1 +0ms  2\n#1 +0ms  3\n#1 +0ms  completed")
        #expect(repl.controller.prompt == Controller.prompt)
    }

    @Test func aDotLineAmendsTheInputBeforeAndReplacesItsStream() {
        let repl = Harness()
        repl.enter("interval(100ms)")
        let amended = repl.enter(".take(1)")
        #expect(amended.out == "replaced #1 interval(100ms), after 0ms, 0 values\n#2 running: :cancel 2 or Ctrl-C stops it")
        #expect(repl.advance(by: 500).out == "#2 +100ms  0\n#2 +100ms  completed")
    }

    @Test func marblesAndTestBlocksTypedAtThePrompt() {
        let repl = Harness()
        #expect(repl.enter(#"marbles(cold("-a-b|"))"#).out.contains(#"cold("-a-b|")  -a-b|"#))
        #expect(repl.enter(#"test "maps" {"#, #"  expect(cold("-a|").map { $0 + "!" }).toBe("-b|", b: "a!")"#, "}").out == #"test "maps" passed"#)
        let failed = repl.enter(#"test "fails" { expect(cold("-a|")).toBe("--a|") }"#)
        #expect(failed.err.contains(#"test "fails" failed"#))
    }

    @Test func standardInputBelongsToTheREPL() {
        let repl = Harness()
        #expect(repl.enter("stdin.lines()").err.contains("standard input is the REPL's own input"))
    }
}

@Suite struct InterruptTests {
    @Test func ctrlCCancelsRunningStreamsThenTwiceOnAnEmptyLineExits() {
        let repl = Harness()
        repl.enter("interval(100ms)", "let t = timer(1s)", "t")
        _ = repl.advance(by: 250)
        var outcome = Controller.InterruptOutcome.exit
        let shown = repl.collect { outcome = repl.controller.interrupt(lineWasEmpty: true) }
        #expect(outcome == .cancelled)
        #expect(shown.out == "cancelled #1 interval(100ms), after 250ms, 2 values\ncancelled #2 t, after 250ms, 0 values")
        #expect(repl.advance(by: 1000).out == "")
        #expect(repl.controller.interrupt(lineWasEmpty: false) == .discarded)
        #expect(repl.controller.interrupt(lineWasEmpty: true) == .armed)
        #expect(repl.controller.interrupt(lineWasEmpty: true) == .exit)
    }

    @Test func ctrlCStopsAStreamThatRunsSynchronously() {
        let repl = Harness()
        let screen = repl.screen
        // As if Ctrl-C came while the third value printed.
        repl.controller.session.stopRequested = { screen.out.count >= 3 }
        #expect(repl.enter("range(1, 1000000000)").out == "#1 +0ms  1\n#1 +0ms  2\n#1 +0ms  3")
        var outcome = Controller.InterruptOutcome.exit
        let shown = repl.collect { outcome = repl.controller.interrupt(lineWasEmpty: true) }
        #expect(outcome == .cancelled)
        #expect(shown.out == "cancelled #1 range(1, 1000000000), after 0ms, 3 values")
    }

    @Test func ctrlCDropsAnOpenInput() {
        let repl = Harness()
        repl.enter("of(1,")
        #expect(repl.controller.interrupt(lineWasEmpty: true) == .discarded)
        #expect(repl.controller.prompt == Controller.prompt)
        // Typing in between disarms the exit.
        #expect(repl.controller.interrupt(lineWasEmpty: true) == .armed)
        repl.enter("1")
        #expect(repl.controller.interrupt(lineWasEmpty: true) == .armed)
    }
}

@Suite struct CommandTests {
    @Test func docShowsTheOperatorWithItsDiagram() {
        let repl = Harness()
        let shown = repl.enter(":doc take").out
        #expect(shown.hasPrefix("take(Int) — the first n values, then completion"))
        #expect(shown.contains("source.take(2)  -a-(b|)"))
        #expect(repl.enter(":doc prefix").out.hasPrefix("take(Int)"))
        #expect(repl.enter(":doc http.get").out.hasPrefix("http.get("))
        #expect(repl.enter(":doc debounc").err == "no operator or method 'debounc'; did you mean 'debounce'?")
        #expect(repl.enter(":doc").err.hasPrefix("usage: :doc NAME"))
    }

    @Test func opsListsEveryFamily() {
        let shown = Harness().enter(":ops").out
        for family in OperatorSpec.Family.allCases { #expect(shown.contains(family.rawValue)) }
        #expect(shown.contains("debounce"))
    }

    @Test func marbleDrawsTheStreamAndTheBindingsItReads() {
        let repl = Harness()
        repl.enter(#"let s = cold("-a-b|")"#)
        #expect(repl.enter(#":marble s.map { $0 + "!" }"#).out == """
                                0
            s                   -a-b|
            s.map { $0 + "!" }  -c-d|
            legend              c = "a!", d = "b!"
            """)
        #expect(repl.enter(":marble 42").err.contains("this is Int 42, not a stream"))
        #expect(repl.enter(":marble s.nope()").err.contains("error"))
    }

    /// `:marble` takes several expressions, and a value keeps its symbol
    /// from one drawing to the next (`:marble`, then `:trace`).
    @Test func marbleDrawsSeveralStreamsAndKeepsSymbols() {
        let repl = Harness()
        repl.enter(#"let s = cold("-a-b|")"#)
        #expect(repl.enter(#":marble s.map { $0 + "!" }, s.filter { $0 == "b" }.map { $0 + "?" }"#).out == """
                                                     0
            s                                        -a-b|
            s.map { $0 + "!" }                       -c-d|
            s.filter { $0 == "b" }.map { $0 + "?" }  ---e|
            legend                                   c = "a!", d = "b!", e = "b?"
            """)
        let traced = repl.enter(#":trace s.filter { $0 == "b" }.map { $0 + "?" }"#).out
        #expect(traced.contains("legend"))
        #expect(traced.contains(#"e = "b?""#), "\(traced)")
    }

    @Test func marbleCutsAnEndlessStream() {
        let shown = Harness().enter(":marble interval(1s)").out
        #expect(shown.contains("interval(1s)  -----0----1----2----3----4----5----6----7----8----9----a----b\n"))
        #expect(shown.hasSuffix("(the stream had not ended at 12.8s: drawn that far; take(n) ends it)"))
    }

    @Test func traceDrawsALanePerStage() {
        #expect(Harness().enter(#":trace cold("-a-b|").filter { $0 != "a" }.map { $0 + "!" }"#).out == """
                                  0
            cold("-a-b|")         -a-b|
            filter { $0 != "a" }  ---b|
            map { $0 + "!" }      ---c|
            legend                c = "b!"
            """)
    }

    @Test func graphMarksSharedNodesAndSources() {
        let repl = Harness()
        repl.enter("let ticks = interval(1s).share()", "let both = ticks.merge(ticks.map { $0 * 10 })", "let s = subject()")
        #expect(repl.enter(":graph both").out == """
            both
            └─ merge(ticks.map { $0 * 10 })
               ├─ share()  [shared #1: 2 readers]
               │  └─ interval(1s)  (cold source)
               └─ map { $0 * 10 }
                  └─ share()  [shared #1, drawn above]
            """)
        #expect(repl.enter(":graph s").out == "s\n└─ subject()  (hot source)")
        #expect(repl.enter(":graph tick").err == "no binding named 'tick'; did you mean 'ticks'?")
        #expect(repl.enter("let n = 3", ":graph n").err == "'n' is Int 3, not a stream")
    }

    @Test func graphOfAVeryDeepChainIsCut() {
        let repl = Harness()
        repl.enter("let deep = range(1, 3)" + String(repeating: ".map { $0 }", count: 1000))
        let lines = repl.enter(":graph deep").out.split(separator: "\n")
        #expect(lines.count == GraphTree.maximumLines + 2)
        #expect(lines.last == "… 801 more nodes")
    }

    @Test func cancelOneOrAll() {
        let repl = Harness()
        repl.enter("interval(1s)", "interval(2s)")
        #expect(repl.enter(":cancel 2").out == "cancelled #2 interval(2s), after 0ms, 0 values")
        #expect(repl.enter(":cancel 2").err == "no running subscription #2 (:subs lists them)")
        #expect(repl.enter(":cancel").out == "cancelled #1 interval(1s), after 0ms, 0 values")
        #expect(repl.enter(":cancel").out == "no subscriptions running")
        #expect(repl.enter(":cancel x").err.hasPrefix("usage: :cancel [N]"))
    }

    @Test func loadRunsAScriptIntoTheSession() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-load-\(UUID().uuidString).flow").path
        try "let base = 40\nlet more = { base + $0 }\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let repl = Harness()
        #expect(repl.enter(":load \(path)").out.hasSuffix("loaded \(path): base, more"))
        #expect(repl.enter("more(2)").out == "42")
        #expect(repl.enter(":load /no/such/file.flow").err == "error: cannot read /no/such/file.flow: No such file or directory")
    }

    @Test func resetForgetsEverything() {
        let repl = Harness()
        repl.enter("let x = 1", "interval(1s)")
        #expect(repl.enter(":reset").out == "cancelled #1 interval(1s), after 0ms, 0 values\nevery binding forgotten")
        #expect(repl.enter("x").err.contains("unknown name 'x'"))
    }

    @Test func unknownCommandsListTheKnownOnes() {
        let shown = Harness().enter(":hepl").err
        #expect(shown.hasPrefix("unknown command ':hepl'; did you mean ':help'?"))
        #expect(shown.contains("commands: :help :doc :ops :marble :trace :graph :subs :cancel :load :dialect :reset :quit"))
    }

    @Test func helpListsEveryCommand() {
        let shown = Harness().enter(":help").out
        for command in Controller.commands { #expect(shown.contains(command.name)) }
    }

    @Test func quitAsksTheTerminalToEnd() {
        let repl = Harness()
        var quit = false
        repl.controller.onQuit = { quit = true }
        repl.enter(":quit")
        #expect(quit)
    }
}

/// A stream cancelled by `:cancel` tells its file writer at once (not when
/// the writer is released: here it stays bound for the rest of the
/// session): a stream that did not complete writes nothing, and says so.
@Suite struct CancelledWriterTests {
    @Test func cancellingAStreamLeavesItsFileAsItWas() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-cancel-\(UUID().uuidString).txt").path
        try "old\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let repl = Harness()
        repl.enter("let out = file.write(\"\(path)\")", "interval(10ms).sink(out)")
        _ = repl.advance(by: 35)
        let shown = repl.enter(":cancel 1")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect((shown.out + shown.err).contains("nothing was written to \(path) (its stream was stopped before it ended); it keeps its old contents"),
                "\(shown)")
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("." + name + ".partial") }.isEmpty)
    }
}
