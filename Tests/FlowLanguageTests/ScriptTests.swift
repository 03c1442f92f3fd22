import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage
import FlowLive
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

    /// Each dialect's file runs the points where the libraries disagree
    /// under its import; flow.flow runs them without one.
    static var dialects: [String] { flowFiles(in: testsDirectory.appendingPathComponent("Dialects")) }

    @Test(arguments: dialects)
    func everyDialectsTestBlockPasses(_ name: String) throws {
        let path = testsDirectory.appendingPathComponent("Dialects").appendingPathComponent(name).path
        let result = try runScript(try String(contentsOfFile: path, encoding: .utf8), path: "Dialects/" + name)
        #expect(result.tests.count >= 4, "\(name) has too few test blocks")
        for (test, outcome) in result.tests {
            let failures = outcome.failures.map { "\($0.location.map { "\($0)" } ?? ""):\n\($0.message)" }
            #expect(outcome.passed, "\(name) › \(test)\n\(failures.joined(separator: "\n"))\n\(outcome.errors)")
        }
    }

    @Test func everyDialectHasItsFile() {
        for dialect in Dialect.allCases {
            #expect(Self.dialects.contains(dialect.rawValue.lowercased() + ".flow"), "no Dialects/\(dialect.rawValue.lowercased()).flow")
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

/// A live run stopped from outside (the page's Stop, through its
/// `LiveRunRemote`) while its loop is busy, so the hop that cancels the run
/// cannot run: what keeps the loop busy looks at the request and gives the
/// loop back, and the statements after it do not start. The stop is asked
/// from the console, when the busy statement prints, so it always comes
/// while that statement runs.
@Suite struct BusyLiveRunTests {
    static let busyStatements = [
        "range(0, 9223372036854775807).sink { if $0 == 0 { print(\"started\") } }",
        "just(1).repeat().sink { _ in if !printed { print(\"started\") }; printed = true }",
        "while true { if !printed { print(\"started\") }; printed = true }",
    ]

    @Test(arguments: busyStatements)
    func theRemotesStopEndsABusyRun(_ busy: String) throws {
        let remote = LiveRunRemote()
        let captured = Captured()
        let console = Console(out: { line in
            captured.out.append(line)
            if line == "started" { remote.stop() }
        }, err: { captured.err.append($0) }, color: false)
        let text = "var printed = false\n" + busy + "\nprint(\"not reached\")\n"
            + "test \"runs after a stop\" {\n  expect(just(1)).toBe(\"(a|)\", a: 2)\n}\n"
        let program = try Program(file: SourceFile(path: "busy.flow", text: text), console: console)
        program.remote = remote
        // On a thread of its own: if the busy statement never gave the loop
        // back, the test fails instead of hanging (the thread spins on).
        let run = BackgroundRun(program)
        guard run.done.wait(timeout: .now() + 30) == .success, let outcome = run.outcome else {
            Issue.record("the run did not stop within 30 s of being asked")
            return
        }
        #expect(outcome.interrupted == .interrupt)
        #expect(captured.out == ["started"])
        // The stop was the run's: a test block after it runs in full (and
        // fails here, as written), as the playground runs them after a stop.
        #expect(!program.runTest(0).passed)
        if busy.hasPrefix("while") {
            #expect(outcome.errors.map(\.message) == ["loop stopped by the page's Stop"])
            #expect(outcome.errors.first?.location?.line == 2)
        }
    }
}

/// A program's live run on a thread of its own; `outcome` is set before
/// `done` is signalled.
private final class BackgroundRun: @unchecked Sendable {
    let program: Program
    var outcome: Program.Outcome?
    let done = DispatchSemaphore(value: 0)

    init(_ program: Program) {
        self.program = program
        Thread { [self] in
            outcome = self.program.run(on: .live(LiveWorld()))
            done.signal()
        }.start()
    }
}
