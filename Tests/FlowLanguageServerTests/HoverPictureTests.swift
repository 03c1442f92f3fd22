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
        #expect(picture.svg == OperatorDocs.svg(for: try #require(operatorTable.lookup("map"))))
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

    @Test func anAltTextCannotEndTheImageEarly() {
        let image = LanguageServer.markdownImage(svg: "<svg/>", alt: "a ] b [ c \\")
        #expect(image == "![a \\] b \\[ c \\\\](data:image/svg+xml;base64,PHN2Zy8+)")
    }
}
