import FlowFormat
import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
import Foundation

/// The language server's core: JSON-RPC messages in, messages out, with
/// no I/O of its own, so a test drives it message by message
/// (`StdioTransport` connects it to standard input and output for
/// `flow lsp`). It never runs a script for real: diagnostics are
/// `flow check`'s, formatting is `flow fmt`'s, a name's type is the
/// compiler's (`Program.bindingTypes`), and so is the declaration a member
/// name means (`Program.memberUses`), hovers read the operator catalog,
/// and a marble binding's lane comes from a run in virtual time with no
/// module (no file, host or database reached).
public final class LanguageServer {
    public typealias Message = [String: Any]

    private enum State { case starting, running, shutDown }
    private var state = State.starting
    private var encoding = PositionEncoding.utf16
    /// The client takes completions as snippets, with placeholders.
    private var snippets = false
    /// The client shows a hover's markdown (else its plain text).
    private var markdownHovers = true
    /// The client asked for pictures in hovers (`hoverImages`) and shows
    /// markdown: an SVG drawn by the engine as a `data:` URI.
    private var hoverImages = false
    private var documents: [String: (text: String, version: Int)] = [:]
    /// Whether `exit` has come, and the process's status then: 0 after a
    /// `shutdown`, 1 without (as the protocol says).
    public private(set) var exitStatus: Int32?
    let modules = IOModules.unrestricted
    lazy var moduleNames = Set(modules.map(\.name))
    /// What `$/cancelRequest` stops, from whichever thread reads it.
    public let cancellation = RequestCancellation()
    /// Sends a message while a request is being computed (`$/progress` of a
    /// long hover); without it, no progress is reported.
    public var sendAtOnce: ((Message) -> Void)?
    /// The `workDoneToken` the request being computed carries.
    private var workDoneToken: Any?

    public init() {}

    // MARK: - Messages

    /// Handles one message; returns what to send (responses and
    /// notifications), in order.
    public func handle(_ message: Message) -> [Message] {
        let id = message["id"]
        guard let method = message["method"] as? String else {
            // A response to a request of ours: the server sends none.
            return []
        }
        let params = message["params"] as? [String: Any] ?? [:]
        let isRequest = id != nil && !(id is NSNull)
        if state == .starting, method != "initialize", method != "exit" {
            return isRequest ? [error(id, -32002, "the server is not initialized: send initialize first")] : []
        }
        if state == .shutDown, method != "exit" {
            return isRequest ? [error(id, -32600, "the server is shut down: only exit is accepted")] : []
        }
        switch method {
        case "initialize":
            guard state == .starting else { return [error(id, -32600, "initialize was sent twice")] }
            state = .running
            return [result(id, initialize(params))]
        case "initialized", "$/setTrace", "workspace/didChangeConfiguration":
            return []
        case "shutdown":
            state = .shutDown
            return [result(id, NSNull())]
        case "exit":
            exitStatus = state == .shutDown ? 0 : 1
            return []
        case "$/cancelRequest":
            // A request still waiting is cancelled where messages arrive
            // (`receive(batch:)`), one running by the thread that reads
            // them (`cancellation`); one already answered stays answered.
            return []
        case "textDocument/didOpen":
            guard let document = params["textDocument"] as? [String: Any], let uri = document["uri"] as? String,
                  let text = document["text"] as? String else { return [] }
            documents[uri] = (Self.normalised(text), document["version"] as? Int ?? 0)
            return [diagnostics(uri)]
        case "textDocument/didChange":
            guard let document = params["textDocument"] as? [String: Any], let uri = document["uri"] as? String,
                  let changes = params["contentChanges"] as? [[String: Any]], let text = changes.last?["text"] as? String else { return [] }
            documents[uri] = (Self.normalised(text), document["version"] as? Int ?? 0)
            return [diagnostics(uri)]
        case "textDocument/didClose":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String else { return [] }
            documents[uri] = nil
            facts[uri] = nil
            return [notification("textDocument/publishDiagnostics", ["uri": uri, "diagnostics": [Any]()])]
        case "textDocument/didSave":
            return []
        case "textDocument/formatting":
            return [respond(id, params) { self.formatting($0, $1) }]
        case "textDocument/codeAction":
            return [respond(id, params) { document, _ in self.codeActions(document, params) }]
        case "textDocument/hover":
            return [respond(id, params) { self.hover($0, at: $1) }]
        case "textDocument/definition":
            return [respond(id, params) { self.definition($0, at: $1) }]
        case "textDocument/references":
            let includeDeclaration = (params["context"] as? [String: Any])?["includeDeclaration"] as? Bool ?? true
            return [respond(id, params) { self.references($0, at: $1, includeDeclaration: includeDeclaration) }]
        case "textDocument/completion":
            return [respond(id, params) { self.completion($0, at: $1) }]
        case "textDocument/documentSymbol":
            return [respond(id, params) { document, _ in DocumentSymbols.of(document.file, positions: document.positions) }]
        default:
            if isRequest { return [error(id, -32601, "flow lsp has no method \(method)")] }
            return []
        }
    }

