import Foundation
import Testing

@testable import FlowLanguage
import FlowRuntime

/// Guards a program cannot walk around: loops share one budget per run,
/// and a script of endless mistakes is reported in a screenful.
@Suite struct WorkBudgetTests {
    /// Three loops of a thousand each: no loop ever reaches a stride of
    /// its own, yet together they would make 10^9 iterations. Every
    /// iteration of every loop counts, so the run's budget stops them, in
    /// the innermost loop, at ten million.
    @Test func shortNestedLoopsShareTheRunsBudget() throws {
        let result = try runScript("var n = 0\nfor i in 0..<1000 { for j in 0..<1000 { for k in 0..<1000 { n += 1 } } }\nprint(n)\n")
        let message = try #require(result.top.errors.first, "the loops ran to the end")
        #expect(message.message.hasPrefix("loop stopped: the run made 10000000 steps in all (loop iterations and objects made)"))
        #expect(message.location?.line == 2 && message.location?.column == 41)
        #expect(result.out.isEmpty)
    }

    /// A `deinit` that makes an object of its own class: that object's
    /// `deinit` makes the next, without end. The chain's depth stops it, at
    /// the place the object is made, and the run goes on.
    @Test func aDeinitMakingItsOwnClassEndsWithALocatedError() throws {
        let result = try runScript("""
            class Phoenix {
              deinit { let _ = Phoenix() }
            }
            var p: Phoenix? = Phoenix()
            p = nil
            print("after")

            """)
        let message = try #require(result.top.errors.first, "the chain ended without an error")
        #expect(message.message.hasPrefix("making Phoenix stopped: a deinit made an object whose deinit made another, 10000 deinits deep"))
        #expect(message.location?.line == 2 && message.location?.column == 20)
        #expect(result.top.errors.count == 1)
        #expect(result.out == ["after"])
    }

    /// A chain that widens (each deinit makes two objects) reaches the
    /// depth on its first branch: the whole chain ends there, with one
    /// error, instead of failing again at every branch still queued
    /// without end.
    @Test func aWideningDeinitChainEndsWholeWithOneError() throws {
        let result = try runScript("""
            class Hen {
              deinit { let _ = Hen(); let _ = Hen() }
            }
            var hen: Hen? = Hen()
            hen = nil
            print("after")

            """)
        #expect(result.top.errors.count == 1, "\(result.top.errors.prefix(3))")
        #expect(result.top.errors.first?.message.contains("10000 deinits deep") == true)
        #expect(result.out == ["after"])
    }

    /// Two classes whose deinits make each other, and a long chain of
    /// objects each made in the last one's deinit but not endless: the
    /// first is stopped, the second runs (a chain as deep as a Swift
    /// program's stack could take is no error).
    @Test func deinitsMakingEachOtherAreStoppedButAFiniteChainRuns() throws {
        let endless = try runScript("""
            class Hen { deinit { let _ = Egg() } }
            class Egg { deinit { let _ = Hen() } }
            var hen: Hen? = Hen()
            hen = nil

            """)
        #expect(endless.top.errors.count == 1)
        #expect(endless.top.errors.first?.message.contains("a deinit made an object whose deinit made another") == true, "\(endless.top.errors)")
        let finite = try runScript("""
            var made = 0
            class Link {
              let left: Int
              init(_ left: Int) { self.left = left; made += 1 }
              deinit { if left > 0 { let _ = Link(left - 1) } }
            }
            var first: Link? = Link(5000)
            first = nil
            print(made)

            """)
        #expect(finite.top.errors.isEmpty, "\(finite.top.errors)")
        #expect(finite.out == ["5001"])
    }

    /// A `for` walks a finite sequence: past a million elements it is not
    /// stopped as an endless `while` would be.
    @Test func aLongForLoopOverAFiniteSequenceRuns() throws {
        let result = try runScript("var n = 0\nfor i in 0..<1500000 { n += 1 }\nprint(n)\n")
        #expect(result.top.errors.isEmpty, "\(result.top.errors)")
        #expect(result.out == ["1500000"])
    }

