import Foundation
import Testing

@testable import FlowLanguage
import FlowRuntime

/// Guards a program cannot walk around: loops share one budget per run,
/// and a script of endless mistakes is reported in a screenful.
@Suite struct WorkBudgetTests {
    /// Each loop stays under the one-loop limit; together they would make
    /// 10^12 iterations. The run's budget stops them, at the inner loop.
    @Test func nestedLoopsShareTheRunsBudget() throws {
        let result = try runScript("var n = 0\nfor i in 0..<999999 { for j in 0..<999999 { n += 1 } }\n")
        let message = try #require(result.top.errors.first, "the loops ran to the end")
        #expect(message.message.hasPrefix("loop stopped: the run's loops made 10000000 iterations in all"))
        #expect(message.location?.line == 2 && message.location?.column == 23)
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
}