    /// A document as a request names it, with its text, file and positions.
    struct Document {
        let uri: String
        let file: SourceFile
        let positions: TextPositions
    }

    private func respond(_ id: Any?, _ params: [String: Any], _ body: (Document, Int?) -> Any) -> Message {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let document = documents[uri] else {
            return error(id, -32602, "the document is not open: send textDocument/didOpen first")
        }
        let positions = TextPositions(document.text, encoding: encoding)
        var offset: Int?
        if let position = params["position"] as? [String: Any], let line = position["line"] as? Int,
           let character = position["character"] as? Int {
            offset = positions.offset(line: line, character: character)
        }
        let file = SourceFile(path: Self.path(of: uri), text: document.text)
        guard let id, !(id is NSNull) else { return result(id, body(Document(uri: uri, file: file, positions: positions), offset)) }
        guard cancellation.begin(id) else { return cancelled(id) }
        workDoneToken = params["workDoneToken"]
        defer { workDoneToken = nil }
        let value = body(Document(uri: uri, file: file, positions: positions), offset)
        return cancellation.end() ? cancelled(id) : result(id, value)
    }

    /// The protocol's answer to a cancelled request: RequestCancelled.
    func cancelled(_ id: Any?) -> Message {
        error(id, -32800, "cancelled")
    }

    private func initialize(_ params: [String: Any]) -> Any {
        let offered = ((params["capabilities"] as? [String: Any])?["general"] as? [String: Any])?["positionEncodings"] as? [String] ?? []
        // UTF-16 unless the client offers another the server counts in too.
        encoding = offered.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
        let completion = ((params["capabilities"] as? [String: Any])?["textDocument"] as? [String: Any])?["completion"] as? [String: Any]
        snippets = (completion?["completionItem"] as? [String: Any])?["snippetSupport"] as? Bool ?? false
        let hover = ((params["capabilities"] as? [String: Any])?["textDocument"] as? [String: Any])?["hover"] as? [String: Any]
        // A client that names its formats and leaves markdown out gets plain
        // text; one that names none gets markdown, as most servers send.
        if let formats = hover?["contentFormat"] as? [String] { markdownHovers = formats.contains("markdown") }
        // Whether a client shows a markdown image the protocol cannot tell:
        // Neovim and Emacs show its source, a wall of base64, so pictures
        // are asked for (VS Code's extension does), not assumed.
        let asked = (params["initializationOptions"] as? [String: Any])?["hoverImages"] as? Bool ?? false
        hoverImages = asked && (hover?["contentFormat"] as? [String])?.contains("markdown") == true
        return [
            "capabilities": [
                "positionEncoding": encoding.rawValue,
                "textDocumentSync": ["openClose": true, "change": 1, "save": false],
                "hoverProvider": true,
                "definitionProvider": true,
                "referencesProvider": true,
                "completionProvider": ["triggerCharacters": ["."]],
                "documentFormattingProvider": true,
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
                "documentSymbolProvider": true,
            ] as [String: Any],
            "serverInfo": ["name": "flow lsp", "version": "0.1.0"],
        ]
    }

    // MARK: - Diagnostics

    /// What `flow check` finds in a document, each with the protocol's form of it.
    private func checked(_ uri: String, _ text: String, _ positions: TextPositions) -> [(diagnostic: Diagnostic, item: [String: Any])] {
        let file = SourceFile(path: Self.path(of: uri), text: text)
        let found: [Diagnostic]
        do {
            found = try Program.check(file, modules: modules)
        } catch let list as DiagnosticList {
            found = list.diagnostics
        } catch {
            found = []
        }
        return found.map { diagnostic in
            var item: [String: Any] = [
                "range": positions.range(diagnostic.span),
                "severity": diagnostic.severity == .error ? 1 : 2,
                "source": "flow",
                "message": diagnostic.message,
            ]
            if let code = diagnostic.code { item["code"] = code.rawValue }
            if let help = diagnostic.help {
                item["relatedInformation"] = [["location": ["uri": uri, "range": positions.range(diagnostic.span)], "message": help]]
            }
            return (diagnostic, item)
        }
    }

