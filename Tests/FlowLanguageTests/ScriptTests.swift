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

    /// Every operator, and every other library's spelling of it, is run by
    /// a test in its family's script.
    @Test func everyOperatorAndEverySpellingIsUsedByItsFamilysScript() throws {
        let folder = testsDirectory.appendingPathComponent("Scripts")
        for family in OperatorSpec.Family.allCases {
            let text = try String(contentsOfFile: folder.appendingPathComponent("\(family.rawValue).flow").path, encoding: .utf8)
            func uses(_ name: String, label: String?) -> Bool {
                // `Observable.create` may be written `create`; generic
                // arguments may follow a type's name (`PublishSubject<Int>()`).
                let bare = name.split(separator: ".").last.map(String.init) ?? name
                return [name, bare].contains { name in
                    let escaped = NSRegularExpression.escapedPattern(for: name)
                    let call = label.map { "\\(\($0):" } ?? #"(\(|\s*\{)"#
                    return text.range(of: #"(?<!\w)"# + escaped + #"(<[^()]*>)?"# + call, options: .regularExpression) != nil
                }
            }
            for spec in family.operators {
                #expect(uses(spec.name, label: nil), "Scripts/\(family.rawValue).flow does not use \(spec.name)")
                for spelling in spec.aliases {
                    #expect(uses(spelling.name, label: spelling.label),
                            "Scripts/\(family.rawValue).flow does not use \(spelling) (\(spec.name))")
                }
            }
        }
    }
}
