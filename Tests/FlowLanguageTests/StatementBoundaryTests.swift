@testable import FlowLanguage
import Testing

/// Where a statement ends is decided in one place, the lexer: a script, the
/// outline a grader reads from a file that may not compile, and the REPL's
/// next line all take its answer, so they cannot disagree.
@Suite struct StatementBoundaryTests {
    static let lineStarts = [
        ".map { $0 }", "?.count", "?? 0", "&& ok", "|| done", "-> Int", ": Int", "x", ".5", "- 1", "$0",
    ]

    /// A line the REPL joins to the input before it is one a script joins to
    /// the statement before it; only a line starting with `:` differs (a
    /// REPL command there).
    @Test(arguments: lineStarts)
    func theREPLsNextLineFollowsTheScriptsRule(_ start: String) {
        let file = SourceFile(path: "s.flow", text: "let a = b\n  \(start)\n")
        let joinedInScript = file.topLevelStatements.count == 1
        let joinedInREPL = InputCompleteness.continuesChain("  " + start)
        #expect(joinedInREPL == (joinedInScript && !start.hasPrefix(":")), "\(start)")
    }

    @Test func theOutlineSplitsAtLineBreaksAndSemicolonsOutsideBrackets() {
        let file = SourceFile(path: "s.flow", text: "let a = [1,\n 2]; let b = 3\nprint(a)\n  .count\nfunc f() {\n}\n")
        #expect(file.topLevelStatements.map { file.text(of: $0.span) }
                == ["let a = [1,\n 2]", "let b = 3", "print(a)\n  .count", "func f() {\n}"])
    }

    /// A grade reads a test's points from its tokens (the file may not
    /// compile); a run reads them while parsing: one rule gives both.
    @Test func aTestsPointsAreReadOneWayForAGradeAndForARun() {
        let text = """
            test "a" (points: 3) { }
            test "b" { }
            test "c" (points: 0) {
            }
            test "d" (points: x) { }
            """
        let file = SourceFile(path: "s.flow", text: text)
        var parser = Parser(file: file)
        _ = parser.parseScript()
        #expect(file.declaredTests.map(\.points) == [3, 1, 0, 1])
        for test in file.declaredTests where test.name != "d" {
            #expect(parser.testPoints[test.start] ?? 1 == test.points, "\(test.name)")
        }
    }
}