    private func diagnostics(_ uri: String) -> Message {
        guard let document = documents[uri] else { return [:] }
        let positions = TextPositions(document.text, encoding: encoding)
        let items = checked(uri, document.text, positions).map(\.item)
        return notification("textDocument/publishDiagnostics", ["uri": uri, "version": document.version, "diagnostics": items])
    }

    // MARK: - Code actions

    /// "did you mean 'debounce'?" as a quick fix for each name it offers,
    /// on the diagnostics in the requested range. The edit replaces the
    /// name as written, not the diagnostic's whole range, which may hold
    /// more (`.ust` with its dot) or something else (the value after a
    /// misspelt label): a fix that cannot find the name offers nothing.
    private func codeActions(_ document: Document, _ params: [String: Any]) -> Any {
        var lines: (Int, Int) = (0, Int.max)
        if let range = params["range"] as? [String: Any], let start = range["start"] as? [String: Any], let end = range["end"] as? [String: Any] {
            lines = (start["line"] as? Int ?? 0, end["line"] as? Int ?? Int.max)
        }
        var actions: [[String: Any]] = []
        for (diagnostic, item) in checked(document.uri, document.file.text, document.positions) {
            let line = document.positions.position(of: diagnostic.span.start).line
            guard line >= lines.0, line <= lines.1, let help = diagnostic.help, let asked = help.range(of: "did you mean ") else { continue }
            let names = Self.quoted(help[asked.upperBound...].prefix { $0 != "?" })
            guard let typed = Self.quoted(diagnostic.message[...]).last.map(Self.bare), !typed.isEmpty,
                  let written = Self.place(of: typed, near: diagnostic.span, in: document.file) else { continue }
            for (index, name) in names.map(Self.bare).enumerated() where !name.isEmpty && name != typed {
                actions.append([
                    "title": "Change to '\(name)'",
                    "kind": "quickfix",
                    "diagnostics": [item],
                    "isPreferred": index == 0,
                    "edit": ["changes": [document.uri: [["range": document.positions.range(written), "newText": name]]]],
                ])
            }
        }
        return actions
    }

    /// The texts between single quotes.
    private static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// A name as it is written in the source: `.usd` is the case `usd`, `count:` the label `count`.
    private static func bare(_ name: String) -> String {
        var name = Substring(name)
        if name.count > 1, name.hasPrefix(".") { name = name.dropFirst() }
        if name.count > 1, name.hasSuffix(":") { name = name.dropLast() }
        return String(name)
    }

