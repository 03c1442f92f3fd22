import FlowLanguage
import FlowLanguageServer
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// The pictures a hover carries, decoded from their `data:` URIs: the very
/// SVG the engine draws for `flow doc NAME --svg`, and a binding's lane
/// with its marks where the marbles put them.
@Suite struct HoverPictureTests {
    static let script = "let balance = cold(\"a----b---|\", a: 5, b: 25)\nlet doubled = balance.map { $0 * 2 }\n"

    /// A server that a client showing markdown asked for pictures, with the script open.
    static func server(hoverImages: Bool = true, formats: [String] = ["markdown", "plaintext"]) -> LanguageServer {
        let server = LanguageServer()
        _ = server.handle(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [
            "capabilities": ["textDocument": ["hover": ["contentFormat": formats]]],
            "initializationOptions": ["hoverImages": hoverImages],
        ] as [String: Any]])
        _ = server.handle(["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": [
            "textDocument": ["uri": "file:///work/a.flow", "languageId": "flow", "version": 1, "text": script],
        ]])
        return server
    }

    static func hover(_ server: LanguageServer, line: Int, character: Int) -> (kind: String, value: String)? {
        let replies = server.handle(["jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": [
            "textDocument": ["uri": "file:///work/a.flow"], "position": ["line": line, "character": character],
        ] as [String: Any]])
        guard let contents = (replies.first?["result"] as? [String: Any])?["contents"] as? [String: Any],
              let kind = contents["kind"] as? String, let value = contents["value"] as? String else { return nil }
        return (kind, value)
    }

    /// The SVG of the hover's one `data:` image, and its alt text.
    static func picture(in markdown: String) -> (svg: String, alt: String)? {
        guard let start = markdown.range(of: "![") else { return nil }
        let rest = markdown[start.upperBound...]
        guard let altEnd = rest.range(of: "](data:image/svg+xml;base64,"), let close = rest[altEnd.upperBound...].firstIndex(of: ")"),
              let data = Data(base64Encoded: String(rest[altEnd.upperBound..<close])) else { return nil }
        return (String(decoding: data, as: UTF8.self), String(rest[..<altEnd.lowerBound]))
    }

    @Test func anOperatorsHoverCarriesTheSVGOfItsExampleAfterTheText() throws {
        let hover = try #require(Self.hover(Self.server(), line: 1, character: 23))
        #expect(hover.kind == "markdown")
        let picture = try #require(Self.picture(in: hover.value), "\(hover.value.prefix(400))")
        let map = try #require(operatorTable.lookup("map"))
        let example = try #require(OperatorDocs.run(map))
        #expect(picture.svg == LanguageServer.hoverPicture(example.laneDiagrams, title: "map(Closure) or map(withState: Value, Closure)"))
        // The lanes and marks of the picture `flow doc map --svg` draws, without its heading.
        let documented = SVGGeometry(try #require(OperatorDocs.svg(for: map)))
        let drawn = SVGGeometry(picture.svg)
        #expect(drawn.marks.map(\.kind) == documented.marks.map(\.kind) && drawn.laneLines.count == documented.laneLines.count)
        #expect(!picture.svg.contains("font-weight=\"bold\">map("))
        #expect(picture.alt == "the lanes of map's example")
        // The text comes first, so a client that cuts a long hover cuts the picture, not the words.
        #expect(hover.value.hasPrefix("```text\nmap("))
        #expect(hover.value.hasSuffix(")"))
        #expect(hover.value.count < 100_000)
    }

    @Test func aMarbleBindingsHoverDrawsItsLane() throws {
        let hover = try #require(Self.hover(Self.server(), line: 1, character: 6))
        let picture = try #require(Self.picture(in: hover.value), "\(hover.value.prefix(400))")
        #expect(picture.alt == "the lane of doubled")
        #expect(picture.svg.contains("<title>let doubled</title>"))
        #expect(!picture.svg.contains("font-weight=\"bold\""), "no heading: the text above names the lane")
        let geometry = SVGGeometry(picture.svg)
        // One lane: two values and the completion, at frames 0, 5 and 9.
        #expect(geometry.laneLines.count == 1)
        #expect(geometry.laneLines.first?.ends == "completed")
        let xs = geometry.marks.map(\.x)
        #expect(xs.count == 3, "\(geometry.marks)")
        if xs.count == 3 {
            #expect(xs[0] < xs[1] && xs[1] < xs[2])
            #expect(abs((xs[1] - xs[0]) / (xs[2] - xs[0]) - 5.0 / 9.0) < 0.01, "\(xs)")
        }
        #expect(picture.svg.contains(">10<") && picture.svg.contains(">50<"), "the doubled values drawn")
    }

    @Test func noPictureUnlessTheClientAsksAndShowsMarkdown() throws {
        let unasked = try #require(Self.hover(Self.server(hoverImages: false), line: 1, character: 23))
        #expect(unasked.kind == "markdown" && !unasked.value.contains("data:"))
        let plain = try #require(Self.hover(Self.server(formats: ["plaintext"]), line: 1, character: 23))
        #expect(plain.kind == "plaintext")
        #expect(!plain.value.contains("data:") && !plain.value.contains("```"))
        #expect(plain.value.hasPrefix("map("))
    }

    /// Every operator's example fits VS Code's hover, 484 pixels inside
    /// its padding, scaled down if need be, but to no less than three
    /// quarters of its size: the few wider still scroll sideways.
    @Test func everyExampleFitsTheHoverOrIsScaledNoSmallerThanThreeQuarters() throws {
        var scrolling = 0
        for spec in operatorTable.entries {
            guard let example = OperatorDocs.run(spec), !example.laneDiagrams.isEmpty else { continue }
            let svg = try #require(SVGGeometry.elements(LanguageServer.hoverPicture(example.laneDiagrams, title: spec.name)).first { $0.name == "svg" })
            let shown = try #require(svg.attributes["width"].flatMap(Double.init))
            let natural = try #require(svg.attributes["viewBox"]?.split(separator: " ").dropFirst(2).first.flatMap { Double($0) })
            #expect(shown <= natural, "\(spec.name)")
            #expect(shown <= LanguageServer.widestPicture || (shown + 1) / natural >= LanguageServer.smallestPictureScale, "\(spec.name): \(shown) of \(natural)")
            if shown > LanguageServer.widestPicture { scrolling += 1 }
        }
        #expect(scrolling < 20, "most examples fit the hover: \(scrolling) do not")
    }

    @Test func anAltTextCannotEndTheImageEarly() {
        let image = LanguageServer.markdownImage(svg: "<svg/>", alt: "a ] b [ c \\")
        #expect(image == "![a \\] b \\[ c \\\\](data:image/svg+xml;base64,PHN2Zy8+)")
    }
}
