import Foundation
import FlowMarbles
import FlowTestSupport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import FlowRuntime

/// The SVG checked as a viewer would: well-formed XML, and, rendered by a
/// real SVG renderer, each marble's colour where the layout put it.
@Suite struct SVGDiagramTests {
    static var rendererAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")
    }

    func diagram(_ lanes: [(String, String, [String: Value])]) throws -> SVGDiagram {
        let laneList = try lanes.map { label, marble, values in
            LaneDiagram.Lane(label: label, events: try MarbleParser.parseEvents(marble, values: values).events)
        }
        return SVGDiagram([LaneDiagram(lanes: laneList)])
    }

    func traced() throws -> SVGDiagram {
        let scheduler = VirtualScheduler()
        scheduler.tracer = Tracer()
        let source = try ColdStream("-a-b---|")
        source.label = "source"
        let inner = try ColdStream("-x-y|", values: ["x": "<x>", "y": "y & z"])
        inner.label = "inner"
        let latest = source.flatMapLatest(Function.unary { _ in .stream(inner) })
        latest.label = "flatMapLatest { _ in inner }"
        scheduler.tracer!.trace(latest)
        latest.subscribe(on: scheduler)
        scheduler.run()
        let lanes = TraceDiagram.lanes(from: scheduler.tracer!, subscriptions: true)
        return SVGDiagram(lanes.map { LaneDiagram(lanes: $0) })
    }

    @Test func wellFormedXML() throws {
        for svg in [try diagram([("a", "-a-b|", [:]), ("errors", "--#", [:])]), try traced()] {
            let parser = XMLParser(data: Data(svg.text.utf8))
            #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
            #expect(svg.text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        }
        #expect(try traced().text.contains("&lt;x&gt;"))
    }

    @Test(.enabled(if: rendererAvailable, "rsvg-convert is not installed (Debian's librsvg2-bin; .ci/run installs it)"))
    func marblesArePaintedWhereTheDiagramSaysTheyAre() throws {
        for svg in [try diagram([("numbers", "-1-2--3|", [:]), ("words", "--a---(bc)|", [:])]), try traced()] {
            #expect(!svg.marbles.isEmpty)
            // Upper left inside each marble: clear of its text and of a neighbour drawn over its right side.
            let pixels = try render(svg, at: svg.marbles.map { ($0.x - 7, $0.y - 9) } + [(2, 2)])
            for (marble, pixel) in zip(svg.marbles, pixels) {
                let expected = Self.rgb(marble.fill)
                let close = zip(pixel, expected).allSatisfy { abs($0 - $1) <= 24 }
                #expect(close, "marble at (\(marble.x), \(marble.y)) should be \(marble.fill), is \(pixel)")
            }
            #expect(pixels.last == [255, 255, 255], "the background is white")
        }
    }

    /// Every mark is drawn at its time: events of one instant share an x,
    /// stacked in their order, and no marble hides another.
    @Test func eventsOfOneInstantStackAtTheirTime() throws {
        let svg = try diagram([("grouped", "-(abc)-[de]f|", [:]), ("plain", "-a-b|", [:])])
        for (i, a) in svg.marbles.enumerated() {
            for b in svg.marbles[(i + 1)...] {
                #expect(abs(a.x - b.x) >= 2 * SVGDiagram.marbleRadius || abs(a.y - b.y) >= 2 * SVGDiagram.marbleRadius,
                        "marbles at (\(a.x), \(a.y)) and (\(b.x), \(b.y)) overlap")
            }
        }
        // a, b and c of frame 1 at one x, b and c below a; plain's a at frame 1 too.
        let frame1 = svg.marbles.filter { $0.x == svg.marbles[0].x }
        #expect(frame1.count == 4)
        let grouped = frame1.prefix(3).map(\.y)
        #expect(grouped == grouped.sorted() && Set(grouped).count == 3)
    }

    /// The SVG's marks read back as times: each mark's x, from its `data-t`
    /// frame, is where that frame's tick is. `reduce` over `---|` gives
    /// `(0|)` at frame 3, under the source's `|` (it was drawn a frame and
    /// a half later, inside its group's brackets).
    @Test func marksAreAtTheirTimes() throws {
        let svg = try diagram([("src", "---|", [:]), ("total", "---(0|)", [:]), ("ticks", "a----b----c", [:])]).text
        var xByFrame: [Int: Set<String>] = [:]
        for match in svg.matches(of: #/(?:cx|x1)="([0-9.]+)"[^>]*data-t="(\d+)"/#) {
            xByFrame[Int(match.2)!, default: []].insert(String(match.1))
        }
        #expect(xByFrame[3]?.count == 1, "\(xByFrame)")
        #expect(xByFrame[0]?.count == 1 && xByFrame[5]?.count == 1 && xByFrame[10]?.count == 1)
        // One frame is one column width, and the tick for 5ms is at frame 5's x.
        let x0 = Double(xByFrame[0]!.first!)!, x5 = Double(xByFrame[5]!.first!)!
        #expect(x5 - x0 == 5 * SVGDiagram.columnWidth)
        let ticks = svg.matches(of: #/<line x1="([0-9.]+)" y1="[0-9.]+" x2="[0-9.]+" y2="[0-9.]+" class="axis" stroke-width="1"/>/#).map { Double($0.1)! }
        #expect(ticks.contains(x0) && ticks.contains(x5), "\(ticks)")
    }

    /// A long wait between close events is not squeezed into one column:
    /// the axis breaks there (two slashes and the time left out), the
    /// events keep an x of their own each, and the axis is linear on
    /// either side of the break.
    @Test func aLongWaitBreaksTheAxisAndNoEventsShareAnX() throws {
        let lanes = [("src", "ab 10s c-d|", [String: Value]()), ("burst", "-xyz 995ms w|", [:])]
        let laneList = try lanes.map { LaneDiagram.Lane(label: $0.0, events: try MarbleParser.parseEvents($0.1, values: $0.2).events) }
        let svg = SVGDiagram([LaneDiagram(lanes: laneList)])
        let geometry = SVGGeometry(svg.text)
        // After frame 3 (z) until 999 (w), and after 1000 (w's end) until 10002 (c).
        #expect(geometry.axisBreaks == ["995ms", "9.001s"], "\(geometry.axisBreaks)")
        #expect(svg.text.contains("left out of the axis"))
        Self.expectNoTwoTimesShareAnX(geometry, laneList)
        // Before the first break, a frame is a column.
        let beforeBreak = geometry.marks.filter { $0.lane == 1 && $0.event < 3 }.map(\.x)
        #expect(zip(beforeBreak, beforeBreak.dropFirst()).allSatisfy { abs($1 - $0 - SVGDiagram.columnWidth) < 0.01 }, "\(beforeBreak)")
    }

    /// No two tick labels of an axis overlap, at either text size: after a
    /// break the axis resumes at any frame, and the next tick may be one
    /// frame on (2.009s, then 2.01s), so one of them goes unwritten.
    @Test func noTwoTickLabelsOverlap() throws {
        var checked = 0
        for wait in stride(from: 1990, through: 2012, by: 1) {
            let lane = LaneDiagram.Lane(label: "src", events: try MarbleParser.parseEvents("-a \(wait)ms b-c-d|", values: [:]).events)
            for smallest in [10.0, 12.0] {
                let svg = SVGDiagram([LaneDiagram(lanes: [lane])], smallestText: smallest).text
                #expect(!SVGGeometry(svg).axisBreaks.isEmpty, "\(wait)ms")
                // Each tick label's box along the axis: its middle, half its width either side.
                let labels = svg.matches(of: #/<text x="([0-9.]+)" y="([0-9.]+)" text-anchor="middle" class="muted" font-size="([0-9.]+)">([^<]*)</text>/#)
                    .map { (x: Double($0.1)!, y: Double($0.2)!, half: Double($0.4.count) * 0.602 * Double($0.3)! / 2, text: String($0.4)) }
                #expect(labels.count >= 2, "\(wait)ms: \(labels)")
                for (left, right) in zip(labels, labels.dropFirst()) where left.y == right.y {
                    #expect(left.x + left.half < right.x - right.half, "\(wait)ms at \(smallest): \(left.text) overlaps \(right.text)")
                    checked += 1
                }
            }
        }
        #expect(checked > 40)
    }

    /// Marks of events at different times never share an x, in any lane
    /// of any diagram (marks of one instant do).
    static func expectNoTwoTimesShareAnX(_ geometry: SVGGeometry, _ lanes: [LaneDiagram.Lane], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let timed = geometry.marks.map { (x: $0.x, time: lanes[$0.lane].events[$0.event].time) }
        for a in timed {
            for b in timed where a.time != b.time {
                #expect(abs(a.x - b.x) >= SVGDiagram.columnWidth - 0.01, "events at \(a.time) and \(b.time) drawn at x \(a.x) and \(b.x)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// The picture reads as words to a screen reader: an image with a
    /// title and a description telling each lane's events and times.
    @Test func thePictureIsDescribedInWords() throws {
        var inner = LaneDiagram.Lane(label: "  ↳ for a", events: try MarbleParser.parseEvents("---x").events, start: .milliseconds(Int64(1)))
        inner.cancelled = .milliseconds(Int64(5))
        let lanes = [LaneDiagram.Lane(label: "balance", events: try MarbleParser.parseEvents("a----b---|", values: ["a": 5, "b": 25]).events),
                     LaneDiagram.Lane(label: "failing", events: try MarbleParser.parseEvents("--#", error: "timeout").events), inner]
        let svg = SVGDiagram([LaneDiagram(lanes: lanes)], title: "account").text
        let root = try #require(SVGGeometry.elements(svg).first { $0.name == "svg" })
        #expect(root.attributes["role"] == "img")
        #expect(svg.contains("<title>account</title>"))
        let description = try #require(svg.firstMatch(of: #/<desc>([^<]*)</desc>/#)).1
        #expect(description.split(separator: "\n").map(String.init) == [
            "balance: 5 at 0, 25 at 5, completes at 9",
            "failing: fails with timeout at 2",
            "↳ for a: starts at 1, x at 3, cancelled at 5",
        ], "\(description)")
    }

    /// A lane's line stops where its stream ended: at its `|`, its `#`, or
    /// the bar where it was cancelled; an open lane runs on, with an arrow.
    /// Inner streams (starting late) too, and a group `(c|)` ends at its
    /// instant, not after its brackets.
    @Test func aLanesLineEndsWhereItsStreamEnded() throws {
        var lanes = try [("done", "-a-b|"), ("failed", "-a#"), ("open", "-a-b"), ("grouped", "-a-(c|)"), ("cut", "-a-b")].map {
            LaneDiagram.Lane(label: $0.0, events: try MarbleParser.parseEvents($0.1).events)
        }
        lanes[4].cancelled = .milliseconds(Int64(5))
        lanes.append(LaneDiagram.Lane(label: "  ↳ inner", events: try MarbleParser.parseEvents("----x-(y|)").events, start: .milliseconds(Int64(3))))
        lanes.append(LaneDiagram.Lane(label: "  ↳ cut inner", events: try MarbleParser.parseEvents("----x").events, start: .milliseconds(Int64(2)),
                                      cancelled: .milliseconds(Int64(6))))
        lanes.append(LaneDiagram.Lane(label: "after", events: try MarbleParser.parseEvents("------------z|").events))
        let svg = SVGDiagram([LaneDiagram(lanes: lanes)]).text
        let geometry = SVGGeometry(svg)
        #expect(geometry.laneLines.count == lanes.count)
        for line in geometry.laneLines {
            let lane = lanes[line.lane]
            let marks = geometry.marks.filter { $0.lane == line.lane }
            switch line.ends {
            case "completed", "error":
                let terminal = try #require(marks.first { $0.event == lane.events.count - 1 })
                #expect(abs(line.x2 - terminal.x) < 0.01, "\(lane.label) ends at \(line.x2), its terminal is at \(terminal.x)")
            case "cancelled":
                let bar = try #require(geometry.cancellations.first { $0.lane == line.lane })
                #expect(abs(line.x2 - bar.x) < 0.01, "\(lane.label) ends at \(line.x2), cancelled at \(bar.x)")
            default:
                #expect(lane.label == "open", "\(lane.label) is drawn open")
                #expect(line.x2 > (geometry.marks.map(\.x).max() ?? 0), "an open lane runs on past every event")
            }
        }
        #expect(geometry.laneLines.map(\.ends) == ["completed", "error", "open", "completed", "cancelled", "completed", "cancelled", "completed"])
        // The cancellation is at its time: under frame 5 of the lanes above.
        let frame5 = try #require(geometry.marks.first { $0.lane == 0 && $0.event == 0 }).x + 4 * SVGDiagram.columnWidth
        #expect(abs(geometry.cancellations.first { $0.lane == 4 }!.x - frame5) < 0.01)
    }

    /// The geometry a page reads to place an answer's marbles: each
    /// column's x from time 0 to the right edge, each lane's band, and a
    /// marked time.
    @Test func thePictureSaysWhereItsColumnsAndLanesAre() throws {
        let lanes = [LaneDiagram.Lane(label: "in", events: try MarbleParser.parseEvents("-1-2|").events), LaneDiagram.Lane(label: "answer", events: [])]
        let svg = SVGDiagram([LaneDiagram(lanes: lanes)], reaching: .milliseconds(Int64(12)),
                             marked: SVGDiagram.Marked(diagram: 0, lanes: 1..<2, time: .milliseconds(Int64(3)), note: "here"))
        let columns = try #require(svg.columnCenters.first)
        #expect(columns.count >= 13, "\(columns)")
        #expect(zip(columns, columns.dropFirst()).allSatisfy { abs($1 - $0 - SVGDiagram.columnWidth) < 0.001 }, "\(columns)")
        let bands = try #require(svg.laneBands.first)
        #expect(bands.count == 2 && bands[0].bottom <= bands[1].top)
        let marked = try #require(svg.text.firstMatch(of: #/<rect x="([0-9.]+)" y="([0-9.]+)"[^>]*class="difference" data-t="3"/#))
        #expect(abs(Double(marked.1)! + SVGDiagram.columnWidth / 2 - columns[3]) < 0.01)
        #expect(Double(marked.2)! >= bands[1].top)
    }

    /// Values are written in their marbles when all fit; when one does not,
    /// every marble shows its symbol and the legend says what it stands for.
    @Test func oneRuleForValuesInTheWholePicture() throws {
        let small = try diagram([("n", "-1-2-3|", [:]), ("s", "-a-b|", ["a": "ok", "b": "no"])]).text
        #expect(small.contains(">ok</text>") && small.contains(">3</text>"))
        #expect(!small.contains(" = "), "no legend when every value fits")
        let wide = try diagram([("n", "-1-2-3|", [:]), ("s", "-a-b|", ["a": "swi", "b": "no"])]).text
        #expect(!wide.contains(">swi</text>") && !wide.contains(">no</text>"), "no value spills out of its marble")
        #expect(wide.contains(#"<text x="12" y="#) && wide.contains(#"class="muted legend"><tspan>a = &quot;swi&quot;,</tspan> <tspan>b = &quot;no&quot;</tspan></text>"#),
                "the legend, as XML text, an entry a tspan")
        #expect(wide.contains(">1</text>"), "a value that reads as itself keeps its symbol")
    }

    /// Two minutes of a one-second interval fit a screen, with no empty
    /// right part; `width` scales the picture to a slide's width.
    @Test func theWidthFitsTheContent() throws {
        let events = (1...120).map { TimedEvent(.seconds(Double($0)), .next(.int($0 % 10))) }
        let svg = SVGDiagram([LaneDiagram(lanes: [LaneDiagram.Lane(label: "ticks", events: events)])])
        // A marble per second, each in a column of its own.
        #expect(svg.width < 3800, "\(svg.width)")
        let last = try #require(svg.marbles.last)
        #expect(svg.width - last.x < 120, "the last marble at \(last.x) of \(svg.width)")
        let slide = SVGDiagram([LaneDiagram(lanes: [LaneDiagram.Lane(label: "ticks", events: events)])], width: 1280)
        #expect(slide.text.contains(#"width="1280""#))
        #expect(slide.text.contains("viewBox=\"0 0 \(Int(svg.width.rounded(.up)))"))
    }

    /// A stage's label cut to fit keeps its whole text in a `<title>`;
    /// one that fits has none.
    @Test func aCutLabelKeepsItsWholeTextOnHover() throws {
        let whole = #"results = flatMapLatest { query in http.get("https://example.test/search?q=\(query)").map { $0.body } }"#
        var stage = LaneDiagram.Lane(label: whole, events: [TimedEvent(.milliseconds(Int64(1)), .next("a"))])
        stage.isStage = true
        let svg = SVGDiagram([LaneDiagram(lanes: [LaneDiagram.Lane(label: "query", events: []), stage])]).text
        #expect(svg.contains("<title>" + XML.escape(whole) + "</title>"))
        #expect(svg.contains("…</text>"))
        let short = SVGDiagram([LaneDiagram(lanes: [LaneDiagram.Lane(label: "query", events: [])])]).text
        #expect(!short.contains("<title>query"))
    }

    /// An inner stream slants from where it started; in a live run's
    /// growing picture it is level.
    @Test func innerStreamsSlantUnlessTheyGrow() throws {
        let inner = LaneDiagram.Lane(label: "  ↳ for a", events: [TimedEvent(.milliseconds(Int64(3)), .next("x"))], start: .milliseconds(Int64(1)))
        let lanes = [LaneDiagram.Lane(label: "outer", events: [TimedEvent(.milliseconds(Int64(1)), .next("a"))]), inner]
        func innerLine(_ svg: String) throws -> (Double, Double) {
            let lines = svg.split(separator: "\n").filter { $0.contains(#"class="line" stroke-width="2""#) }
            let line = try #require(lines.last)
            func attribute(_ name: String) -> Double {
                let start = line.range(of: name + "=\"")!.upperBound
                return Double(line[start...].prefix { $0 != "\"" })!
            }
            return (attribute("y1"), attribute("y2"))
        }
        let slanted = try innerLine(SVGDiagram([LaneDiagram(lanes: lanes)]).text)
        #expect(slanted.0 < slanted.1)
        let level = try innerLine(SVGDiagram([LaneDiagram(lanes: lanes)], straightInnerStreams: true).text)
        #expect(level.0 == level.1)
    }

    @Test func eachValueHasItsOwnColour() throws {
        let events = (0..<30).map { TimedEvent(.milliseconds(Int64($0)), .next(.int(100 + $0))) }
        let svg = SVGDiagram([LaneDiagram(lanes: [LaneDiagram.Lane(label: "values", events: events + events.map {
            TimedEvent($0.time + .milliseconds(Int64(40)), $0.event) })])])
        #expect(Set(svg.marbles.map(\.fill)).count == 30)
        // A value has the same colour wherever it is drawn.
        #expect(svg.marbles[0].fill == svg.marbles[30].fill)
    }

    @Test func titlesThemesAndCancelledLanes() throws {
        var diagramWithTitle = LaneDiagram(lanes: [LaneDiagram.Lane(label: "cut\nshort", events: [TimedEvent(.milliseconds(Int64(1)), .next("a"))],
                                                                   cancelled: .milliseconds(Int64(3)))])
        diagramWithTitle.title = "the lesson"
        let svg = SVGDiagram([diagramWithTitle], title: "lesson.flow")
        #expect(svg.text.contains(">lesson.flow</text>"))
        #expect(svg.text.contains(">the lesson</text>"))
        #expect(svg.text.contains("prefers-color-scheme: dark"))
        #expect(svg.text.contains("<title>cancelled</title>"))
        #expect(svg.text.contains(">cut short</text>"))
    }

    /// Renders `svg` to PNG with rsvg-convert and reads back the RGB of
    /// the given points (with Python's zlib: PNG rows are deflated).
    func render(_ svg: SVGDiagram, at points: [(Double, Double)]) throws -> [[Int]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgFile = folder.appendingPathComponent("d.svg"), pngFile = folder.appendingPathComponent("d.png")
        try svg.text.write(to: svgFile, atomically: true, encoding: .utf8)
        try run("/usr/bin/rsvg-convert", [svgFile.path, "-o", pngFile.path])
        let coordinates = points.map { "\(Int($0.0.rounded())),\(Int($0.1.rounded()))" }.joined(separator: " ")
        let output = try run("/usr/bin/env", ["python3", "-c", Self.pngReader, pngFile.path, coordinates])
        return output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
    }

    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments) failed")
        return String(decoding: data, as: UTF8.self)
    }

    static func rgb(_ hex: String) -> [Int] {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
    }

    /// Prints "r g b" per point of an 8-bit RGB or RGBA, non-interlaced PNG.
    static let pngReader = PNGPixels.reader + """
        width, channels, pixels = rows(sys.argv[1])
        for point in sys.argv[2].split():
            x, y = map(int, point.split(','))
            pixel = pixels[y][x * channels:x * channels + 3]
            if channels == 4 and pixels[y][x * channels + 3] == 0: pixel = bytes([255, 255, 255])
            print(*pixel)
        """
}
