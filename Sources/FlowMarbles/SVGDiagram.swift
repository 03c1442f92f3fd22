import FlowRuntime

/// A lane diagram as a standalone SVG, in the ReactiveX convention: time
/// runs left to right along arrows, values are coloured marbles, a bar is
/// completion, an X is an error; a traced stage sits under a box naming its
/// operator, and inner streams are drawn slanted from where they started.
public struct SVGDiagram {
    public static let columnWidth = 32.0
    public static let laneHeight = 56.0
    public static let boxHeight = 34.0
    public static let marbleRadius = 13.0
    public static let palette = ["#f6c343", "#7fc97f", "#6baed6", "#fd8d3c", "#bc80bd", "#fb9a99", "#a6cee3", "#b2df8a"]

    /// Where something was drawn, for tests that look at the rendered picture.
    public struct Marble {
        public var x: Double
        public var y: Double
        public var fill: String
    }

    public private(set) var marbles: [Marble] = []
    public private(set) var width = 0.0
    public private(set) var height = 0.0
    private var body: [String] = []

    /// Lays out `diagrams` one under the other.
    public init(_ diagrams: [LaneDiagram], title: String = "flow marble diagram") {
        var y = 16.0
        let labelChars = diagrams.flatMap(\.lanes).map(\.label.count).max() ?? 0
        let left = Double(labelChars) * 7.3 + 24
        for diagram in diagrams {
            y = draw(diagram, left: left, top: y) + 12
        }
        height = y + 8
        body.insert("<title>\(Self.escape(title))</title>", at: 0)
        _ = title
    }

