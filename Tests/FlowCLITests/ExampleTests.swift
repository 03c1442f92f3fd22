import Foundation
import FlowTestSupport
import Testing

/// Every script in examples/ runs, and its tests pass, through the `flow` command.
@Suite struct ExampleScriptTests {
    static var examples: [String] { flowFiles(in: projectDirectory.appendingPathComponent("examples")) }

    @Test(arguments: examples)
    func exampleTestsPass(_ name: String) throws {
        let result = try CommandLineTests.flow(["test", "examples/" + name])
        #expect(result.status == 0, "\(result.out)\n\(result.err)")
        #expect(result.out.contains(" passed, 0 failed"))
        #expect(!result.out.contains(" 0 passed"))
    }

    @Test(arguments: examples)
    func exampleRunsAndDrawsItsLanes(_ name: String) throws {
        let result = try CommandLineTests.flow(["run", "--virtual", "--marbles", "examples/" + name])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        #expect(!result.out.isEmpty)
    }

    /// The README's view-model sample is what the example prints.
    @Test func theReadmeViewModelSampleIsWhatFlowPrints() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let result = try CommandLineTests.flow(["examples/checkout-viewmodel.flow"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("total: 1201 EUR"))
        #expect(readme.contains("$ flow examples/checkout-viewmodel.flow\n" + result.out))
    }

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 7)
    }
}
