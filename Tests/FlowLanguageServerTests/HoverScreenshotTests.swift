import FlowLanguage
import FlowLanguageServer
import FlowTestSupport
import Foundation
import Testing

/// The README's picture of a hover (docs/hover.png): the server's answer
/// to a hover on a stream bound to marbles, asked as VS Code's extension
/// asks, shown as VS Code shows a hover (its markdown as HTML, the picture
/// as an `<img>` of the `data:` URI, in the Light Modern theme's colours)
/// in docs/hover.html, and that page drawn by headless chromium.
/// `FLOW_UPDATE_GOLDEN=1` writes both again; otherwise the committed page
/// must be what the server answers now, and the committed picture what
/// chromium draws of it.
@Suite struct HoverScreenshotTests {
    static let script = """
        let balance = cold("a----b---|", a: 5, b: 25)
        let price = just(10)
        let canBuy = balance.combineLatest(price).map { $0 >= $1 }

        """
    /// The cursor on `canBuy`.
    static let hovered = (line: 2, character: 6)
    static let page = projectDirectory.appendingPathComponent("docs/hover.html")
    static let picture = projectDirectory.appendingPathComponent("docs/hover.png")
    static let window = (width: 640, height: 360)
    static let chromium = "/usr/bin/chromium"
    static var updating: Bool { ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" }

    /// The hover's markdown, as VS Code's client gets it.
    static func hoverMarkdown() throws -> String {
        let server = LanguageServer()
        _ = server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [
            "capabilities": ["textDocument": ["hover": ["contentFormat": ["markdown", "plaintext"]]]],
            "initializationOptions": ["hoverImages": true],
        ] as [String: Any]])
        _ = server.handle(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [
            "textDocument": ["uri": "file:///work/shop.flow", "languageId": "flow", "version": 1, "text": script],
        ]])
        let replies = server.handle(["jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": [
            "textDocument": ["uri": "file:///work/shop.flow"], "position": ["line": hovered.line, "character": hovered.character],
        ] as [String: Any]])
        let contents = (replies.first?["result"] as? [String: Any])?["contents"] as? [String: Any]
        return try #require(contents?["value"] as? String)
    }

    static func escaped(_ text: some StringProtocol) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// What the server's hovers hold, as HTML: fenced code, lines of text,
    /// and an image alone on its line.
    static func html(ofMarkdown markdown: String) -> String {
        var blocks: [String] = []
        var fence: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let code = fence {
                    blocks.append("<pre>" + escaped(code.joined(separator: "\n")) + "</pre>")
                    fence = nil
                } else {
                    fence = []
                }
            } else if fence != nil {
                fence!.append(line)
            } else if line.hasPrefix("!["), let close = line.range(of: "]("), line.hasSuffix(")") {
                let alt = line[line.index(line.startIndex, offsetBy: 2)..<close.lowerBound].replacingOccurrences(of: "\\", with: "")
                let source = line[close.upperBound..<line.index(before: line.endIndex)]
                blocks.append("<p><img alt=\"\(escaped(alt))\" src=\"\(escaped(source))\"></p>")
            } else if !line.isEmpty {
                blocks.append("<p>" + escaped(line) + "</p>")
            }
        }
        return blocks.joined(separator: "\n")
    }

    /// The script's lines coloured by the language's own tokens.
    static func editorLines() -> [String] {
        let file = SourceFile(path: "shop.flow", text: script)
        let bytes = Array(script.utf8)
        let tokens = SourceTokens(file).tokens
        var html = ""
        var at = 0
        for (index, token) in tokens.enumerated() where token.span.end > token.span.start {
            html += escaped(String(decoding: bytes[at..<token.span.start], as: UTF8.self))
            let text = escaped(String(decoding: bytes[token.span.start..<token.span.end], as: UTF8.self))
            let next = index + 1 < tokens.count ? tokens[index + 1].kind : .end
            let colour: String? = switch token.kind {
            case .keyword: "keyword"
            case .string: "string"
            case .integer, .double, .duration: "number"
            case .identifier where next == .symbol("(") || next == .symbol("{"): "function"
            case .identifier, .shorthand: "name"
            default: nil
            }
            html += colour.map { "<span class=\"\($0)\">\(text)</span>" } ?? text
            at = token.span.end
        }
        html += escaped(String(decoding: bytes[at...], as: UTF8.self))
        return html.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func makePage() throws -> String {
        let hover = html(ofMarkdown: try hoverMarkdown())
        var lines = editorLines()
        // The hovered word, with the hover under it, as VS Code places it.
        let word = "<span class=\"name\">canBuy</span>"
        lines[hovered.line] = lines[hovered.line].replacingOccurrences(
            of: word, with: "<span class=\"hovered\">\(word)<div class=\"hover\">\n\(hover)\n</div></span>")
        let numbered = lines.enumerated().map { "<div class=\"line\"><span class=\"gutter\">\($0.offset + 1)</span>\($0.element)</div>" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>flow lsp: a hover on a stream, as VS Code shows it</title>
            <!-- Made by HoverScreenshotTests from flow lsp's answer; FLOW_UPDATE_GOLDEN=1 writes it again. -->
            <style>
            body { margin: 0; background: #ffffff; color: #3b3b3b; }
            .editor { padding: 10px 0; font: 14px/19px "DejaVu Sans Mono", monospace; }
            .line { white-space: pre; }
            .gutter { display: inline-block; width: 40px; padding-right: 26px; text-align: right; color: #6e7681; }
            .keyword { color: #0000ff; } .string { color: #a31515; } .number { color: #098658; }
            .function { color: #795e26; } .name { color: #001080; }
            .hovered { position: relative; background: #add6ff80; }
            .hover { position: absolute; left: 0; top: 21px; z-index: 1; width: max-content; max-width: 500px; padding: 0 8px;
                     white-space: normal; background: #f8f8f8; color: #3b3b3b; border: 1px solid #c8c8c8; border-radius: 3px;
                     box-shadow: 0 0 8px 2px #00000029; font: 13px/1.4 "DejaVu Sans", sans-serif; }
            .hover pre { margin: 6px 0; font: 13px/18px "DejaVu Sans Mono", monospace; white-space: pre; }
            .hover p { margin: 6px 0; }
            .hover img { display: block; }
            </style>
            </head>
            <body>
            <div class="editor">
            \(numbered.joined(separator: "\n"))
            </div>
            </body>
            </html>

            """
    }

    /// `chromium --screenshot` of a page on disk: no server, no network.
    static func screenshot(of page: URL, to png: URL) throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try FlowProcess.run(
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--force-color-profile=srgb",
             "--user-data-dir=\(profile.path)", "--window-size=\(window.width),\(window.height)", "--screenshot=\(png.path)",
             page.absoluteString],
            binary: URL(fileURLWithPath: chromium), timeout: 300)
        #expect(FileManager.default.fileExists(atPath: png.path), "chromium wrote no screenshot: \(result.err)")
    }

    /// Width and height from a PNG's header.
    static func size(ofPNG data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func theCommittedPageShowsTheServersHoverNow() throws {
        let made = try Self.makePage()
        #expect(made.contains("<pre>let canBuy: Observable&lt;Bool&gt; (inferred)\n</pre>")
                || made.contains("<pre>let canBuy: Observable&lt;Bool&gt; (inferred)</pre>"), "\(made.prefix(2000))")
        #expect(made.contains("canBuy  a----b---|"), "the lane as text: \(made)")
        #expect(made.contains("<img alt=\"the lane of canBuy\" src=\"data:image/svg+xml;base64,"), "the lane as a picture")
        if Self.updating { try made.write(to: Self.page, atomically: true, encoding: .utf8) }
        let committed = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(committed == made, "docs/hover.html is not the server's hover now: FLOW_UPDATE_GOLDEN=1 swift test --filter HoverScreenshotTests")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium), "chromium is not installed (.ci/run installs it)"))
    func theCommittedPictureIsThePageAsChromiumDrawsIt() throws {
        // Updating, the page is written first, whichever test runs first.
        if Self.updating { try Self.makePage().write(to: Self.page, atomically: true, encoding: .utf8) }
        let drawn = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hover-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: drawn) }
        try Self.screenshot(of: Self.page, to: drawn)
        let made = try Data(contentsOf: drawn)
        #expect(Self.size(ofPNG: made).map { [$0.0, $0.1] } == [Self.window.width, Self.window.height])
        if Self.updating { try made.write(to: Self.picture) }
        let committed = try Data(contentsOf: Self.picture)
        #expect(Self.size(ofPNG: committed).map { [$0.0, $0.1] } == [Self.window.width, Self.window.height])
        // The same picture, pixel for pixel, but for the edges another
        // machine's rasteriser may smooth differently: a stale picture
        // (other text, other lanes) differs in far more.
        if committed != made {
            let differing = try Self.differingPixels(committed, made)
            #expect(differing < Self.window.width * Self.window.height / 200,
                    "docs/hover.png is not what chromium draws of docs/hover.html (\(differing) pixels differ): FLOW_UPDATE_GOLDEN=1 swift test --filter HoverScreenshotTests")
        }
    }

    /// How many pixels of two PNGs of one size differ by more than a
    /// rounding of their edges (read by Python's zlib: no image library).
    static func differingPixels(_ a: Data, _ b: Data) throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hover-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.png"), second = folder.appendingPathComponent("b.png")
        try a.write(to: first)
        try b.write(to: second)
        let result = try FlowProcess.run(["python3", "-c", pixelComparer, first.path, second.path], binary: URL(fileURLWithPath: "/usr/bin/env"))
        guard result.status == 0, let count = Int(result.out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ComparisonFailed(description: "python3 could not compare the pictures: \(result.err)")
        }
        return count
    }

    struct ComparisonFailed: Error, CustomStringConvertible { let description: String }

    static let pixelComparer = PNGPixels.reader + """
        wa, ca, a = rows(sys.argv[1])
        wb, cb, b = rows(sys.argv[2])
        if (wa, len(a)) != (wb, len(b)):
            print(wa * len(a)); sys.exit(0)
        differing = 0
        for ra, rb in zip(a, b):
            for x in range(wa):
                if max(abs(ra[x * ca + k] - rb[x * cb + k]) for k in range(3)) > 48: differing += 1
        print(differing)
        """
}
