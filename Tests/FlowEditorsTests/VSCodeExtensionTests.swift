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

    /// What VS Code's extension scanner asks of a folder's manifest before
    /// it loads it (its `extensionValidator`): a publisher, name and version
    /// (semver), an `engines.vscode` naming at least its major version,
    /// activation events and a `main` together, the `main` inside the
    /// folder; and what this one needs besides: it activates on the
    /// language it contributes, and its `main` is there.
    @Test func theFolderIsALayoutVSCodeLoads() throws {
        let manifest = try json("package.json")
        #expect(manifest["publisher"] is String)
        #expect(manifest["name"] is String)
        let version = try #require(manifest["version"] as? String)
        #expect(version.range(of: #"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$"#, options: .regularExpression) != nil, "\(version) is no semver")
        let engine = try #require((manifest["engines"] as? [String: String])?["vscode"])
        #expect(engine.range(of: #"^\^?\d+\.(\d+|x)\.(\d+|x)$"#, options: .regularExpression) != nil && !engine.hasPrefix("^0"), "engines.vscode \(engine)")
        let events = try #require(manifest["activationEvents"] as? [String])
        let main = try #require(manifest["main"] as? String)
        let mainFile = Self.folder.appendingPathComponent(main).standardizedFileURL
        #expect(mainFile.path.hasPrefix(Self.folder.standardizedFileURL.path + "/"), "main \(main) is outside the folder")
        #expect(FileManager.default.fileExists(atPath: mainFile.path))
        let languages = (manifest["contributes"] as? [String: Any])?["languages"] as? [[String: Any]] ?? []
        #expect(events == languages.compactMap { $0["id"] as? String }.map { "onLanguage:" + $0 })
    }

    static let node = ["/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The extension's `main` loaded by Node as VS Code loads it, with
    /// `vscode` and vscode-languageclient stood in for
    /// (editors/tests/vscode_activation.js): it exports activate and
    /// deactivate, reads the `flow.path` setting, and gives the client the
    /// command `flow lsp`, the language `flow` and `hoverImages`; started
    /// with those, the server answers initialize, publishes a diagnostic of
    /// a file of that language, and exits 0 after shutdown and exit.
    @Test(.enabled(if: node != nil, "Node is not installed here (.ci/run installs Debian's nodejs)"))
    func itsClientStartsFlowLspWithWhatItGivesTheLanguageClient() throws {
        let harness = projectDirectory.appendingPathComponent("editors/tests/vscode_activation.js").path
        let result = try FlowProcess.run([harness], binary: URL(fileURLWithPath: Self.node!), timeout: 120,
                                         environment: ["FLOW_BINARY": FlowProcess.binary.path])
        #expect(result.status == 0, "\(result.err)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)")
        #expect(seen["exports"] as? [String] == ["activate", "deactivate"])
        #expect(seen["configurationRead"] as? [String] == ["flow.path"])
        #expect(seen["command"] as? String == FlowProcess.binary.path)
        #expect(seen["args"] as? [String] == ["lsp"])
        #expect((seen["documentSelector"] as? [[String: String]])?.first?["language"] == "flow")
        #expect((seen["initializationOptions"] as? [String: Bool])?["hoverImages"] == true)
        #expect((seen["serverInfo"] as? [String: String])?["name"] == "flow lsp")
        #expect(seen["hoverProvider"] as? Bool == true)
        #expect(seen["diagnostics"] as? [String] == ["unknown-member: unknown method 'mapp'"])
        #expect(seen["serverExit"] as? Int == 0)
        #expect(seen["stopped"] as? Bool == true, "deactivate stops the client")
    }

    /// The README installs the package `vsce package` makes of this folder,
    /// named by the manifest's name and version.
    @Test func theReadmeInstallsThePackageThisManifestMakes() throws {
        let manifest = try json("package.json")
        let package = "\(manifest["name"] as? String ?? "")-\(manifest["version"] as? String ?? "").vsix"
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("code --install-extension editors/vscode/\(package)"), "the README does not install \(package)")
        #expect(readme.contains("vsce package"))
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