    @Test func diagnosticsStopAfterTheCapAndCountTheRest() {
        let script = (0..<1000).map { "nope\($0 % 3)()" }.joined(separator: "\n")
        let shown = diagnostics(of: script)
        let errors = shown.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == Diagnostic.cap + 1)
        #expect(errors.last?.hasSuffix("error: and 900 more errors after this point, not shown: fix these first") == true, "\(errors.last ?? "")")
    }

    /// Syntax and resolution errors interleaved, 500 of each: the lexer,
    /// parser and compiler each keep their first hundred, and together
    /// the first hundred in source order are shown, then one line at the
    /// first not shown counting all the rest (it said "and 400 more" twice,
    /// after 200 lines, before).
    @Test func interleavedErrorsAreCappedAsOne() {
        let script = (0..<1000).map { $0 % 2 == 0 ? "let x\($0) = )" : "nope\($0)()" }.joined(separator: "\n")
        let shown = diagnostics(of: script)
        let errors = shown.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == Diagnostic.cap + 1)
        #expect(errors.filter { $0.contains("more error") }.count == 1)
        #expect(errors.last?.hasSuffix(":101:12: error: and 900 more errors after this point, not shown: fix these first") == true,
                "\(errors.last ?? "")")
        #expect(errors[Diagnostic.cap - 1].contains(":100:1: error: unknown function 'nope99'"), "\(errors[Diagnostic.cap - 1])")
    }

    /// Run errors are capped as compile errors are, keeping the first:
    /// 299 deinits failing, each with its own index, show the first 100
    /// and one more error counting the rest, where the first not shown was.
    @Test func runErrorsAreCappedKeepingTheFirst() throws {
        let result = try runScript("""
            class Broken {
              let n: Int
              init(_ n: Int) { self.n = n }
              deinit { if n > 0 { print([0][n]) } }
            }
            for i in 0..<300 { let _ = Broken(i) }
            print("done")

            """)
        let errors = result.top.errors
        #expect(errors.count == Diagnostic.cap + 1)
        #expect(errors.first?.message.contains("index 1 ") == true, "\(errors.first?.message ?? "")")
        #expect(errors[Diagnostic.cap - 1].message.contains("index 100 "), "\(errors[Diagnostic.cap - 1].message)")
        #expect(errors.last?.message == "and 199 more errors after this point, not shown: fix these first")
        #expect(errors.last?.location?.line == 4)
        #expect(result.out == ["done"])
    }

    /// A diagram of more events than anyone reads is a located error at
    /// its `marbles(...)` call, not minutes of drawing; the run goes on.
    @Test func aDiagramOfTooManyEventsIsALocatedError() throws {
        let result = try runScript("marbles(range(0, 20000))\nmarbles(cold(\"-a|\"))\nprint(\"done\")\n")
        let message = try #require(result.top.errors.first)
        #expect(message.message.hasPrefix("the diagram would draw 20001 events, more than the 10000 a diagram draws"))
        #expect(message.location?.line == 1 && message.location?.column == 1)
        #expect(result.top.laneDiagrams.count == 1)
        #expect(result.out.first == "done")
        #expect(result.out.count == 2 && result.out[1].contains("cold(\"-a|\")  -a|"), "\(result.out)")
    }

    /// Fewer events than the cap can still make a diagram nobody can draw:
    /// a hundred values of 256 KB are 25 MB of SVG tooltips and legend. A
    /// located error names the cap; the diagram beside it, of 9 000 short
    /// values, is drawn.
    @Test func aDiagramOfTooManyBytesIsALocatedError() throws {
        let result = try runScript("""
            var s = "x"
            for _ in 0..<18 { s = s + s }
            marbles(Observable.from(Array(repeating: s, count: 100)).map { $0 + "!" })
            marbles(range(0, 9000).map { "v\\($0)" })
            print("done")

            """)
        let message = try #require(result.top.errors.first)
        #expect(message.message.hasPrefix("the diagram would take more than the 8 MB a diagram may take to draw (1 lane, 101 events, each value written whole)"),
                "\(message.message)")
        #expect(message.location?.line == 3 && message.location?.column == 1)
        #expect(result.top.errors.count == 1)
        #expect(result.top.laneDiagrams.count == 1)
        #expect(result.out.first == "done")
    }
}
