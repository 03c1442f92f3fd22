import Foundation
import FlowTestSupport
import Testing

/// `flow slides`: a lesson script becomes a 16:9 deck, one titled slide
/// per `marbles(...)` call, SVG and PNG, with speaker notes and an
/// offline index.html; a diagram too large for a legible slide is split.
@Suite struct SlidesCommandTests {
    static var rendererAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-slides-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The slide SVGs of a deck folder, in order.
    static func slides(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("slide-") && $0.hasSuffix(".svg") }.sorted()
            .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    }

    @Test(.enabled(if: rendererAvailable, "rsvg-convert is not installed (Debian's librsvg2-bin)"))
    func aLessonBecomesADeck() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deck = folder.appendingPathComponent("deck")
        let result = try CommandLineTests.flow(["slides", "examples/lesson.flow", "--out", deck.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("diagrams too large for one slide"), "\(result.out)")
        let slides = try Self.slides(in: deck)
        #expect(slides.count >= 8, "\(slides.count) slides")
        // Titled by the comments above each call, in order, with their notes.
        let titles = slides.map { SVGGeometry.elements($0).first { $0.attributes["class"]?.contains("slide-title") == true } }
        #expect(titles.allSatisfy { $0 != nil })
        let titleTexts = slides.compactMap { $0.firstMatch(of: #/class="ink slide-title"[^>]*>([^<]*)</text>/#).map { String($0.1) } }
        #expect(Array(titleTexts.prefix(5)) == ["One request per click: flatMap", "Only the latest: flatMapLatest", "One after another: concatMap",
                                                  "Windows of two clicks", "A long wait"], "\(titleTexts)")
        #expect(titleTexts.dropFirst(5).dropLast().allSatisfy { $0.hasPrefix("A busy stretch (") && $0.contains(" of ") }, "\(titleTexts)")
        // The test block's marbles(...) call is the last slide, titled by the test's name.
        #expect(titleTexts.last == "merge interleaves, concat waits its turn", "\(titleTexts)")
        #expect(slides[0].contains("<desc>Every click starts a request of its own; their answers interleave.\nAsk the class"))
        // The long wait is drawn with a broken axis.
        #expect(SVGGeometry(slides[4]).axisBreaks == ["1s"], "\(SVGGeometry(slides[4]).axisBreaks)")
        for (n, slide) in slides.enumerated() {
            #expect(slide.contains(#"width="1920" height="1080" viewBox="0 0 1920 1080""#), "slide \(n + 1)")
            try Self.expectInside(slide, width: 1920, height: 1080, "slide \(n + 1)")
            let png = try Data(contentsOf: deck.appendingPathComponent(String(format: "slide-%02d.png", n + 1)))
            #expect(Self.pngSize(png) == [1920, 1080], "slide \(n + 1)'s PNG")
        }
        let page = try String(contentsOf: deck.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.components(separatedBy: #"<section class="slide""#).count - 1 == slides.count)
        // Nothing is fetched: every slide is inline, no script or style comes from elsewhere.
        #expect(!page.contains(" src=") && !page.contains("<link") && !page.contains("href="), "everything is inline")
    }

    /// The diagram of each slide sits inside the slide, whole, and its
    /// smallest text is legible: a 36th of the slide's height.
    static func expectInside(_ slide: String, width: Double, height: Double, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let elements = SVGGeometry.elements(slide)
        let nested = try #require(elements.dropFirst().first { $0.name == "svg" }, sourceLocation: sourceLocation)
        let box = ["x", "y", "width", "height"].map { Double(nested.attributes[$0] ?? "") ?? -1 }
        #expect(box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= width && box[1] + box[3] <= height, "\(what): the diagram at \(box)",
                sourceLocation: sourceLocation)
        let viewBox = (nested.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(viewBox.count == 4, sourceLocation: sourceLocation)
        guard viewBox.count == 4 else { return }
        // Scaled the same across and down: nothing stretched or cut.
        let scale = box[2] / viewBox[2]
        #expect(abs(box[3] / viewBox[3] - scale) < 0.01, "\(what): \(box) shows \(viewBox)", sourceLocation: sourceLocation)
        let sizes = elements.compactMap { $0.name == "text" ? $0.attributes["font-size"].flatMap(Double.init) : nil }
        let inDiagram = sizes.dropFirst().map { $0 * scale } + [12 * scale]
        #expect((inDiagram.min() ?? 0) >= height / 36 - 0.01, "\(what): text of \(inDiagram.min() ?? 0) px", sourceLocation: sourceLocation)
    }

    /// A PNG's width and height, from its header.
    static func pngSize(_ data: Data) -> [Int] {
        guard data.count > 24 else { return [] }
        let bytes = [UInt8](data[16..<24])
        return [0, 4].map { offset in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    }

    /// The README's slide is the lesson's slide of windows, as `flow
    /// slides` draws it now (FLOW_UPDATE_GOLDEN=1 writes it again).
    @Test func theReadmesSlideIsWhatFlowSlidesDraws() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.flow(["slides", "examples/lesson.flow", "--out", folder.path, "--size", "1280x720", "--no-png"])
        #expect(result.status == 0, "\(result.err)")
        let drawn = try String(contentsOf: folder.appendingPathComponent("slide-04.svg"), encoding: .utf8)
        #expect(drawn.contains(">Windows of two clicks</text>"))
        let kept = projectDirectory.appendingPathComponent("docs/lesson-slide.svg")
        if ProcessInfo.processInfo.environment["FLOW_UPDATE_GOLDEN"] == "1" { try drawn.write(to: kept, atomically: true, encoding: .utf8) }
        #expect(try String(contentsOf: kept, encoding: .utf8) == drawn, "docs/lesson-slide.svg is not what flow slides draws: FLOW_UPDATE_GOLDEN=1 swift test --filter theReadmesSlide")
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/lesson-slide.svg)"))
    }

    /// The README's long wait: an exact lane with a time progression, not a group.
    @Test func theReadmesLongWaitIsWhatFlowPrints() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "marbles(cold(\"-ab 1s c|\"))\n".write(to: folder.appendingPathComponent("wait.flow"), atomically: true, encoding: .utf8)
        let result = try CommandLineTests.flow(["run", "--virtual", "wait.flow"], in: folder)
        #expect(result.status == 0 && result.out.contains("-ab 1s c|"), "\(result.out)\(result.err)")
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("marbles(cold(\"-ab 1s c|\"))\n$ flow run --virtual wait.flow\n" + result.out), "\(result.out)")
    }

    @Test func theSizeIsAsked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.flow(["slides", "examples/lesson.flow", "--out", folder.path, "--size", "1280x720", "--no-png"])
        #expect(result.status == 0, "\(result.err)")
        let slides = try Self.slides(in: folder)
        #expect(!slides.isEmpty)
        for (n, slide) in slides.enumerated() {
            #expect(slide.contains(#"width="1280" height="720" viewBox="0 0 1280 720""#))
            try Self.expectInside(slide, width: 1280, height: 720, "slide \(n + 1)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("slide-01.png").path))
    }

    /// Without a heading, a slide is titled by the call's `title:`, else
    /// by its lanes.
    /// A `marbles(...)` call inside a test block is a slide too, in its
    /// place in the script, titled by the `// # Title` above it (above the
    /// block too) or else by the test's name; a failing test's diagram is
    /// still drawn, and the failure said.
    @Test func testBlocksAreSlidesToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("tests.flow")
        try """
            let numbers = cold("-1-2-3|")
            // # First
            marbles(numbers)
            test "doubling" {
              marbles(numbers.map { $0 * 2 })
              expect(numbers.map { $0 * 2 }).toBe("-2-4-6|")
            }
            // # Titled above the test
            // Its notes.
            test "halving" {
              marbles(numbers.map { $0 * 10 })
            }
            // # Last
            marbles(numbers.filter { $0 > 1 })

            """.write(to: script, atomically: true, encoding: .utf8)
        let result = try CommandLineTests.flow(["slides", script.path, "--out", folder.appendingPathComponent("deck").path, "--no-png"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("4 slides of 4 diagrams"), "\(result.out)")
        let slides = try Self.slides(in: folder.appendingPathComponent("deck"))
        let titles = slides.compactMap { $0.firstMatch(of: #/class="ink slide-title"[^>]*>([^<]*)</text>/#).map { String($0.1) } }
        #expect(titles == ["First", "doubling", "Titled above the test", "Last"], "\(titles)")
        // Each slide draws its own diagram: the test's lanes, in words.
        #expect(slides.count == 4 && slides[1].contains("numbers.map { $0 * 2 }: 2 at 1, 4 at 3, 6 at 5, completes at 6"), "\(slides.count > 1 ? slides[1] : "")")
        #expect(slides.count == 4 && slides[2].contains("<desc>Its notes.\n"), "\(slides.count > 2 ? slides[2] : "")")

        // A failing test's diagram is a slide all the same; the failure is said and the exit is 1.
        try String(contentsOf: script, encoding: .utf8).replacingOccurrences(of: "toBe(\"-2-4-6|\")", with: "toBe(\"-2-4-7|\")")
            .write(to: script, atomically: true, encoding: .utf8)
        let failing = try CommandLineTests.flow(["slides", script.path, "--out", folder.appendingPathComponent("again").path, "--no-png"])
        #expect(failing.status == 1, "\(failing.err)")
        #expect(failing.err.contains("tests.flow:6:"), "\(failing.err)")
        #expect(try Self.slides(in: folder.appendingPathComponent("again")).count == 4)
    }

    @Test func titlesFromTheCallOrItsLanes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("short.flow")
        try """
            let a = cold("-a|")
            marbles(title: "Just one", a)
            # # A hash heading
            # its note
            marbles(a, a.map { $0 + "!" })
            marbles(a)
            """.write(to: script, atomically: true, encoding: .utf8)
        let result = try CommandLineTests.flow(["slides", script.path, "--out", folder.appendingPathComponent("deck").path, "--no-png"])
        #expect(result.status == 0, "\(result.err)")
        let titles = try Self.slides(in: folder.appendingPathComponent("deck")).compactMap {
            $0.firstMatch(of: #/class="ink slide-title"[^>]*>([^<]*)</text>/#).map { String($0.1) }
        }
        #expect(titles == ["Just one", "A hash heading", "a"], "\(titles)")
    }

    @Test func mistakesAreToldPlainly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = try CommandLineTests.flow(["slides", "examples/lesson.flow", "--out", folder.path, "--size", "big"])
        #expect(size.status == 2 && size.err.contains("--size takes a width and a height"), "\(size.err)")
        let script = folder.appendingPathComponent("none.flow")
        try "let a = just(1)\n".write(to: script, atomically: true, encoding: .utf8)
        let none = try CommandLineTests.flow(["slides", script.path, "--out", folder.appendingPathComponent("deck").path, "--no-png"])
        #expect(none.status == 1 && none.err.contains("draws no diagram"), "\(none.err)")
        let file = try CommandLineTests.flow(["slides", "examples/lesson.flow", "--out", script.path, "--no-png"])
        #expect(file.status == 2 && file.err.contains("not a folder"), "\(file.err)")
        let broken = folder.appendingPathComponent("broken.flow")
        try "marbles(cold(\"-a|\").mapp { $0 })\n".write(to: broken, atomically: true, encoding: .utf8)
        let syntax = try CommandLineTests.flow(["slides", broken.path, "--out", folder.appendingPathComponent("deck2").path, "--no-png"])
        #expect(syntax.status == 3 && syntax.err.contains("broken.flow:1:"), "\(syntax.err)")
    }
}
