import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage
import FlowMarbles
import FlowRuntime

/// Operators documented by the engine: every operator has an example that
/// runs, and the generated docs/operators.md is current.
@Suite struct OperatorDocsTests {
    static var names: [String] { operatorTable.entries.map(\.name) }

    @Test(arguments: names)
    func everyOperatorHasAnExampleThatRunsAndUsesIt(_ name: String) throws {
        let spec = try #require(operatorTable.lookup(name))
        let example = try #require(spec.example, "\(name) has no example")
        #expect(([spec.name] + spec.aliasNames).contains { example.contains($0) }, "the example of \(name) does not use it")
        let diagram = OperatorDocs.diagram(for: spec)
        #expect(!diagram.contains("error:"), "\(name):\n\(diagram)")
        #expect(diagram.split(separator: "\n").contains { $0.contains("|") || $0.contains("#") || $0.hasPrefix("never") },
                "\(name) draws no finished lane:\n\(diagram)")
    }

    @Test(arguments: OperatorDocs.languageEntries.keys.sorted())
    func everyLanguageEntryHasAnExampleThatPasses(_ name: String) throws {
        let entry = try #require(OperatorDocs.languageEntries[name])
        let example = try #require(entry.components(separatedBy: "\nexample:\n").last)
        let code = example.split(separator: "\n").map { String($0.dropFirst(2)) }.joined(separator: "\n")
        // An example that is not a test block runs as one.
        let source = code.hasPrefix("test ") ? code : "test \"example\" {\n\(code)\n}"
        let result = try runScript(source)
        #expect(result.tests.count == 1)
        for (_, outcome) in result.tests { #expect(outcome.passed, "\(name): \(outcome.failures) \(outcome.errors)") }
    }

    /// A course needs to know, for every operator, how RxSwift, Combine
    /// and RxJS write it and where they differ.
    @Test func everyOperatorSaysHowTheLibrariesDiffer() {
        for spec in operatorTable.entries {
            #expect(spec.differences?.isEmpty == false, "\(spec.name) has no note on RxSwift, Combine and RxJS")
        }
    }

    @Test func documentationIsCurrent() throws {
        let path = projectDirectory.appendingPathComponent("docs/operators.md").path
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(committed == OperatorDocs.markdown() + "\n",
                "docs/operators.md is stale: run swift run flow doc --markdown > docs/operators.md")
    }

}

/// A lane printed for a virtual-time run is valid marble input, and
/// `cold(lane, legend values)` reproduces the stream: checked on every
/// operator's example.
@Suite struct LaneRoundTripTests {
    @Test(arguments: OperatorDocsTests.names)
    func lanesReadBackAsTheSameStream(_ name: String) throws {
        let spec = try #require(operatorTable.lookup(name))
        let outcome = try #require(OperatorDocs.run(spec), "the example of \(name) does not run")
        #expect(!outcome.diagrams.isEmpty, "\(name) draws nothing")
        for diagram in outcome.diagrams { try Self.expectLanesReadBack(diagram, "\(name)") }
        let traced = try #require(OperatorDocs.run(spec, tracing: true))
        for diagram in traced.diagrams { try Self.expectLanesReadBack(diagram, "\(name) traced") }
    }

    /// Every lane drawn, read back as a user would read it, is the events
    /// it was drawn from.
    static func expectLanesReadBack(_ diagram: LaneDiagram.Rendered, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for index in diagram.marbles.indices {
            guard let parsed = try diagram.readBack(index) else { continue }
            let difference = MarbleComparison.compare(expected: parsed, actual: diagram.events[index], errorGiven: true)
            #expect(difference == nil, "\(what): lane \(diagram.marbles[index]) does not read back:\n\(difference.map(\.description) ?? "")",
                    sourceLocation: sourceLocation)
        }
    }
}

/// `flow doc` knows every name the language accepts: its operators and
/// their aliases, its functions, its subscribing methods, the libraries'
/// type names it reads, and its own words.
@Suite struct DocCoverageTests {
    static var names: [String] {
        let operators = operatorTable.entries.flatMap { [$0.name] + $0.aliasNames }.filter { !$0.contains(".") }
        return operators + Array(FreeFunctions.names) + Array(Builtins.subscribingLabels.keys) + Array(SwiftVocabulary.namespaces)
            + Array(OperatorDocs.languageEntries.keys)
    }

    @Test func everyNameTheLanguageAcceptsHasAnEntry() {
        var missing: [String] = []
        for name in Set(Self.names).sorted() {
            if case .failure = OperatorDocs.text(forName: name, modules: []) { missing.append(name) }
        }
        #expect(missing.isEmpty, "flow doc does not know \(missing.joined(separator: ", "))")
    }
}
