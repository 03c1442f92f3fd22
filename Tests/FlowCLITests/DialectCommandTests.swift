import Foundation
import FlowTestSupport
import Testing

/// `--dialect`, and a script's imports choosing one, through the `flow` command.
@Suite struct DialectCommandTests {
    static let tapAndText = """
        let tap = cold("-t---t|")
        let text = cold("--a-b--|", a: "Buy milk", b: "Buy eggs")
        tap.withLatestFrom(text).sink { print($0) }

        """

    @Test func anImportChoosesTheDialect() throws {
        let plain = try CommandLineTests.script(Self.tapAndText)
        #expect(try CommandLineTests.flow(["run", plain]).out == "(\"t\", \"Buy eggs\")\n")
        let rx = try CommandLineTests.script("import RxSwift\nimport RxCocoa\n" + Self.tapAndText)
        #expect(try CommandLineTests.flow(["run", rx]).out == "Buy eggs\n")
    }

    @Test func theFlagOverridesTheImport() throws {
        let rx = try CommandLineTests.script("import RxSwift\n" + Self.tapAndText)
        #expect(try CommandLineTests.flow(["run", "--dialect", "rxjs", rx]).out == "[\"t\", \"Buy eggs\"]\n")
        #expect(try CommandLineTests.flow(["run", "--dialect", "flow", rx]).out == "(\"t\", \"Buy eggs\")\n")
        let empty = try CommandLineTests.script("cold(\"|\").first().sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })\n")
        #expect(try CommandLineTests.flow(["run", "--dialect", "Combine", empty]).out == "finished\n")
        #expect(try CommandLineTests.flow(["test", "--dialect", "Combine", empty]).status == 0)
    }

    /// The README's sample: the to-do example as RxSwift runs it, and as
    /// flow's own choice would.
    @Test func theReadmeSampleIsWhatFlowPrints() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let asRxSwift = try CommandLineTests.flow(["examples/todo-rxswift.flow"])
        #expect(asRxSwift.status == 0)
        #expect(readme.contains("$ flow examples/todo-rxswift.flow\n" + asRxSwift.out))
        let asFlow = try CommandLineTests.flow(["--dialect", "flow", "examples/todo-rxswift.flow"])
        #expect(asFlow.status == 1)
        let error = asFlow.err.split(separator: "\n").drop { !$0.hasPrefix("examples/") }.joined(separator: "\n")
        #expect(!error.isEmpty)
        #expect(readme.contains("$ flow --dialect flow examples/todo-rxswift.flow\n" + error + "\n"))
    }

    @Test func anUnknownDialectIsAUsageError() throws {
        let plain = try CommandLineTests.script(Self.tapAndText)
        let result = try CommandLineTests.flow(["run", "--dialect", "Rx", plain])
        #expect(result.status != 0)
        #expect(result.err.contains("--dialect"))
        #expect(result.err.contains("RxSwift"))
    }

    @Test func twoLibrariesInOneScriptIsALocatedError() throws {
        let both = try CommandLineTests.script("import Combine\nimport RxSwift\n" + Self.tapAndText)
        let result = try CommandLineTests.flow(["run", both])
        #expect(result.status == 3)
        #expect(result.err.contains(":2:8: error: this script already follows Combine (import on line 1)"))
        #expect(result.err.contains("help: keep one of the imports, or choose with flow run --dialect RxSwift"))
        // Foundation chooses nothing and mixes with anything.
        let fine = try CommandLineTests.script("import Foundation\nimport Combine\n" + Self.tapAndText)
        #expect(try CommandLineTests.flow(["run", fine]).status == 0)
    }
}
