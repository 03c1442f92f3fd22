import FlowRuntime

/// A lane diagram as a standalone SVG, in the ReactiveX convention: time
/// runs left to right along arrows, values are coloured marbles, a bar is
/// completion, an X is an error; a traced stage sits under a box naming its
/// operator, and inner streams are drawn slanted from where they started.
///
/// Marbles sit at their instants on the time axis of the text diagram
/// (`LanePlacement`), every lane on that one axis: an event at frame 3 is
/// under the tick labelled 3, and events of one instant (a group `(0|)`)
/// stack there in their order, the lane as tall as its deepest stack. The image is as wide as its
/// content (or scaled to `width`), follows the viewer's light or dark
/// theme, and gives each value a colour of its own.
public struct SVGDiagram {
    public static let columnWidth = 28.0
    public static let laneHeight = 52.0
    public static let boxHeight = 34.0
    public static let marbleRadius = 12.0
    /// How far each further event of one instant sits below the one before.
    public static let stackStep = 28.0
    /// The height of a label drawn above its lane.
    static let labelLine = 12.0
    /// The width of one column of 12 px monospaced text.
    static let characterWidth = 7.3
    /// A monospaced character's width, in ems (DejaVu Sans Mono's is 0.602).
    static let monospaceAdvance = 0.61

    /// Where something was drawn, for tests that look at the rendered picture.
    public struct Marble {
        public var x: Double
        public var y: Double
        public var fill: String
    }

    public private(set) var marbles: [Marble] = []

    /// A lane's place from top to bottom, in the picture's units.
    public struct Band: Sendable, Codable {
        public var top: Double
        public var bottom: Double

        public init(top: Double, bottom: Double) {
            self.top = top
            self.bottom = bottom
        }
    }
    /// Where each diagram's lanes were drawn, lane by lane: a page that
    /// lets a learner place marbles on a lane finds it here.
    public private(set) var laneBands: [[Band]] = []
    /// The x of each of a diagram's columns of time, from time 0 to the
    /// last drawn: a click on the picture reads back as a time.
    public private(set) var columnCenters: [[Double]] = []
    /// Each diagram's time per column.
    public private(set) var columnTimes: [TimeSpan] = []
    /// The picture in words, a line per lane ("balance: 5 at 0, 25 at 5,
    /// completes at 9"), for a screen reader: the SVG's `<desc>`.
    public private(set) var description = ""
    /// Where each diagram was drawn, from its title or axis to its legend:
    /// a page showing one diagram at a time shows this band of the picture.
    public private(set) var diagramBands: [Band] = []

    /// A time to point at across some lanes of one diagram: the first
    /// difference between an answer and the right lane.
    public struct Marked {
        public var diagram: Int
        public var lanes: Range<Int>
        public var time: TimeSpan
        public var note: String

        public init(diagram: Int, lanes: Range<Int>, time: TimeSpan, note: String) {
            self.diagram = diagram
            self.lanes = lanes
            self.time = time
            self.note = note
        }
    }
    private var marked: Marked?
    /// Every diagram's axis reaches at least this time.
    private var reaching: TimeSpan?
    /// The picture's own size; `scaledWidth` is the size it is shown at.
    public private(set) var width = 0.0
    public private(set) var height = 0.0
    public let title: String
    private var scaledWidth: Double?
    private var body: [String] = []
    /// A colour per value, in the order values first appear.
    private var colors: [Value: String] = [:]
    /// The diagram being drawn, for the marks' `data-` attributes.
    private var diagramIndex = 0
    /// One rule for the whole picture: values are written in their marbles
    /// when every one fits (two columns), else every marble shows its lane
    /// symbol and the legend says what each stands for. Never a mix, never
    /// text spilling out of a marble.
    private var valuesInside = true
    /// Inner streams level, not slanting (a live run's growing picture).
    private var straightInnerStreams = false
    /// Each lane's label on a line of its own above it, so that the lanes
    /// have the whole width (a narrow slide), rather than in a column at
    /// their left.
    private var labelsAbove = false
    /// The size of the axis's labels, the smallest text drawn.
    private var smallText = 10.0
    /// The smallest text of the picture, in its own units: what a slide
    /// scales to a legible size.
    public var smallestFontSize: Double { smallText }
    static let widestValueInside = 2

