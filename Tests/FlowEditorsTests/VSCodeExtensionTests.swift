import FlowTestSupport
import Foundation
import Testing

/// editors/vscode is an extension VS Code can load: its manifest names
/// files that are there, and every file it names reads as JSON.
@Suite struct VSCodeExtensionTests {
    static let folder = projectDirectory.appendingPathComponent("editors/vscode")

    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not a JSON object")
    }

    @Test func theManifestNamesFilesThatAreThere() throws {
        let manifest = try json("package.json")
        let contributes = try #require(manifest["contributes"] as? [String: Any])
        let languages = try #require(contributes["languages"] as? [[String: Any]])
        #expect(languages.first?["id"] as? String == "flow")
        #expect((languages.first?["extensions"] as? [String]) == [".flow"])
        var paths: [String] = []
        paths += languages.compactMap { $0["configuration"] as? String }
        let grammars = try #require(contributes["grammars"] as? [[String: Any]])
        paths += grammars.compactMap { $0["path"] as? String }
        paths += (contributes["snippets"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths.count == 4)
        for path in paths {
            _ = try json(path)
        }
        // Each grammar's scope is the one its file declares.
        for grammar in grammars {
            let file = try json(try #require(grammar["path"] as? String))
            #expect(file["scopeName"] as? String == grammar["scopeName"] as? String)
        }
        #expect(grammars.contains { ($0["injectTo"] as? [String]) == ["text.html.markdown"] })
        // The client that starts `flow lsp`.
        let main = try #require(manifest["main"] as? String)
        let client = try String(contentsOf: Self.folder.appendingPathComponent(main), encoding: .utf8)
        #expect(client.contains("args: ['lsp']"))
        #expect((manifest["dependencies"] as? [String: String])?["vscode-languageclient"] != nil)
    }

    /// vscode-languageclient 9 refuses to start in a VS Code older than
    /// 1.82 (its REQUIRED_VSCODE_VERSION): the extension must not claim to
    /// run in one, where it would load and then fail to start `flow lsp`.
    @Test func theManifestAsksForTheVSCodeItsClientNeeds() throws {
        let manifest = try json("package.json")
        let client = try #require((manifest["dependencies"] as? [String: String])?["vscode-languageclient"])
        let engine = try #require((manifest["engines"] as? [String: String])?["vscode"])
        func version(_ range: String) -> [Int] { range.drop { !$0.isNumber }.split(separator: ".").compactMap { Int($0) } }
        #expect(version(client).first == 9, "vscode-languageclient \(client): check the VS Code it requires, then change this test")
        #expect(version(engine).lexicographicallyPrecedes([1, 82]) == false, "engines.vscode \(engine) is older than vscode-languageclient 9's ^1.82.0")
    }

    @Test func theLanguageConfigurationsPatternsCompile() throws {
        let configuration = try json("language-configuration.json")
        let rules = try #require(configuration["indentationRules"] as? [String: String])
        let folding = try #require((configuration["folding"] as? [String: Any])?["markers"] as? [String: String])
        for pattern in Array(rules.values) + Array(folding.values) + [configuration["wordPattern"] as? String ?? ""] {
            #expect((try? NSRegularExpression(pattern: pattern)) != nil, "\(pattern) does not compile")
        }
        let increase = try NSRegularExpression(pattern: rules["increaseIndentPattern"]!)
        let line = "let a = source.map { # why"
        #expect(increase.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil)
    }

    @Test func everySnippetHasAPrefixAndABody() throws {
        let snippets = try json("snippets/flow.json")
        #expect(snippets.count >= 5)
        for (name, value) in snippets {
            let snippet = try #require(value as? [String: Any], "\(name)")
            #expect(snippet["prefix"] is String)
            #expect(snippet["body"] is String || snippet["body"] is [String])
        }
    }
}
