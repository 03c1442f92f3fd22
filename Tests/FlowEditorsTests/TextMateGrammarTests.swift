import FlowEditors
import FlowLanguage
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// The editors' TextMate grammar: generated from the language's lists, and
/// read by a real TextMate engine as its golden fixtures say.
@Suite struct TextMateGrammarTests {
    static let syntaxes = projectDirectory.appendingPathComponent("editors/vscode/syntaxes")

    /// The grammar file is what the language's lists make; with
    /// FLOW_UPDATE_GOLDEN=1 it is rewritten.
    func expectGenerated(_ name: String, _ grammar: [String: Any]) throws {
        let generated = try TextMateGrammar.json(grammar)
        let url = Self.syntaxes.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(stored == generated,
                "editors/vscode/syntaxes/\(name) is not what the language's lists make: FLOW_UPDATE_GOLDEN=1 swift test --filter TextMateGrammarTests")
    }

    @Test func theGrammarIsGeneratedFromTheLanguage() throws {
        try expectGenerated("flow.tmLanguage.json", TextMateGrammar.grammar)
    }

    @Test func theMarkdownInjectionIsGenerated() throws {
        try expectGenerated("flow-markdown.tmLanguage.json", TextMateGrammar.markdownInjection)
    }

    @Test func everyOperatorSpellingFunctionAndWordIsInIt() throws {
        let json = try TextMateGrammar.json(TextMateGrammar.grammar)
        let operators = OperatorSpec.Family.allCases.flatMap(\.operators)
        #expect(operators.count > 100)
        for spec in operators {
            for name in [spec.name] + spec.aliasNames {
                #expect(json.contains("|\(name)|") || json.contains("(\(name)|") || json.contains("|\(name))"), "\(name) is not coloured")
            }
        }
        for word in LanguageWords.freeFunctions + LanguageWords.control + LanguageWords.declarations + LanguageWords.modifiers {
            #expect(json.contains(word), "\(word) is not coloured")
        }
        for module in ["http", "file", "pg", "csv", "log"] { #expect(json.contains("|\(module)|") || json.contains("(\(module)|") || json.contains("|\(module))")) }
    }

    /// Each word the grammar colours as a keyword is one the lexer, the
    /// parser or the compiler reads: the grammar cannot colour a word the
    /// language does not know.
    @Test func everyKeywordIsOneTheParserReads() throws {
        let language = projectDirectory.appendingPathComponent("Sources/FlowLanguage")
        var sources = ""
        let files = FileManager.default.enumerator(atPath: language.path)
        while let path = files?.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasSuffix("LanguageWords.swift") else { continue }
            sources += try String(contentsOf: language.appendingPathComponent(path), encoding: .utf8)
        }
        let words = LanguageWords.control + LanguageWords.declarations + LanguageWords.modifiers + LanguageWords.constants
            + LanguageWords.selfWords + LanguageWords.typeOperators + LanguageWords.lexerKeywords
        for word in Set(words) {
            #expect(sources.contains("\"\(word)\"") || sources.contains("`\(word)`"),
                    "the parser does not read \(word)")
        }
        let lexed = SourceTokens(SourceFile(path: "k", text: LanguageWords.lexerKeywords.joined(separator: " "))).tokens
        #expect(lexed.dropLast().allSatisfy { if case .keyword = $0.kind { true } else { false } })
    }

    /// The other way round: each word the parser reads by its spelling
    /// where Swift does (`isWord("didSet")`, a contextual keyword, no token
    /// of the lexer's) is one the grammar colours, so a word the parser
    /// learns cannot be left plain in the editor.
    @Test func everyContextualWordTheParserReadsIsColoured() throws {
        let language = projectDirectory.appendingPathComponent("Sources/FlowLanguage")
        var read: Set<String> = []
        let files = FileManager.default.enumerator(atPath: language.path)
        while let path = files?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let source = try String(contentsOf: language.appendingPathComponent(path), encoding: .utf8)
            for match in source.matches(of: /isWord\("([A-Za-z]+)"/) { read.insert(String(match.1)) }
        }
        #expect(read.contains("willSet"), "the parser's contextual words were not found")
        let coloured = Set(LanguageWords.control + LanguageWords.declarations + LanguageWords.modifiers)
        for word in read.sorted() {
            #expect(coloured.contains(word), "the parser reads \(word), which the grammar does not colour: add it to LanguageWords")
        }
    }

    /// The Python engine's virtualenv, which .ci/run makes.
    static var python: String? {
        if let given = ProcessInfo.processInfo.environment["FLOW_GRAMMAR_PYTHON"] { return given }
        let venv = projectDirectory.appendingPathComponent(".build/editors-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    @Test(.enabled(if: python != nil,
                   "no textmate-grammar-python: .ci/run makes .build/editors-venv (python3 -m venv, pip install textmate-grammar-python)"))
    func aTextMateEngineReadsTheFixturesAsTheirGoldenScopesSay() throws {
        let script = projectDirectory.appendingPathComponent("editors/tests/grammar_test.py").path
        let update = ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" ? ["--update"] : []
        let result = try FlowProcess.run([script] + update, binary: URL(fileURLWithPath: Self.python!), timeout: 600)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains(" 0 problems"), "\(result.out)")
    }
}
