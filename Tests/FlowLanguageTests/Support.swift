import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage
import FlowRuntime

/// This test folder, for reading its corpora.
let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// Output captured from a program.
final class Captured: @unchecked Sendable {
    // Written and read on the test's thread, or the live loop's thread
    // while the test waits for it.
    var out: [String] = []
    var err: [String] = []
}

func console(_ captured: Captured) -> Console {
    Console(out: { captured.out.append($0) }, err: { captured.err.append($0) }, color: false)
}

/// The diagnostics of a script, rendered as a user sees them, or "" when it compiles.
func diagnostics(of source: String, path: String = "test.flow", showingCodes: Bool = false) -> String {
    do {
        _ = try Program(file: SourceFile(path: path, text: source), console: console(Captured()))
        return ""
    } catch let list as DiagnosticList {
        return list.diagnostics.map { $0.render(color: false, showingCode: showingCodes) }.joined(separator: "\n")
    } catch {
        return "unexpected: \(error)"
    }
}

/// Compiles and runs a script in virtual time, with its tests.
func runScript(_ source: String, path: String = "test.flow") throws -> (top: Program.Outcome, tests: [(String, Program.Outcome)], out: [String], err: [String]) {
    let captured = Captured()
    let program = try Program(file: SourceFile(path: path, text: source), console: console(captured))
    let top = program.run(on: .virtual)
    let tests = program.testNames.enumerated().map { ($0.element, program.runTest($0.offset)) }
    return (top, tests, captured.out, captured.err)
}

/// A parameterised test over an empty corpus passes with no cases, so a
/// moved or emptied folder would silence its tests: each corpus the tests
/// read must hold scripts.
@Suite struct CorpusPresenceTests {
    static let corpora: [(folder: URL, atLeast: Int)] = [
        (testsDirectory.appendingPathComponent("Scripts"), 10),
        (testsDirectory.appendingPathComponent("Diagnostics"), 10),
        (testsDirectory.appendingPathComponent("RuntimeErrors"), 5),
        (testsDirectory.appendingPathComponent("CrashCorpus"), 10),
        (testsDirectory.appendingPathComponent("Dialects"), 4),
        (projectDirectory.appendingPathComponent("examples"), 5),
    ]

    @Test(arguments: corpora.indices)
    func corpusHoldsScripts(_ index: Int) {
        let (folder, atLeast) = Self.corpora[index]
        let count = flowFiles(in: folder).count
        #expect(count >= atLeast, "\(folder.path) holds \(count) .flow files; its tests expect at least \(atLeast)")
    }
}

/// Compares `actual` with the `.expected` file beside a corpus script, or
/// rewrites that file when FLOW_UPDATE_GOLDEN=1 (review the diff after).
func expectGolden(_ actual: String, for script: String, in folder: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let expectedURL = folder.appendingPathComponent(script.replacingOccurrences(of: ".flow", with: ".expected"))
    if ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        return
    }
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
    #expect(actual == expected, "\n--- expected\n\(expected)--- actual\n\(actual)", sourceLocation: sourceLocation)
}