    /// Where `word` is written in the diagnostic's range, or else the
    /// nearest place before it on its line (a label before its value).
    private static func place(of word: String, near span: Span, in file: SourceFile) -> Span? {
        let bytes = Array(file.text.utf8), needle = Array(word.utf8)
        func isWord(at start: Int) -> Bool {
            guard start >= 0, start + needle.count <= bytes.count, Array(bytes[start..<start + needle.count]) == needle else { return false }
            let identifier = { (byte: UInt8) in byte == UInt8(ascii: "_") || byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) }
            guard needle.allSatisfy(identifier) else { return true }
            let before = start > 0 ? bytes[start - 1] : UInt8(ascii: " ")
            let after = start + needle.count < bytes.count ? bytes[start + needle.count] : UInt8(ascii: " ")
            return !identifier(before) && !identifier(after)
        }
        if let start = (span.start..<max(span.start, span.end)).first(where: { isWord(at: $0) && $0 + needle.count <= span.end }) {
            return Span(start, start + needle.count)
        }
        var start = min(span.start, bytes.count) - 1
        while start >= 0, bytes[start] != UInt8(ascii: "\n") {
            if isWord(at: start) { return Span(start, start + needle.count) }
            start -= 1
        }
        return nil
    }

    // MARK: - Formatting

    private func formatting(_ document: Document, _ offset: Int?) -> Any {
        guard case .formatted(let text) = SourceFormatter.format(document.file, modules: moduleNames), text != document.file.text else {
            return [Any]()
        }
        return [["range": document.positions.whole, "newText": text]]
    }

    // MARK: - Hover

    /// The token at an offset, or the one that ends there (the cursor
    /// just after a word).
    private func token(at offset: Int, in file: SourceFile) -> (index: Int, tokens: [Token])? {
        let tokens = SourceTokens(file).tokens
        guard let index = tokens.firstIndex(where: { $0.span.start <= offset && offset < $0.span.end && !$0.kind.isLayout })
            ?? tokens.firstIndex(where: { $0.span.end == offset && !$0.kind.isLayout }) else {
            return nil
        }
        return (index, tokens)
    }

    private func hover(_ document: Document, at offset: Int?) -> Any {
        guard let offset, let (index, tokens) = token(at: offset, in: document.file) else { return NSNull() }
        let resolution = names(document)
        if case .shorthand(let number) = tokens[index].kind {
            return shorthandHover(number, tokens[index].span, document, resolution)
        }
        guard case .identifier(let name) = tokens[index].kind else { return NSNull() }
        // A name the script declares: how, and where.
        if let declared = declaration(at: offset, in: document, resolution) {
            let declaration = resolution.declarations[declared]
            let line = document.positions.position(of: declaration.span.start).line + 1
            var summary = declaration.summary
            if let word = declaration.unwrittenBinding, let inferred = inferredTypes(document)[declaration.span.start] {
                summary = "\(word) \(declaration.name): \(inferred) (inferred)"
            }
            var value = "```swift\n\(summary)\n```\ndeclared on line \(line)"
            var picture: (svg: String, alt: String)?
            if declaration.isTopLevelBinding || declaration.isTestBinding,
               let lanes = lanes(of: declaration.name, declaredAt: declaration.span.start, in: document) {
                value += "\n\n```text\n" + lanes.text + "\n```"
                if let cut = lanes.cutAt { value += "\nfirst \(cut) shown: \(declaration.name) had not ended by then" }
                picture = lanes.svg.map { ($0, "the lane of \(declaration.name)" + (lanes.cutAt.map { ", its first \($0)" } ?? "")) }
            }
            return ["contents": hoverContents(value, picture: picture), "range": document.positions.range(tokens[index].span)]
        }
        let afterDot = index > 0 && tokens[index - 1].kind == .symbol(".")
        // A module's function (`file.lines`): what `flow doc file.lines` says.
        if afterDot, index > 1, case .identifier(let receiver) = tokens[index - 2].kind, index == 2 || tokens[index - 3].kind != .symbol("."),
           let module = module(named: receiver, in: document, resolution), let function = module.function(name),
           case .success(let text) = OperatorDocs.text(forName: "\(module.name).\(function.name)", modules: modules) {
            return ["contents": hoverContents("```text\n" + text + "\n```", picture: nil), "range": document.positions.range(tokens[index].span)]
        }
        let isCall = index + 1 < tokens.count && (tokens[index + 1].kind == .symbol("(") || tokens[index + 1].kind == .symbol("{"))
        guard afterDot || isCall, let spec = operatorTable.lookup(name), afterDot || spec.form != .method else { return NSNull() }
        let text = OperatorDocs.text(for: spec)
        var picture: (svg: String, alt: String)?
        if hoverImages, let example = OperatorDocs.run(spec), !example.laneDiagrams.isEmpty {
            let svg = Self.hoverPicture(example.laneDiagrams, title: spec.signatureDescriptions.joined(separator: " or "))
            picture = (svg, "the lanes of \(spec.name)'s example")
        }
        return [
            "contents": hoverContents("```text\n" + text + "\n```", picture: picture),
            "range": document.positions.range(tokens[index].span),
        ]
    }

    /// `$0`: the type the compiler knows its closure is given, and which
    /// closure's argument it is.
    private func shorthandHover(_ number: Int, _ span: Span, _ document: Document, _ resolution: NameResolution) -> Any {
        guard let closure = resolution.shorthandClosure(at: span.start) else { return NSNull() }
        let type = inferredTypes(document)[span.start].map { ": \($0) (inferred)" } ?? ""
        let ordinals = ["first", "second", "third", "fourth", "fifth"]
        let which = number < ordinals.count ? "the \(ordinals[number]) argument" : "argument \(number + 1)"
        let line = document.positions.position(of: closure.start).line + 1
        let value = "```swift\n$\(number)\(type)\n```\n\(which) of the closure on line \(line)"
        return ["contents": hoverContents(value, picture: nil), "range": document.positions.range(span)]
    }

    /// VS Code cuts a hover's markdown at this many characters (its
    /// renderer's limit against freezing): a picture that would be cut
    /// is left out rather than shown broken.
    static let longestHover = 100_000

    /// A hover's contents as the client shows them: markdown, with the
    /// picture after the text as a `data:` image where the client asked
    /// for pictures, or the same text without its fences.
    private func hoverContents(_ markdown: String, picture: (svg: String, alt: String)?) -> [String: Any] {
        guard markdownHovers else {
            let plain = markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("```") }
            return ["kind": "plaintext", "value": plain.joined(separator: "\n")]
        }
        var value = markdown
        if hoverImages, let picture {
            let image = "\n\n" + Self.markdownImage(svg: picture.svg, alt: picture.alt)
            if value.utf16.count + image.utf16.count <= Self.longestHover { value += image }
        }
        return ["kind": "markdown", "value": value]
    }

    /// VS Code's hover is at most 500 pixels wide, 484 inside its padding;
    /// what is wider scrolls sideways.
    public static let widestPicture = 484.0
    /// Scaled further, the axis's 10-pixel labels would be under 7.5.
    public static let smallestPictureScale = 0.75

    /// Lanes as a hover shows them: without a heading (the text above
    /// names them), scaled down to the hover's width when wider, but never
    /// below three quarters of their size (the widest then scroll).
    public static func hoverPicture(_ diagrams: [LaneDiagram], title: String) -> String {
        let natural = SVGDiagram(diagrams, title: title, heading: false)
        guard natural.width > widestPicture else { return natural.text }
        let width = max(widestPicture, (natural.width * smallestPictureScale).rounded(.up))
        return SVGDiagram(diagrams, title: title, width: width, heading: false).text
    }

    /// `![alt](data:image/svg+xml;base64,…)`: base64, because a markdown
    /// link's destination ends at a space or an unbalanced parenthesis,
    /// which an SVG has plenty of.
    public static func markdownImage(svg: String, alt: String) -> String {
        let escaped = alt.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]")
        return "![\(escaped)](data:image/svg+xml;base64,\(Data(svg.utf8).base64EncodedString()))"
    }

    /// The lanes a stream bound at the top level (or in a test block)
    /// produces, when what it depends on (`DependencySlice`: the
    /// statements declaring what its statement, then that block, uses)
    /// runs in virtual time without any module: a binding whose sources
    /// are all marbles draws them, whatever the rest of the script reads
    /// or however long it runs; one that would reach a file, the network
    /// or a database does not compile so, and draws nothing. The run has
    /// a budget (`laneBudget`): a stream that has not ended by then is
    /// drawn that far, its lane ending in "…", with `cutAt` saying where.
    /// What it prints goes nowhere.
    private func lanes(of name: String, declaredAt offset: Int, in document: Document) -> (text: String, svg: String?, cutAt: TimeSpan?)? {
        var parser = Parser(file: document.file)
        let script = parser.parseScript()
        guard let root = script.statements.firstIndex(where: { $0.span.start <= offset && offset < $0.span.end }) else { return nil }
        let slice = DependencySlice(of: script, keeping: root, resolution: NameResolution(script))
        let silent = Console(out: { _ in }, err: { _ in }, color: false)
        guard let program = try? Program(file: slice.file, console: silent, modules: []) else { return nil }
        program.marblesForBindings = true
        program.drawsLanes = false
        program.reportsErrors = false
        program.stopRequested = { [cancellation] in cancellation.isCancelled }
        program.laneBudget = Self.laneBudget
        // A client that gave a token sees the run as work it can cancel.
        if let token = workDoneToken, let send = sendAtOnce {
            send(notification("$/progress", ["token": token, "value": ["kind": "begin", "title": "Running \(name) in virtual time", "cancellable": true]]))
        }
        defer {
            if let token = workDoneToken, let send = sendAtOnce { send(notification("$/progress", ["token": token, "value": ["kind": "end"]])) }
        }
        var outcome = program.run(on: .virtual)
        if let test = program.testNames.indices.first(where: { program.span(ofTest: $0).start <= offset && offset < program.span(ofTest: $0).end }) {
            outcome = program.runTest(test)
        }
        for drawn in outcome.laneDiagrams {
            guard let lane = drawn.lanes.first(where: { $0.label == name && !$0.isStage }) else { continue }
            // The lane drawn alone, so its legend names its own values only.
            let alone = LaneDiagram(lanes: [lane], options: drawn.options)
            var text = alone.render().text
            // Cut while still going (not ended, nor unsubscribed): its lane goes on past what is drawn.
            let cut = lane.events.last?.event.isTerminal == true || lane.cancelled != nil ? nil : outcome.cutAt
            if cut != nil {
                text = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.hasPrefix(name + " ") ? $0 + "…" : $0 }.joined(separator: "\n")
            }
            return (text, hoverImages ? Self.hoverPicture([alone], title: "let \(name)") : nil, cut)
        }
        return nil
    }

    /// How far a hover's lane run goes for a stream that does not end: its
    /// first ten events, as the REPL's `:marble` draws one. (A stream that
    /// sends nothing and never ends meets the virtual clock's limits.)
    static let laneBudget = 10

    /// What the compiler knows of each document (`Program.editorFacts`: the
    /// types of its `let`s and `var`s, the members its member names mean),
    /// from one compilation, kept while its text stays the same.
    private var facts: [String: (text: String, types: [Int: String], members: [Span: Span])] = [:]

    private func editorFacts(_ document: Document) -> (types: [Int: String], members: [Span: Span]) {
        if let kept = facts[document.uri], kept.text == document.file.text { return (kept.types, kept.members) }
        let made = Program.editorFacts(document.file, modules: modules)
        facts[document.uri] = (document.file.text, made.bindingTypes, made.memberUses)
        return (made.bindingTypes, made.memberUses)
    }

    private func inferredTypes(_ document: Document) -> [Int: String] { editorFacts(document).types }

    // MARK: - Definitions and references

    private func names(_ document: Document) -> NameResolution {
        var parser = Parser(file: document.file)
        return NameResolution(parser.parseScript(), source: document.file)
    }

    private func location(_ document: Document, _ span: Span) -> [String: Any] {
        ["uri": document.uri, "range": document.positions.range(span)]
    }

    private func memberUses(_ document: Document) -> [Span: Span] { editorFacts(document).members }

    /// The declaration named or used at an offset: a member's (`w.total()`,
    /// `self.count`, `.usd`) as the compiler resolved it by its receiver's
    /// type, a func's among its overloads as the compiler chose it for the
    /// call, else the one the script's scopes give the name.
    private func declaration(at offset: Int, in document: Document, _ resolution: NameResolution) -> Int? {
        if let member = memberUses(document).first(where: { $0.key.start <= offset && offset <= $0.key.end })?.value,
           let declared = resolution.declarations.firstIndex(where: { $0.span == member }) {
            return declared
        }
        return resolution.declaration(at: offset)
    }

    private func definition(_ document: Document, at offset: Int?) -> Any {
        let resolution = names(document)
        guard let offset, let declared = declaration(at: offset, in: document, resolution) else { return NSNull() }
        return location(document, resolution.declarations[declared].span)
    }

    private func references(_ document: Document, at offset: Int?, includeDeclaration: Bool) -> Any {
        let resolution = names(document)
        guard let offset, let declared = declaration(at: offset, in: document, resolution) else { return [Any]() }
        let span = resolution.declarations[declared].span
        let compiled = memberUses(document)
        let memberUses = compiled.filter { $0.value == span }.map(\.key)
        // A bare member in its type's own body is both a scope's use and a
        // member use; a call the compiler gave another overload of the name
        // is that one's.
        let scoped = resolution.uses(of: declared).filter { use in compiled[use].map { $0 == span } ?? true }
        let uses = Set(scoped + memberUses).sorted { $0.start < $1.start }
        return ((includeDeclaration ? [span] : []) + uses).map { location(document, $0) }
    }

    // MARK: - Completion

    private func completion(_ document: Document, at offset: Int?) -> Any {
        guard let offset else { return [Any]() }
        let bytes = document.positions.bytes
        var start = offset
        while start > 0, bytes[start - 1].isNamePart { start -= 1 }
        let prefix = String(decoding: bytes[start..<offset], as: UTF8.self)
        var items: [[String: Any]] = []
        if start > 0, bytes[start - 1] == UInt8(ascii: "."), let module = module(before: start - 1, in: document) {
            // A module's name (`file.`): its functions, as `flow doc` names
            // them; no stream's operator, as a module is no stream.
            for function in module.functions where function.name.hasPrefix(prefix) {
                var item: [String: Any] = ["label": function.name, "kind": 3, "detail": function.summary,
                                           "documentation": function.signatureDescriptions.map { "\(module.name).\($0)" }.joined(separator: "\n")]
                if snippets, let snippet = Self.snippet(function) {
                    item["insertText"] = snippet
                    item["insertTextFormat"] = 2
                }
                items.append(item)
            }
        } else if start > 0, bytes[start - 1] == UInt8(ascii: ".") {
            // A value of the script's own type: its members.
            let receiver = receiverType(document, dot: start - 1)
            if let type = receiver {
                items += members(of: type.declaration, statics: type.isStatic).filter { ($0["label"] as! String).hasPrefix(prefix) }
                    .map { $0.merging(["sortText": "0" + ($0["label"] as! String)]) { $1 } }
            }
            // A struct, class, enum or protocol of the script is no stream,
            // nor is a value of one: a stream's operators are no members of
            // it. An extension may extend a library's type, which keeps them.
            let receiverIsNoStream = receiver.map { $0.declaration.kind != .extension } ?? false
            // An operator of a stream, by every library's name for it; the
            // canonical name with its labels as a snippet.
            for spec in operatorTable.entries where spec.form != .function && !receiverIsNoStream {
                for name in [spec.name] + spec.aliasNames where name.hasPrefix(prefix) {
                    var item: [String: Any] = ["label": name, "kind": 2, "detail": spec.summary,
                                               "documentation": spec.signatureDescriptions.joined(separator: "\n")]
                    if snippets, name == spec.name, let snippet = Self.snippet(spec) {
                        item["insertText"] = snippet
                        item["insertTextFormat"] = 2
                    }
                    items.append(item)
                }
            }
        } else {
            for name in LanguageWords.freeFunctions where name.hasPrefix(prefix) {
                items.append(["label": name, "kind": 3, "detail": operatorTable.lookup(name)?.summary ?? "a function of the language"])
            }
            for spec in operatorTable.entries where spec.form != .method && spec.name.hasPrefix(prefix)
                && !LanguageWords.freeFunctions.contains(spec.name) {
                items.append(["label": spec.name, "kind": 3, "detail": spec.summary])
            }
            for word in Set(LanguageWords.control + LanguageWords.declarations) where word.hasPrefix(prefix) {
                items.append(["label": word, "kind": 14])
            }
            // The script's names in scope here, innermost first where two
            // have one name; each with how it is declared, its type inferred.
            let typed = closedWhileTyping(document)
            let resolution = names(typed)
            let types = inferredTypes(typed)
            for index in resolution.visibleDeclarations(at: start) {
                let declaration = resolution.declarations[index]
                guard declaration.name.hasPrefix(prefix), declaration.span.start != start else { continue }
                var detail = declaration.summary
                if let word = declaration.unwrittenBinding, let inferred = types[declaration.span.start] {
                    detail = "\(word) \(declaration.name): \(inferred) (inferred)"
                }
                items.append(["label": declaration.name, "kind": declaration.completionKind, "detail": detail])
            }
        }
        items.sort { ($0["label"] as! String, $0["kind"] as! Int) < ($1["label"] as! String, $1["kind"] as! Int) }
        return ["isIncomplete": false, "items": items]
    }

    /// The document as a completion reads it: a block still being typed
    /// (its `{` not closed yet, so it does not parse) closed at the end of
    /// the text, so the names of the func or closure the cursor is in are
    /// in scope. Offsets stay those of the text as it is.
    private func closedWhileTyping(_ document: Document) -> Document {
        let closers = ["(": ")", "[": "]", "{": "}"]
        var open: [String] = []
        for token in SourceTokens(document.file).tokens {
            guard case .symbol(let symbol) = token.kind else { continue }
            if let closer = closers[symbol] {
                open.append(closer)
            } else if symbol == open.last {
                open.removeLast()
            }
        }
        guard !open.isEmpty else { return document }
        let text = document.file.text + open.reversed().map { $0 + "\n" }.joined()
        return Document(uri: document.uri, file: SourceFile(path: document.file.path, text: text), positions: document.positions)
    }

    /// `debounce(${1:duration})`: the operator's required arguments as
    /// placeholders, with their labels.
    static func snippet(_ spec: OperatorSpec) -> String? {
        guard let signature = spec.signatures.first else { return nil }
        let required = signature.parameters.filter { !$0.isOptional }
        let arguments = required.enumerated().map { index, parameter in
            (parameter.label.map { "\($0): " } ?? "") + "${\(index + 1):\(parameter.name)}"
        }
        return "\(spec.name)(\(arguments.joined(separator: ", ")))"
    }

    /// The module whose name stands before a `.` (`file.`), unless the
    /// script declares that name itself or it is a member (`x.file.`).
    private func module(before dot: Int, in document: Document) -> BuiltinModule? {
        let bytes = document.positions.bytes
        var start = dot
        while start > 0, bytes[start - 1].isNamePart { start -= 1 }
        guard start < dot, start == 0 || bytes[start - 1] != UInt8(ascii: ".") else { return nil }
        return module(named: String(decoding: bytes[start..<dot], as: UTF8.self), in: document, names(document))
    }

    private func module(named name: String, in document: Document, _ resolution: NameResolution) -> BuiltinModule? {
        guard let module = modules.first(where: { $0.name == name }),
              !resolution.declarations.contains(where: { $0.name == name }) else { return nil }
        return module
    }

    /// The script's type of what stands before a `.`: a name declared as
    /// one of its types' values, or the type's own name (its statics).
    private func receiverType(_ document: Document, dot: Int) -> (declaration: TypeDeclaration, isStatic: Bool)? {
        let bytes = document.positions.bytes
        var start = dot
        while start > 0, bytes[start - 1].isNamePart { start -= 1 }
        guard start < dot else { return nil }
        let name = String(decoding: bytes[start..<dot], as: UTF8.self)
        let resolution = names(document)
        // `c.` as it is typed does not parse, so its `c` is no use the
        // resolution saw: the nearest declaration of that name above it.
        if let declared = resolution.declaration(at: start)
            ?? resolution.declarations.indices.last(where: { resolution.declarations[$0].name == name && resolution.declarations[$0].span.end <= start }) {
            let declaration = resolution.declarations[declared]
            // What the compiler inferred (`let p = make()`, a func that returns
            // a Price), else the type written or made.
            let inferred = declaration.unwrittenBinding == nil ? nil : inferredTypes(document)[declaration.span.start]
            for type in [inferred.map(NameResolution.writtenType), declaration.typeName].compactMap({ $0 }) {
                if let declared = resolution.types[type] { return (declared, false) }
            }
        }
        if let declaration = resolution.types[name] { return (declaration, true) }
        return nil
    }

    /// A type's members as completions: its properties, methods and
    /// cases, or with `statics`, what is called on the type itself.
    private func members(of type: TypeDeclaration, statics: Bool) -> [[String: Any]] {
        var items: [[String: Any]] = []
        if statics {
            for enumCase in type.cases { items.append(["label": enumCase.name, "kind": 20, "detail": "case of \(type.name)"]) }
            for stored in type.staticStored { items.append(["label": stored.name, "kind": 10, "detail": "static property of \(type.name)"]) }
            for method in type.methods where method.isStatic { items.append(["label": method.name, "kind": 2, "detail": "static func of \(type.name)"]) }
            return items
        }
        for stored in type.stored {
            items.append(["label": stored.name, "kind": 10, "detail": (stored.isVariable ? "var" : "let") + (stored.type.map { ": " + $0.text } ?? "")])
        }
        for computed in type.computed where !computed.isStatic {
            items.append(["label": computed.name, "kind": 10, "detail": "var" + (computed.type.map { ": " + $0.text } ?? "")])
        }
        for method in type.methods where !method.isStatic {
            items.append(["label": method.name, "kind": 2, "detail": "func of \(type.name)" + (method.resultType.map { " -> " + $0.text } ?? "")])
        }
        return items
    }

    // MARK: - JSON-RPC

    private func result(_ id: Any?, _ value: Any) -> Message {
        ["jsonrpc": "2.0", "id": id ?? NSNull(), "result": value]
    }

    private func error(_ id: Any?, _ code: Int, _ message: String) -> Message {
        ["jsonrpc": "2.0", "id": id ?? NSNull(), "error": ["code": code, "message": message]]
    }

    private func notification(_ method: String, _ params: [String: Any]) -> Message {
        ["jsonrpc": "2.0", "method": method, "params": params]
    }

    /// A `file:` URI's path, for the file names diagnostics carry.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        return String(uri.dropFirst("file://".count)).removingPercentEncoding ?? uri
    }

    /// As `SourceFile` reads it: every line ending a `\n`.
    static func normalised(_ text: String) -> String {
        SourceFile(path: "", text: text).text
    }
}

extension TokenKind {
    /// A line break or the end: no token a cursor can stand on.
    var isLayout: Bool {
        switch self {
        case .newline, .end: true
        default: false
        }
    }
}

extension UInt8 {
    var isNamePart: Bool {
        (self >= 65 && self <= 90) || (self >= 97 && self <= 122) || (self >= 48 && self <= 57) || self == 95 || self == 36
    }
}