    /// The SVG document.
    public var text: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width.rounded(.up)))" height="\(Int(height.rounded(.up)))" \
        viewBox="0 0 \(Int(width.rounded(.up))) \(Int(height.rounded(.up)))" font-family="DejaVu Sans Mono, Menlo, monospace" font-size="12">
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body.joined(separator: "\n"))
        </svg>

        """
    }

    private mutating func draw(_ diagram: LaneDiagram, left: Double, top: Double) -> Double {
        let rendered = diagram.render()
        let frame = rendered.frame
        let columns = Double(rendered.marbles.map(\.count).max() ?? 1) + 2
        let right = left + 16 + columns * Self.columnWidth
        width = Swift.max(width, right + 24)
        func x(_ time: TimeSpan) -> Double { left + 16 + Double(time.nanoseconds) / Double(frame.nanoseconds) * Self.columnWidth }

        var colors: [Character: String] = [:]
        var legend = MarbleLegend()
        var y = top
        var previousY: Double?
        for lane in diagram.lanes {
            if lane.isStage {
                body.append(##"<rect x="\##(f(left))" y="\##(f(y))" width="\##(f(right - left))" height="\##(f(Self.boxHeight - 8))" rx="4" fill="#f4f4f4" stroke="#555555"/>"##)
                body.append(##"<text x="\##(f((left + right) / 2))" y="\##(f(y + (Self.boxHeight - 8) / 2 + 4))" text-anchor="middle">\##(Self.escape(lane.label))</text>"##)
                y += Self.boxHeight
            }
            let mid = y + Self.laneHeight / 2
            if !lane.isStage {
                body.append(##"<text x="8" y="\##(f(mid + 4))" fill="#333333">\##(Self.escape(String(lane.label.trimmingCharacters(in: " "))))</text>"##)
            }
            if lane.isSubscription {
                drawSubscription(lane, x: x, y: mid, right: right)
            } else if let start = lane.start {
                drawInner(lane, start: x(start), x: x, y: mid, right: right, parentY: previousY, colors: &colors, legend: &legend)
            } else {
                drawLine(from: left, to: right, y: mid)
                drawEvents(lane.events, x: x, y: { _ in mid }, colors: &colors, legend: &legend)
            }
            if !lane.isSubscription && lane.start == nil { previousY = mid }
            y += Self.laneHeight
        }
        // Values of up to three characters are printed in their marbles.
        var notes = rendered.legend.filter { $0.value.description.count > 3 }.map { "\($0.symbol) = \($0.value.literal)" }
        if let error = rendered.error { notes.append("# = \(error.value.literal)") }
        if frame != MarbleParser.frame { notes.append("one column = \(frame)") }
        for note in notes {
            body.append(##"<text x="8" y="\##(f(y + 12))" fill="#333333">\##(Self.escape(note))</text>"##)
            y += 16
        }
        return y
    }

    private mutating func drawLine(from x1: Double, to x2: Double, y: Double, y2: Double? = nil) {
        let end = y2 ?? y
        body.append(##"<line x1="\##(f(x1))" y1="\##(f(y))" x2="\##(f(x2))" y2="\##(f(end))" stroke="#222222" stroke-width="2"/>"##)
        // The arrowhead, pointing along the line.
        let angle = (end - y) / Swift.max(1, x2 - x1)
        let back = x2 - 10, wing = 5.0
        body.append(##"<polygon points="\##(f(x2)),\##(f(end)) \##(f(back)),\##(f(end - 10 * angle - wing)) \##(f(back)),\##(f(end - 10 * angle + wing))" fill="#222222"/>"##)
    }

    private mutating func drawEvents(
        _ events: [TimedEvent], x: (TimeSpan) -> Double, y: (Double) -> Double,
        colors: inout [Character: String], legend: inout MarbleLegend
    ) {
        var previous: (time: TimeSpan, count: Int)?
        for event in events {
            // Events of one instant sit side by side.
            let nudge = previous?.time == event.time ? Double(previous!.count) * 10 : 0
            previous = (event.time, previous?.time == event.time ? previous!.count + 1 : 1)
            let cx = x(event.time) + nudge, cy = y(cx)
            switch event.event {
            case .next(let value):
                let symbol = legend.symbol(for: value)
                let fill = colors[symbol] ?? Self.palette[colors.count % Self.palette.count]
                colors[symbol] = fill
                let shown = value.description.count <= 3 ? value.description : String(symbol)
                body.append(##"<circle cx="\##(f(cx))" cy="\##(f(cy))" r="\##(f(Self.marbleRadius))" fill="\##(fill)" stroke="#222222" stroke-width="1.5"/>"##)
                body.append(##"<text x="\##(f(cx))" y="\##(f(cy + 4))" text-anchor="middle">\##(Self.escape(shown))</text>"##)
                marbles.append(Marble(x: cx, y: cy, fill: fill))
            case .completed:
                body.append(##"<line x1="\##(f(cx))" y1="\##(f(cy - 14))" x2="\##(f(cx))" y2="\##(f(cy + 14))" stroke="#222222" stroke-width="3"/>"##)
            case .error:
                let r = 9.0
                body.append(##"<path d="M\##(f(cx - r)),\##(f(cy - r)) L\##(f(cx + r)),\##(f(cy + r)) M\##(f(cx - r)),\##(f(cy + r)) L\##(f(cx + r)),\##(f(cy - r))" stroke="#d62728" stroke-width="3"/>"##)
            }
        }
    }

    /// An inner stream: slanted from just under the stage that started it.
    private mutating func drawInner(
        _ lane: LaneDiagram.Lane, start: Double, x: (TimeSpan) -> Double, y mid: Double, right: Double, parentY: Double?,
        colors: inout [Character: String], legend: inout MarbleLegend
    ) {
        let end = lane.cancelled.map(x) ?? (lane.events.last.map { x($0.time) + 24 } ?? start + 48)
        let fromY = mid - 14, toY = mid + 10
        let slope = (toY - fromY) / Swift.max(1, end - start)
        drawLine(from: start, to: Swift.min(end, right), y: fromY, y2: fromY + slope * (Swift.min(end, right) - start))
        drawEvents(lane.events, x: x, y: { fromY + slope * ($0 - start) }, colors: &colors, legend: &legend)
        if let cancelled = lane.cancelled {
            let cx = x(cancelled), cy = fromY + slope * (cx - start)
            body.append(##"<line x1="\##(f(cx - 6))" y1="\##(f(cy - 10))" x2="\##(f(cx + 6))" y2="\##(f(cy + 10))" stroke="#888888" stroke-width="2" stroke-dasharray="3,2"><title>cancelled</title></line>"##)
        }
        _ = parentY
    }

    /// `^` … `!`: a bracket under the time the source was subscribed.
    private mutating func drawSubscription(_ lane: LaneDiagram.Lane, x: (TimeSpan) -> Double, y: Double, right: Double) {
        let from = x(lane.start ?? .zero), to = lane.cancelled.map(x) ?? right
        body.append(##"<path d="M\##(f(from)),\##(f(y - 8)) L\##(f(from)),\##(f(y)) L\##(f(to)),\##(f(y))\##(lane.cancelled == nil ? "" : " L\(f(to)),\(f(y - 8))")" fill="none" stroke="#888888" stroke-width="2"><title>subscribed</title></path>"##)
    }

    private func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String { XML.escape(text) }
}
