import Foundation
import FlowTestSupport
import Testing

@testable import FlowLanguage

/// Every malformed script in Diagnostics/ must produce exactly the
/// messages in its .expected file, as `flow check` shows them (each with
/// its kind, `[unknown-name]`). Set FLOW_UPDATE_GOLDEN=1 to rewrite them
/// after a deliberate change, and review the diff.
@Suite struct DiagnosticGoldenTests {
    static let folder = testsDirectory.appendingPathComponent("Diagnostics")
    static var cases: [String] { flowFiles(in: folder) }

    @Test(arguments: cases)
    func diagnosticsMatchTheGoldenFile(_ name: String) throws {
        let source = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let actual = diagnostics(of: source, path: "Diagnostics/" + name, showingCodes: true) + "\n"
        #expect(!actual.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "a malformed script must be reported")
        try expectGolden(actual, for: name, in: Self.folder)
    }

    /// The malformed scripts without a func or a type: the front end
    /// compiles each of their statements as soon as it is parsed.
    static var streamedCases: [String] {
        cases.filter { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return !SourceFile(path: name, text: text).mayDeclareFunctionsOrTypes
        }
    }

    /// Which files are parsed whole before compiling: those with one of the
    /// words that declare a func or a type, as a word.
    @Test func aFuncOrATypeIsFoundAsAWord() {
        func declares(_ text: String) -> Bool { SourceFile(path: "t.flow", text: text).mayDeclareFunctionsOrTypes }
        #expect(declares("func twice(x: Int) -> Int { x * 2 }"))
        #expect(declares("let a = 1\nstruct Point { var x = 0 }"))
        #expect(declares("enum Currency: String { case usd }"))
        #expect(declares("# a comment about a func"))
        #expect(!declares("[1, 2].enumerated().map { $0.offset }"))
        #expect(!declares("let my_func = { $0 }\nlet structure = 1\nlet funcs = 2"))
        #expect(!declares(""))
    }

    /// Compiling each statement as it is parsed must report what compiling
    /// after the whole file is parsed does (as files with funcs are), in
    /// the same words and places.
    @Test(arguments: streamedCases)
    func compilingWhileParsingReportsWhatCompilingAfterParsingDoes(_ name: String) throws {
        let file = SourceFile(path: name, text: try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8))
        func problems(_ order: FrontEnd.Order) -> String {
            let environment = Environment(file: file, output: { _ in }, run: .virtual(name: name), arguments: [], modules: [])
            do {
                _ = try FrontEnd.compile(file, in: Scope(kind: .script, parent: nil), environment: environment, order: order)
                return ""
            } catch {
                return (error as? DiagnosticList)?.diagnostics.map { $0.render(color: false) }.joined(separator: "\n") ?? "\(error)"
            }
        }
        let streamed = problems(.asParsed)
        #expect(!streamed.isEmpty)
        #expect(streamed == problems(.afterParsing))
    }
}

/// Input no script writer means to write: none may crash, hang, or pass silently.
@Suite struct PathologicalInputTests {
    /// The deadline catches a hang, not slowness (Benchmarks/ measures
    /// that): generous, since a loaded machine takes many times longer.
    func expectReported(_ source: String, containing text: String, within seconds: Double = 120) {
        let start = Date()
        let output = diagnostics(of: source)
        #expect(output.contains(text), "\(output.prefix(2000))")
        #expect(Date().timeIntervalSince(start) < seconds)
    }

    @Test func deeplyNestedBrackets() {
        expectReported(String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
                       containing: "expression nested too deeply")
        expectReported("let a = " + String(repeating: "[", count: 50_000), containing: "nested too deeply")
        expectReported("let f = " + String(repeating: "{ ", count: 50_000), containing: "nested too deeply")
        expectReported("let x = " + String(repeating: "-", count: 100_000) + "1", containing: "nested too deeply")
    }

    @Test func binaryBytes() {
        var bytes: [UInt8] = Array("let a = 1\n".utf8)
        for i in 0..<2000 { bytes.append(UInt8((i * 7919) % 256)) }
        let source = String(decoding: bytes, as: UTF8.self)
        expectReported(source, containing: "error:")
        expectReported("let a = 1\u{0}\u{7}", containing: "unexpected character U+0")
    }

    @Test func aOneMegabyteLine() {
        let line = "let a = just(1)" + String(repeating: ".map { $0 + 1 }", count: 70_000) + " $"
        #expect(line.utf8.count > 1_000_000)
        let output = diagnostics(of: line)
        #expect(output.contains("expression too long: more than 10000 calls"))
        // The excerpt is cut around the culprit, not a megabyte wide.
        #expect(output.count < 2000)
        let long = String(repeating: "x", count: 1_100_000)
        expectReported("let s = \"" + long + "\"\nlet t = zz", containing: "unknown name 'zz'")
    }

    @Test func manyLinesAndManyErrors() {
        let source = (0..<20_000).map { "let v\($0) = nope\($0)" }.joined(separator: "\n")
        let output = diagnostics(of: source)
        // Every one is found; the first hundred are shown, the rest counted.
        #expect(output.components(separatedBy: "unknown name").count - 1 == Diagnostic.cap)
        #expect(output.contains("error: and 19900 more errors after this point, not shown: fix these first"))
    }

    @Test func randomInputNeverCrashes() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        let alphabet = Array("abc xyz$0123 (){}[].,:?!+-*/%<>=&|\"\\#\n'_ letinreturntestjustmap{ $0 }ms")
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<200 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                text.append(alphabet[Int(seed >> 33) % alphabet.count])
            }
            _ = diagnostics(of: text)
        }
    }

    @Test func notUTF8() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-binary-\(UUID().uuidString).flow").path
        try Data([0x6C, 0x65, 0x74, 0x20, 0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try SourceFile.load(path: path)
            Issue.record("a file that is not UTF-8 must be refused")
        } catch let list as DiagnosticList {
            #expect(list.diagnostics[0].message.contains("not UTF-8 text (invalid byte 0xFF)"))
        }
    }
}

/// Faults while a script runs (inside closures, or building the graph):
/// each is a stream error shown with its location, the way compile errors
/// are. Golden files as above.
@Suite struct RuntimeErrorGoldenTests {
    static let folder = testsDirectory.appendingPathComponent("RuntimeErrors")
    static var cases: [String] { flowFiles(in: folder) }

    @Test(arguments: cases)
    func runtimeErrorsMatchTheGoldenFile(_ name: String) throws {
        let source = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let result = try runScript(source, path: "RuntimeErrors/" + name)
        #expect(!result.top.passed, "a fault must fail the run")
        let actual = (result.out.map { "out: " + $0 } + result.err).joined(separator: "\n") + "\n"
        try expectGolden(actual, for: name, in: Self.folder)
    }
}