    /// Lays out `diagrams` one under the other, under `title`; `width`
    /// scales the picture to that many pixels (a slide's width). With
    /// `straightInnerStreams` (a live run's picture, which grows as it
    /// runs), inner streams are level rather than slanting from where they
    /// started to where they ended.
    ///
    /// `reaching` draws every axis and open lane at least to that time
    /// (room to place an answer's marbles); `marked` points at a time
    /// across some lanes.
    ///
    /// `heading: false` leaves the title out of the picture (a slide draws
    /// its own); `smallestText` sets the size of the smallest text (the
    /// axis's labels), which a picture to be scaled down wants larger.
    /// `firstDiagramNumber` numbers the diagrams' marks from there (a
    /// slide shows one diagram of a lesson).
    public init(_ diagrams: [LaneDiagram], title: String = "flow marble diagram", width: Double? = nil,
                straightInnerStreams: Bool = false, reaching: TimeSpan? = nil, marked: Marked? = nil,
                heading: Bool = true, smallestText: Double = 10, labelsAbove: Bool = false, firstDiagramNumber: Int = 0) {
        self.title = title
        self.straightInnerStreams = straightInnerStreams
        self.reaching = reaching
        self.marked = marked
        self.smallText = smallestText
        var y = 12.0
        if heading {
            body.append(##"<text x="12" y="\##(f(y + 14))" class="ink" font-size="15" font-weight="bold">\##(Self.escape(title))</text>"##)
            self.width = 24 + Double(title.terminalColumns) * 9
            y += 28
        } else {
            y += 4
        }
        valuesInside = diagrams.flatMap(\.lanes).allSatisfy { lane in
            lane.events.allSatisfy { event in
                guard case .next(let value) = event.event else { return true }
                return value.description.terminalColumns <= Self.widestValueInside
            }
        }
        let labels = diagrams.flatMap(\.lanes).filter { !$0.isStage }.map { LaneDiagram.displayLabel($0.label) }
        self.labelsAbove = labelsAbove
        let left = labelsAbove ? 12 : Double(labels.map(\.terminalColumns).max() ?? 0) * Self.characterWidth + 24
        for (index, diagram) in diagrams.enumerated() {
            diagramIndex = firstDiagramNumber + index
            let top = y
            description += (description.isEmpty ? "" : "\n") + Self.words(diagram)
            y = draw(diagram, left: left, top: y) + 16
            diagramBands.append(Band(top: Swift.max(0, top - 8), bottom: y - 8))
        }
        height = y
        scaledWidth = width.map { Swift.max(1, $0) }
    }

    /// The SVG document.
    public var text: String {
        let (w, h) = (Int(width.rounded(.up)), Int(height.rounded(.up)))
        let shown = scaledWidth.map { (Int($0.rounded()), Int((height * $0 / width).rounded(.up))) } ?? (w, h)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(shown.0)" height="\(shown.1)" viewBox="0 0 \(w) \(h)" \
            font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12" role="img">
            <title>\(Self.escape(title))</title>
            <desc>\(Self.escape(description))</desc>
            <style>
            \(Self.style)
            </style>
            <rect width="100%" height="100%" class="bg"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// The picture as an element of another SVG (a slide), placed in the
    /// box `x`, `y`, `width`, `height` and scaled to fit it, keeping its
    /// proportions.
    public func element(x: Double, y: Double, width boxWidth: Double, height boxHeight: Double) -> String {
        let (w, h) = (Int(width.rounded(.up)), Int(height.rounded(.up)))
        return """
            <svg x="\(f(x))" y="\(f(y))" width="\(f(boxWidth))" height="\(f(boxHeight))" viewBox="0 0 \(w) \(h)" \
            preserveAspectRatio="xMinYMin meet" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="12">
            \(body.joined(separator: "\n"))
            </svg>
            """
    }

    /// The classes the picture's marks use, light and dark: a slide that
    /// holds pictures includes them once.
    public static let style = """
        .bg { fill: #ffffff } .ink { fill: #222222 } .muted { fill: #555555 } .line { stroke: #222222 } .arrow { fill: #222222 }
        .box { fill: #f4f4f4; stroke: #555555 } .axis { stroke: #bbbbbb } .cancel { stroke: #888888 }
        .emoji { font-family: "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "DejaVu Sans Mono", monospace }
        @media (prefers-color-scheme: dark) {
          .bg { fill: #1e1e1e } .ink { fill: #e8e8e8 } .muted { fill: #b0b0b0 } .line { stroke: #dddddd } .arrow { fill: #dddddd }
          .box { fill: #2c2c2c; stroke: #aaaaaa } .axis { stroke: #555555 } .cancel { stroke: #aaaaaa }
        }
        """

    private mutating func draw(_ diagram: LaneDiagram, left: Double, top: Double) -> Double {
        // Marbles are drawn in the places of the symbolic lanes, whatever
        // the terminal asked for.
        var symbolic = diagram
        symbolic.options.wide = false
        symbolic.options.color = false
        let rendered = symbolic.render()
        guard let placement = rendered.placement else {
            laneBands.append([])
            columnCenters.append([])
            columnTimes.append(rendered.frame)
            return top
        }
        let reachedColumn = reaching.flatMap { placement.column(of: LaneDiagram.column($0, frame: rendered.frame, rounding: false)) } ?? 0
        let columns = Double(Swift.max(rendered.marbles.map(\.terminalColumns).max() ?? 1, reachedColumn + 1)) + 1
        let origin = left + 12
        let right = origin + columns * Self.columnWidth + 16
        func x(_ column: Int) -> Double { origin + (Double(column) + 0.5) * Self.columnWidth }
        // A time inside a stretch left out of the axis is drawn inside its break.
        func x(frame: Int64) -> Double { origin + (placement.position(of: frame) + 0.5) * Self.columnWidth }
        // Every frame up to the right edge, for reading a click back as a
        // time; inside a gap written as a time progression, the frame
        // before it (that stretch has no column of its own).
        var centers: [Double] = []
        var lastColumn = 0
        for frame in Int64(0)... {
            let column = placement.column(of: frame) ?? lastColumn
            lastColumn = column
            guard x(column) < right - 16, centers.count < 100_000 else { break }
            centers.append(x(column))
        }
        columnCenters.append(centers)
        columnTimes.append(rendered.frame)
        var bands: [Band] = []
        defer { laneBands.append(bands) }
        // Times in columns as the text lanes count them (to the nearest
        // column for times read from the wall clock).
        func x(_ time: TimeSpan) -> Double {
            x(frame: LaneDiagram.column(time, frame: rendered.frame, rounding: symbolic.options.roundsToNearestFrame))
        }
        var y = top
        var widest = right + 16
        if let title = diagram.title {
            body.append(##"<text x="12" y="\##(f(y + 12))" class="ink\##(Self.emojiClass(title).isEmpty ? "" : " emoji")" font-size="13" font-weight="bold">\##(Self.escape(title))</text>"##)
            widest = Swift.max(widest, 24 + Double(title.terminalColumns) * 8)
            y += 20
        }
        // The time axis, in real units.
        y = drawAxis(rendered, placement: placement, x: { x(frame: $0) }, from: origin, to: right, y: y)
        let lanesTop = y
        for (index, lane) in diagram.lanes.enumerated() {
            if lane.isStage {
                let label = LaneDiagram.displayLabel(lane.label)
                let boxWidth = Swift.max(right - left, Double(label.terminalColumns) * Self.characterWidth + 24)
                widest = Swift.max(widest, left + boxWidth + 16)
                body.append(##"<rect x="\##(f(left))" y="\##(f(y))" width="\##(f(boxWidth))" height="\##(f(Self.boxHeight - 8))" rx="4" class="box"/>"##)
                body.append(##"<text x="\##(f(left + boxWidth / 2))" y="\##(f(y + (Self.boxHeight - 8) / 2 + 4))" text-anchor="middle" class="ink">\##(Self.fullText(of: lane.label, shown: label))\##(Self.escape(label))</text>"##)
                y += Self.boxHeight
            }
            let marks = placement.lanes[index]
            let cells = index < rendered.cells.count ? rendered.cells[index] : []
            let deepest = cells.map(\.events.count).max() ?? 1
            let laneTop = y
            if labelsAbove, !lane.isStage {
                let label = LaneDiagram.displayLabel(lane.label).trimmingCharacters(in: " ")
                let emoji = Self.emojiClass(String(label)).isEmpty ? "" : " emoji"
                body.append(##"<text x="\##(f(left))" y="\##(f(y + 12))" class="muted\##(emoji)">\##(Self.fullText(of: lane.label, shown: String(label)))\##(Self.escape(String(label)))</text>"##)
                widest = Swift.max(widest, left + 12 + Double(label.count) * Self.characterWidth)
                y += Self.labelLine
            }
            let mid = y + Self.laneHeight / 2
            if !lane.isStage, !labelsAbove {
                let label = LaneDiagram.displayLabel(lane.label).trimmingCharacters(in: " ")
                let emoji = Self.emojiClass(String(label)).isEmpty ? "" : " emoji"
                body.append(##"<text x="12" y="\##(f(mid + 4))" class="muted lane-label\##(emoji)">\##(Self.fullText(of: lane.label, shown: String(label)))\##(Self.escape(String(label)))</text>"##)
            }
            if lane.isSubscription {
                drawSubscription(lane, x: { x($0) }, y: mid, right: right)
            } else if let note = lane.note {
                // A stream not drawn says why, from where it began, with no line.
                let begin = lane.start.map { x($0) } ?? origin
                body.append(##"<text x="\##(f(begin))" y="\##(f(mid + 4))" class="muted lane-note" data-note-l="\##(lane.placeInWhole?.lane ?? index)">\##(Self.escape(note))</text>"##)
                widest = Swift.max(widest, begin + 12 + Double(note.terminalColumns) * Self.characterWidth)
            } else {
                let start = lane.start.map { x($0) }
                // An inner stream slants down from the stage that started it.
                let slants = start != nil && !straightInnerStreams
                let fromY = slants ? mid - 12 : mid, toY = slants ? mid + 8 : mid
                let begin = start ?? origin
                // The line ends where the stream did: at its `|` or `#`,
                // or where it was cancelled; one still open runs on to the
                // edge, under an arrowhead.
                let ended: (time: TimeSpan, how: String)? = if let cancelled = lane.cancelled { (cancelled, "cancelled") }
                    else if let last = lane.events.last, last.event.isTerminal { (last.time, { if case .error = last.event { "error" } else { "completed" } }()) }
                    else { nil }
                let stop = ended.map { Swift.max(begin, x($0.time)) } ?? right
                let slope = (toY - fromY) / Swift.max(1, stop - begin)
                // The lane and its events as the whole diagram numbers them.
                let (wholeLane, firstEvent) = (lane.placeInWhole?.lane ?? index, lane.placeInWhole?.event ?? 0)
                let yAt = { (px: Double) in fromY + slope * (px - begin) }
                drawLine(from: begin, to: stop, y: fromY, y2: yAt(stop), arrow: ended == nil,
                         data: ##" data-line-d="\##(diagramIndex)" data-lane-line="\##(wholeLane)" data-ends="\##(ended?.how ?? "open")""##)
                for (cell, mark) in zip(cells, marks) {
                    // Every event of the instant at its x, stacked in order.
                    let cx = x(placement.column(of: mark.frame) ?? 0)
                    for (n, event) in cell.events.enumerated() {
                        // Where the mark comes from, for a page that lets it be
                        // dragged, followed or read at a time.
                        let data = ##" data-d="\##(diagramIndex)" data-l="\##(wholeLane)" data-e="\##(firstEvent + cell.firstEvent + n)" data-t="\##(cell.column)""##
                        draw(event, at: cx, yAt(cx) + Double(n) * Self.stackStep, lane: lane, cell: cell, n: n, data: data)
                    }
                }
                if let cancelled = lane.cancelled {
                    // A solid bar across the lane where it was cut; the lane ends there.
                    let cx = x(cancelled), cy = yAt(cx)
                    body.append(##"<line x1="\##(f(cx - 7))" y1="\##(f(cy - 12))" x2="\##(f(cx + 7))" y2="\##(f(cy + 12))" class="cancel" stroke-width="4" stroke-linecap="round" data-cancel-d="\##(diagramIndex)" data-cancel-l="\##(wholeLane)"><title>cancelled</title></line>"##)
                }
            }
            bands.append(Band(top: laneTop, bottom: y + Self.laneHeight + Double(deepest - 1) * Self.stackStep))
            y += Self.laneHeight + Double(deepest - 1) * Self.stackStep
        }
        // Each stretch of time left out of the axis is marked down through
        // the lanes, so no one reads the picture as to scale there.
        for gap in placement.gaps {
            let cx = origin + Double(gap.columns.lowerBound + gap.columns.upperBound) / 2 * Self.columnWidth + Self.columnWidth / 2
            body.append(##"<line x1="\##(f(cx))" y1="\##(f(lanesTop))" x2="\##(f(cx))" y2="\##(f(y))" class="axis" stroke-width="1" stroke-dasharray="3 4"/>"##)
        }
        if let marked, marked.diagram == diagramIndex, !marked.lanes.isEmpty, marked.lanes.lowerBound >= 0,
           marked.lanes.upperBound <= bands.count {
            let (first, last) = (bands[marked.lanes.lowerBound], bands[marked.lanes.upperBound - 1])
            // A band across the lanes at the first difference, with its note.
            let cx = x(marked.time)
            body.append(##"<rect x="\##(f(cx - Self.columnWidth / 2))" y="\##(f(first.top + 4))" width="\##(f(Self.columnWidth))" height="\##(f(last.bottom - first.top - 8))" rx="6" fill="#d62728" fill-opacity="0.16" stroke="#d62728" stroke-width="2" stroke-dasharray="5 3" class="difference" data-t="\##(LaneDiagram.column(marked.time, frame: rendered.frame, rounding: false))"><title>\##(Self.escape(marked.note))</title></rect>"##)
        }
        // Values written in their marbles need no legend.
        var notes = valuesInside ? [] : rendered.legend.map { "\($0.symbol) = \($0.value.literal)" }
        notes += rendered.errors.map { error, lanes in
            "# = \(error.value.literal)" + (rendered.errors.count > 1 ? " (" + lanes.joined(separator: ", ") + ")" : "")
        }
        if rendered.frame != MarbleParser.frame { notes.append("one column = \(rendered.frame)") }
        notes = LaneDiagram.shortened(notes)
        // Wrapped to the picture's width (at most a page's), entry by entry.
        let perLine = Swift.min(160, Swift.max(20, Int((widest - 24) / Self.characterWidth)))
        var line: [String] = []
        var lineWidth = 0
        var lines: [[String]] = []
        for (i, note) in notes.enumerated() {
            let piece = note + (i < notes.count - 1 ? "," : "")
            let pieceWidth = piece.terminalColumns
            if !line.isEmpty, lineWidth + 1 + pieceWidth > perLine {
                lines.append(line)
                line = []
                lineWidth = 0
            }
            lineWidth += (line.isEmpty ? 0 : 1) + pieceWidth
            line.append(piece)
        }
        if !line.isEmpty { lines.append(line) }
        for pieces in lines {
            widest = Swift.max(widest, 24 + Double(pieces.joined(separator: " ").terminalColumns) * Self.characterWidth)
            // An entry a tspan: a page can wrap the legend entry by entry to its own width.
            let entries = pieces.map { "<tspan>" + Self.escape($0) + "</tspan>" }.joined(separator: " ")
            body.append(##"<text x="12" y="\##(f(y + 12))" class="muted legend">\##(entries)</text>"##)
            y += 16
        }
        width = Swift.max(width, widest)
        return y
    }

    /// Each lane of a diagram in words, a line each: its label, then its
    /// events with their times ("5 at 0, 25 at 5, completes at 9"), in
    /// frames at 1 ms a frame, else as durations. A lane of very many
    /// events is told by its first ones and how many more there are.
    static func words(_ diagram: LaneDiagram) -> String {
        let frame = diagram.chooseFrame()
        func at(_ time: TimeSpan) -> String {
            frame == MarbleParser.frame && time.nanoseconds % MarbleParser.frame.nanoseconds == 0
                ? String(time.nanoseconds / MarbleParser.frame.nanoseconds) : time.description
        }
        let told = 40
        var lines = diagram.title.map { [$0] } ?? []
        for lane in diagram.lanes {
            let label = LaneDiagram.displayLabel(lane.label).trimmingCharacters(in: " ")
            var parts: [String] = []
            if lane.isSubscription {
                parts.append("subscribed at \(at(lane.start ?? .zero))")
                if let end = lane.cancelled { parts.append("unsubscribed at \(at(end))") }
                lines.append("\(label): " + parts.joined(separator: ", "))
                continue
            }
            if let start = lane.start { parts.append("starts at \(at(start))") }
            if let note = lane.note { parts.append(note) }
            for event in lane.events.prefix(told) {
                switch event.event {
                case .next(let value): parts.append("\(value.description) at \(at(event.time))")
                case .completed: parts.append("completes at \(at(event.time))")
                case .error(let error): parts.append("fails with \(error.value.description) at \(at(event.time))")
                }
            }
            if lane.events.count > told { parts.append("and \(lane.events.count - told) more") }
            if let cancelled = lane.cancelled { parts.append("cancelled at \(at(cancelled))") }
            if parts.isEmpty { parts.append("nothing") }
            lines.append("\(label): " + parts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// A label cut to fit keeps its whole text in a `<title>`, shown on hover.
    static func fullText(of label: String, shown: String) -> String {
        let whole = label.trimmingCharacters(in: " ")
        return shown.hasSuffix("…") ? "<title>\(escape(String(whole)))</title>" : ""
    }

    /// Tick marks every few frames, labelled in time (`0`, `5ms`, `1s`);
    /// where a long wait is left out, the axis breaks: two slashes, the
    /// time left out written over them, and a labelled tick where the
    /// axis resumes.
    private mutating func drawAxis(
        _ rendered: LaneDiagram.Rendered, placement: LanePlacement, x: (Int64) -> Double, from: Double, to right: Double, y: Double
    ) -> Double {
        let inFrames = rendered.frame == MarbleParser.frame
        let step: Int64 = inFrames ? 5 : 10
        let axisY = y + 14
        let columnX = { (column: Int) in from + Double(column) * Self.columnWidth + Self.columnWidth / 2 }
        var segmentStart = from
        for gap in placement.gaps {
            let (gapStart, gapEnd) = (columnX(gap.columns.lowerBound) - Self.columnWidth / 2, columnX(gap.columns.upperBound) - Self.columnWidth / 2)
            body.append(##"<line x1="\##(f(segmentStart))" y1="\##(f(axisY))" x2="\##(f(gapStart + 4))" y2="\##(f(axisY))" class="axis" stroke-width="1"/>"##)
            let skipped = rendered.frame * (gap.before - gap.after - 1)
            let middle = (gapStart + gapEnd) / 2
            body.append(##"<g class="axis-break" data-skipped="\##(skipped)"><title>\##(skipped) left out of the axis</title>"##
                + ##"<line x1="\##(f(gapStart))" y1="\##(f(axisY + 5))" x2="\##(f(gapStart + 8))" y2="\##(f(axisY - 5))" class="line" stroke-width="1.5"/>"##
                + ##"<line x1="\##(f(gapEnd - 8))" y1="\##(f(axisY + 5))" x2="\##(f(gapEnd))" y2="\##(f(axisY - 5))" class="line" stroke-width="1.5"/>"##
                + ##"<text x="\##(f(middle))" y="\##(f(axisY + 4))" text-anchor="middle" class="muted" font-size="\##(f(smallText))" font-style="italic">\##(skipped)</text></g>"##)
            segmentStart = gapEnd - 4
        }
        body.append(##"<line x1="\##(f(segmentStart))" y1="\##(f(axisY))" x2="\##(f(right))" y2="\##(f(axisY))" class="axis" stroke-width="1"/>"##)
        var tick: Int64 = 0
        var lastLabelEnd = -Double.infinity
        while true {
            guard let column = placement.column(of: tick) else {
                // Inside a stretch left out: on from where the axis resumes.
                guard let resumes = placement.shownFrame(atOrAfter: tick), resumes > tick else { break }
                tick = resumes
                continue
            }
            guard from + Double(column) * Self.columnWidth < right - Self.columnWidth else { break }
            // At the column's middle, where the events of that instant are drawn.
            let tx = x(tick)
            let label = tick == 0 ? "0" : (rendered.frame * tick).description
            body.append(##"<line x1="\##(f(tx))" y1="\##(f(axisY - 4))" x2="\##(f(tx))" y2="\##(f(axisY + 4))" class="axis" stroke-width="1"/>"##)
            // A label is written only clear of the one before it: after a
            // break, ticks a frame apart (2.009s, 2.01s) would overlap.
            let halfWidth = Double(label.count) * Self.monospaceAdvance * smallText / 2
            if tx - halfWidth > lastLabelEnd + smallText / 2 {
                body.append(##"<text x="\##(f(tx))" y="\##(f(axisY - 7))" text-anchor="middle" class="muted" font-size="\##(f(smallText))">\##(label)</text>"##)
                lastLabelEnd = tx + halfWidth
            }
            tick = (tick / step + 1) * step
        }
        return axisY + 6
    }

    private mutating func drawLine(from x1: Double, to x2: Double, y: Double, y2: Double? = nil, arrow: Bool = true, data: String = "") {
        let end = y2 ?? y
        body.append(##"<line x1="\##(f(x1))" y1="\##(f(y))" x2="\##(f(x2))" y2="\##(f(end))" class="line" stroke-width="2"\##(data)/>"##)
        guard arrow else { return }
        // The arrowhead, pointing along the line.
        let angle = (end - y) / Swift.max(1, x2 - x1)
        let back = x2 - 10, wing = 5.0
        body.append(##"<polygon points="\##(f(x2)),\##(f(end)) \##(f(back)),\##(f(end - 10 * angle - wing)) \##(f(back)),\##(f(end - 10 * angle + wing))" class="arrow"/>"##)
    }

    private mutating func draw(_ event: (symbol: Character, text: String, kind: LaneDiagram.Cell.Kind), at cx: Double, _ cy: Double,
                               lane: LaneDiagram.Lane, cell: LaneDiagram.Cell, n: Int, data: String) {
        switch event.kind {
        case .value:
            let value = Self.value(of: event.symbol, in: lane, cell: cell, n: n)
            let fill = color(for: value)
            let shown = valuesInside ? value?.description ?? String(event.symbol) : String(event.symbol)
            let tip = value.map { "\($0.literal)" } ?? String(event.symbol)
            body.append(##"<circle cx="\##(f(cx))" cy="\##(f(cy))" r="\##(f(Self.marbleRadius))" fill="\##(fill)" stroke="#222222" stroke-width="1.5"\##(data)><title>\##(Self.escape(tip))</title></circle>"##)
            body.append(##"<text x="\##(f(cx))" y="\##(f(cy + 4))" text-anchor="middle" fill="#222222"\##(Self.emojiClass(shown))>\##(Self.escape(shown))</text>"##)
            marbles.append(Marble(x: cx, y: cy, fill: fill))
        case .completion:
            body.append(##"<line x1="\##(f(cx))" y1="\##(f(cy - 13))" x2="\##(f(cx))" y2="\##(f(cy + 13))" class="line" stroke-width="3"\##(data)><title>completed</title></line>"##)
        case .error:
            let r = 8.0
            body.append(##"<path d="M\##(f(cx - r)),\##(f(cy - r)) L\##(f(cx + r)),\##(f(cy + r)) M\##(f(cx - r)),\##(f(cy + r)) L\##(f(cx + r)),\##(f(cy - r))" stroke="#d62728" stroke-width="3"\##(data)><title>error</title></path>"##)
        }
    }

    /// The value an event of a cell stands for: the cells keep symbols,
    /// the lane keeps the events in the same order.
    static func value(of symbol: Character, in lane: LaneDiagram.Lane, cell: LaneDiagram.Cell, n: Int) -> Value? {
        let index = cell.firstEvent + n
        guard index < lane.events.count, case .next(let value) = lane.events[index].event else { return nil }
        return value
    }

    /// One colour per value, spread around the colour wheel by the golden
    /// angle so that neighbours differ, light enough for dark text.
    private mutating func color(for value: Value?) -> String {
        guard let value else { return "#dddddd" }
        if let known = colors[value] { return known }
        let hue = (Double(colors.count) * 137.508).truncatingRemainder(dividingBy: 360)
        let made = Self.hex(hue: hue, saturation: 0.62, lightness: 0.70)
        colors[value] = made
        return made
    }

    static func hex(hue: Double, saturation: Double, lightness: Double) -> String {
        let c = (1 - abs(2 * lightness - 1)) * saturation
        let h = hue / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        let m = lightness - c / 2
        let digits = [r, g, b].map { String(Int(((($0 + m) * 255).rounded())), radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        return "#" + digits.joined()
    }

    /// `^` … `!`: a bracket under the time the source was subscribed.
    private mutating func drawSubscription(_ lane: LaneDiagram.Lane, x: (TimeSpan) -> Double, y: Double, right: Double) {
        let from = x(lane.start ?? .zero)
        let to = lane.cancelled.map(x) ?? right
        body.append(##"<path d="M\##(f(from)),\##(f(y - 8)) L\##(f(from)),\##(f(y)) L\##(f(to)),\##(f(y))\##(lane.cancelled == nil ? "" : " L\(f(to)),\(f(y - 8))")" fill="none" class="cancel" stroke-width="2"><title>subscribed</title></path>"##)
    }

    func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func escape(_ text: String) -> String { XML.escape(text) }

    /// ` class="emoji"` for a text holding a picture character: named
    /// fonts that have them, which a monospaced font lacks. (Only there:
    /// named for all text, they would draw digits as pictures too.)
    static func emojiClass(_ text: String) -> String {
        text.unicodeScalars.contains { $0.properties.isEmojiPresentation } ? #" class="emoji""# : ""
    }
}
