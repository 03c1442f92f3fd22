import Foundation
import Testing

@testable import FlowLanguage
import FlowRuntime

/// This test folder, for reading its corpora.
let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let projectDirectory = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

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
func diagnostics(of source: String, path: String = "test.flow") -> String {
    do {
        _ = try Program(file: SourceFile(path: path, text: source), console: console(Captured()))
        return ""
    } catch let list as DiagnosticList {
        return list.diagnostics.map { $0.render(color: false) }.joined(separator: "\n")
    } catch {
        return "unexpected: \(error)"
    }
}

/// Compiles and runs a script in virtual time, with its tests.
func runScript(_ source: String, path: String = "test.flow") throws -> (top: Program.Outcome, tests: [(String, Program.Outcome)], out: [String], err: [String]) {
    let captured = Captured()
    let program = try Program(file: SourceFile(path: path, text: source), console: console(captured))
    let top = program.run(virtual: true)
    let tests = program.testNames.enumerated().map { ($0.element, program.runTest($0.offset)) }
    return (top, tests, captured.out, captured.err)
}

/// The `.flow` files of a folder, sorted.
func flowFiles(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".flow") }.sorted()
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
