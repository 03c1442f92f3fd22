import Foundation
import Testing

@testable import FlowLanguage
import FlowRuntime

/// Every script in Scripts/ (one per operator family, plus the contract's
/// examples verbatim) passes all its test blocks.
@Suite struct ScriptTests {
    static var scripts: [String] { flowFiles(in: testsDirectory.appendingPathComponent("Scripts")) }

    @Test(arguments: scripts)
    func everyTestBlockPasses(_ name: String) throws {
        let path = testsDirectory.appendingPathComponent("Scripts").appendingPathComponent(name).path
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let result: (top: Program.Outcome, tests: [(String, Program.Outcome)], out: [String], err: [String])
        do {
            result = try runScript(source, path: "Scripts/" + name)
        } catch let list as DiagnosticList {
            Issue.record(Comment(rawValue: list.diagnostics.map(\.description).joined(separator: "\n")))
            return
        }
        #expect(!result.tests.isEmpty, "\(name) has no test blocks")
        #expect(result.top.passed, "\(result.top.failures.map(\.message)) \(result.top.errors)")
        for (test, outcome) in result.tests {
            let failures = outcome.failures.map { "\($0.location.map { "\($0)" } ?? ""):\n\($0.message)" }
            #expect(outcome.passed, "\(name) › \(test)\n\(failures.joined(separator: "\n"))\n\(outcome.errors)")
        }
    }

    @Test func everyOperatorOfTheRuntimeIsUsedByAScript() throws {
        let folder = testsDirectory.appendingPathComponent("Scripts")
        let text = try Self.scripts.map { try String(contentsOfFile: folder.appendingPathComponent($0).path, encoding: .utf8) }.joined()
        for spec in FlowRuntime.operatorTable.entries {
            let used = ([spec.name] + spec.aliasNames).contains { text.contains("\($0)(") || text.contains("\($0) {") }
            #expect(used, "no script uses \(spec.name)")
        }
    }
}
