import FlowFormat
import FlowIO
import FlowLanguage
import FlowTestSupport
import Foundation
import Testing

/// The formatter's promises, proved on every `.flow` file of the
/// repository: the examples, the test corpora, the benchmarks' scripts.
@Suite struct RepositoryScriptTests {
    /// Every `.flow` file under the repository, relative to it (outside
    /// hidden folders and the build folder).
    static let scripts: [String] = {
        var found: [String] = []
        let root = projectDirectory.path
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".") || path.contains("/.") { continue }
            if path.hasSuffix(".flow") { found.append(path) }
        }
        return found.sorted()
    }()

    /// The scripts left unformatted, each with why (UnformattedScripts.txt):
    /// `flow fmt --check` checks all the others.
    static let unformatted: [String: String] = {
        let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UnformattedScripts.txt")
        var reasons: [String: String] = [:]
        for line in ((try? String(contentsOf: list, encoding: .utf8)) ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            reasons[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return reasons
    }()

    /// The scripts kept formatted.
    static var formatted: [String] { scripts.filter { unformatted[$0] == nil } }

    /// The modules `flow fmt` knows, as the command passes them.
    static let modules = Set(IOModules.unrestricted.map(\.name))

    static func read(_ path: String) throws -> SourceFile {
        SourceFile(path: path, text: try String(contentsOf: projectDirectory.appendingPathComponent(path), encoding: .utf8))
    }

    @Test func everyCorpusIsHere() {
        for folder in ["examples/", "Tests/FlowLanguageTests/Scripts/", "Tests/FlowLanguageTests/Diagnostics/",
                       "Tests/FlowLanguageTests/CrashCorpus/", "Tests/FlowLanguageTests/RuntimeErrors/", "Tests/FlowCLITests/Class/",
                       "Tests/FlowLanguageTests/Dialects/", "Benchmarks/scripts/"] {
            #expect(Self.scripts.contains { $0.hasPrefix(folder) }, "no scripts in \(folder)")
        }
    }

    @Test(arguments: scripts)
    func formattingKeepsTheScript(_ path: String) throws {
        let file = try Self.read(path)
        switch SourceFormatter.format(file, modules: Self.modules) {
        case .syntaxErrors:
            // Broken on purpose (the diagnostics corpus): left as it is.
            #expect(SyntaxFingerprint.of(file) == nil, "\(path) parses, yet was not formatted")
        case .refused(let reason):
            Issue.record("\(path): \(reason)")
        case .keptAsWritten:
            #expect(file.text.contains(SourceFormatter.offSwitch))
        case .formatted(let once):
            let formatted = SourceFile(path: path, text: once)
            // A fixed point.
            #expect(SourceFormatter.formatted(once, path: path, modules: Self.modules) == once, "\(path): formatting twice changes it again")
            // The same tree.
            #expect(SyntaxFingerprint.of(formatted) == SyntaxFingerprint.of(file), "\(path): the tree changed")
            // Every comment once, in order, as written.
            let comments = SourceFormatter.comments(in: file)
            #expect(SourceFormatter.comments(in: formatted) == comments, "\(path): comments changed")
            for comment in Set(comments) {
                #expect(once.components(separatedBy: comment).count == file.text.components(separatedBy: comment).count,
                        "\(path): \(comment) is not there as often")
            }
            // Every line of code within the width, unless one token or string makes it longer.
            #expect(!once.hasSuffix("\n\n") && once.hasSuffix("\n"))
            #expect(!once.split(separator: "\n").contains { $0.last == " " }, "\(path): a line ends with a blank")
        }
    }

    @Test func theRepositorysOwnScriptsAreFormatted() throws {
        #expect(Self.formatted.count > Self.unformatted.count * 4, "\(Self.formatted.count) formatted, \(Self.unformatted.count) not")
        let result = try FlowProcess.run(["fmt", "--check"] + Self.formatted, in: projectDirectory)
        #expect(result.status == 0, "run swift run flow fmt on them, or say why not in UnformattedScripts.txt:\n\(result.out)\(result.err)")
        #expect(result.out.isEmpty)
    }

    /// Each script left unformatted is there, says why, and still needs to
    /// be left: one that "does not parse" has syntax errors, any other
    /// would be changed by formatting.
    @Test func everyScriptLeftUnformattedSaysWhyAndStillNeedsTo() throws {
        #expect(!Self.unformatted.isEmpty, "UnformattedScripts.txt was not read")
        for (path, reason) in Self.unformatted.sorted(by: { $0.key < $1.key }) {
            guard Self.scripts.contains(path) else {
                Issue.record("\(path) is listed in UnformattedScripts.txt but is not in the repository")
                continue
            }
            #expect(reason.count > 20, "\(path): say precisely why it stays unformatted")
            let file = try Self.read(path)
            // As written on disk, line endings and all (a SourceFile reads CR as LF).
            let written = try String(contentsOf: projectDirectory.appendingPathComponent(path), encoding: .utf8)
            switch SourceFormatter.format(file, modules: Self.modules) {
            case .syntaxErrors:
                #expect(reason.hasPrefix("does not parse"), "\(path) does not parse; its reason should say so first")
            case .formatted(let text) where text != written:
                #expect(!reason.hasPrefix("does not parse"), "\(path) parses")
            default:
                Issue.record("\(path) is formatted already: remove it from UnformattedScripts.txt")
            }
        }
    }

    /// `flow test` reports the same tests, results and output for each
    /// folder of scripts with tests, laid out as written and formatted:
    /// those that pass, those that fail or do not compile on purpose (the
    /// diagnostics and runtime-error corpora), the editors' fixture. Left
    /// out: the class's students, whose scripts exhaust memory and time on
    /// purpose, are `flow grade`'s to run, and the crash corpus, whose
    /// hostile scripts take minutes to be stopped.
    @Test(arguments: ["examples", "Tests/FlowLanguageTests/Scripts", "Tests/FlowLanguageTests/Dialects", "Tests/FlowLanguageTests/Diagnostics",
                      "Tests/FlowLanguageTests/RuntimeErrors", "editors/tests/fixtures"])
    func testResultsAreTheSameFormatted(_ folder: String) throws {
        let work = URL(fileURLWithPath: temporaryPath("fmt-tests"))
        defer { try? FileManager.default.removeItem(at: work) }
        var reports: [[String]] = []
        for formatted in [false, true] {
            let root = work.appendingPathComponent(formatted ? "formatted" : "original")
            let copy = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: projectDirectory.appendingPathComponent(folder), to: copy)
            if formatted {
                for path in Self.scripts where path.hasPrefix(folder + "/") {
                    guard let text = SourceFormatter.formatted(try Self.read(path).text, path: path, modules: Self.modules) else { continue }
                    try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
                }
            }
            let result = try FlowProcess.run(["test", "--format", "json", folder], in: root, timeout: 600)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.err)")
            let tests = try #require(report["tests"] as? [[String: Any]])
            reports.append(tests.map { test in
                // Where a failure is, and the line it shows, move with the layout.
                let details = (test["details"] as? String ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { $0.range(of: #"^ +[0-9]* \|"#, options: .regularExpression) == nil }
                    .joined(separator: "\n")
                    .replacingOccurrences(of: #":[0-9]+:[0-9]+"#, with: ":L:C", options: .regularExpression)
                return "\(test["file"] ?? "") \(test["name"] ?? "") \(test["status"] ?? "")\n\(details)\n\(test["output"] ?? "")"
            })
        }
        #expect(!reports[0].isEmpty)
        #expect(reports[0] == reports[1])
    }
}
