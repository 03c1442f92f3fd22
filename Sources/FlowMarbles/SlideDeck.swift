import FlowRuntime

/// A lesson's diagrams as slides: each titled, its diagram scaled to fit
/// the slide whole and never below a legible text size. A diagram that
/// cannot fit at that size is split: its lanes over several slides, and
/// its time into parts, each drawn from where the one before stopped
/// (the time before it left out of the axis).
public enum SlideDeck {
    /// One diagram of a lesson, with what the script says about it.
    public struct Lesson {
        public var title: String
        /// Speaker notes: the comment lines under the title.
        public var notes: [String]
        public var diagram: LaneDiagram
        /// The number the slide's marks give their diagram (`data-d`): its
        /// place in the page's picture of all the diagrams; nil, its place
        /// in the lesson.
        public var marksNumber: Int?

        public init(title: String, notes: [String] = [], diagram: LaneDiagram, marksNumber: Int? = nil) {
            self.title = title
            self.notes = notes
            self.diagram = diagram
            self.marksNumber = marksNumber
        }
    }

    public struct Size: Equatable, Sendable {
        public var width: Int
        public var height: Int
        /// The smallest text a slide shows: by default a 36th of its
        /// height (20 px on a 1280×720 projector, 30 px on a 1920×1080
        /// picture); a page that shows a slide in part of its window (under
        /// its toolbar, beside the editor) asks for the size it needs.
        public var smallestText: Double

        public init(width: Int, height: Int, smallestText: Double? = nil) {
            self.width = width
            self.height = height
            self.smallestText = smallestText ?? Double(height) / 36
        }

        public static let fullHD = Size(width: 1920, height: 1080)
    }

    /// A slide as drawn.
    public struct Slide {
        public var title: String
        public var notes: [String]
        /// The whole slide, an SVG document of the deck's size.
        public var svg: String
        /// Which lesson diagram it shows, and, when that was split, which
        /// part of how many.
        public var lesson: Int
        public var part: Int
        public var parts: Int
        /// The scale the diagram was drawn at, and its smallest text on the slide.
        public var scale: Double
        public var smallestText: Double
    }

    /// The slides of a lesson, in order: one per diagram, or several where
    /// a diagram had to be split.
    ///
    /// The marks of each slide name the lesson's diagram by its number
    /// and the whole diagram's lanes and events, as the page's own picture
    /// of all the diagrams does; `straightInnerStreams` draws a live run's
    /// inner streams level, as its picture does.
    public static func slides(_ lessons: [Lesson], size: Size = .fullHD, straightInnerStreams: Bool = false) -> [Slide] {
        var slides: [Slide] = []
        for (index, lesson) in lessons.enumerated() {
            let layout = Layout(size: size, diagramNumber: lesson.marksNumber ?? index, straightInnerStreams: straightInnerStreams)
            var whole = lesson.diagram
            for lane in whole.lanes.indices { whole.lanes[lane].placeInWhole = .init(lane: lane, event: 0) }
            let pieces = split(whole, layout: layout)
            for (n, piece) in pieces.enumerated() {
                let title = pieces.count > 1 ? "\(lesson.title) (\(n + 1) of \(pieces.count))" : lesson.title
                let picture = layout.picture(piece)
                // Scaled to fill the slide's room, but never beyond what
                // reads well from the back of a room, nor below legible.
                let fit = Swift.min(layout.room.width / picture.width, layout.room.height / picture.height)
                let scale = Swift.min(fit, layout.largestScale(picture))
                let svg = layout.document(title: title, notes: lesson.notes, picture: picture, scale: scale)
                slides.append(Slide(title: title, notes: lesson.notes, svg: svg, lesson: index, part: n + 1, parts: pieces.count,
                                    scale: scale, smallestText: picture.smallestFontSize * scale))
            }
        }
        return slides
    }

    /// The diagram as a slide shows it: labels at the left of the lanes,
    /// or above them when the slide is too narrow for both.
    static func picture(_ diagram: LaneDiagram, labelsAbove: Bool, number: Int = 0, straightInnerStreams: Bool = false) -> SVGDiagram {
        SVGDiagram([diagram], title: diagram.title ?? "", straightInnerStreams: straightInnerStreams, heading: false, smallestText: 12,
                   labelsAbove: labelsAbove, firstDiagramNumber: number)
    }

    /// Where a slide's parts go.
    struct Layout {
        let size: Size
        var diagramNumber = 0
        var straightInnerStreams = false
        var margin: Double { Double(size.height) / 24 }
        var titleSize: Double { Double(size.height) / 16 }
        var footerSize: Double { size.smallestText }
        /// The diagram's room: under the title, above the footer.
        var room: (x: Double, y: Double, width: Double, height: Double) {
            let top = margin + titleSize * 1.6
            return (margin, top, Double(size.width) - 2 * margin, Double(size.height) - top - margin - footerSize * 1.6)
        }

        /// The smallest scale at which `picture`'s text is legible.
        func legibleScale(_ picture: SVGDiagram) -> Double { size.smallestText / picture.smallestFontSize }

        /// A small diagram is not blown up past three times the legible
        /// size: marbles as big as the title read as decoration.
        func largestScale(_ picture: SVGDiagram) -> Double { legibleScale(picture) * 3 }

        /// A diagram as this slide shows it: labels at the left of the
        /// lanes where that fits, else above them.
        func picture(_ diagram: LaneDiagram) -> SVGDiagram {
            let left = SlideDeck.picture(diagram, labelsAbove: false, number: diagramNumber, straightInnerStreams: straightInnerStreams)
            if fits(left) { return left }
            let above = SlideDeck.picture(diagram, labelsAbove: true, number: diagramNumber, straightInnerStreams: straightInnerStreams)
            return fits(above) || above.width < left.width ? above : left
        }

        /// Whether `picture` fits the room at a legible scale.
        func fits(_ picture: SVGDiagram) -> Bool {
            let scale = legibleScale(picture)
            return picture.width * scale <= room.width + 0.5 && picture.height * scale <= room.height + 0.5
        }

        func document(title: String, notes: [String], picture: SVGDiagram, scale: Double) -> String {
            let (w, h) = (Double(size.width), Double(size.height))
            let shown = (width: picture.width * scale, height: picture.height * scale)
            // Centred across the room, from its top.
            let x = room.x + (room.width - shown.width) / 2
            // A title too long for the slide is shrunk to its width (never below legible) and cut.
            let titleWidth = Double(title.terminalColumns) * titleSize * 0.7
            let titleFont = Swift.max(size.smallestText, Swift.min(titleSize, titleSize * (w - 2 * margin) / Swift.max(1, titleWidth)))
            var titleText = title
            // (A title shrunk to the width exactly is not cut for a rounding error.)
            while Double(titleText.terminalColumns) * titleFont * 0.7 > w - 2 * margin + 0.5, titleText.count > 2 {
                titleText = String(titleText.dropLast(2)) + "…"
            }
            // The notes, then the diagram in words, for a screen reader.
            let notesDescription = "<desc>\(XML.escape((notes + [picture.description]).joined(separator: "\n")))</desc>\n"
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" width="\(size.width)" height="\(size.height)" viewBox="0 0 \(size.width) \(size.height)" \
                font-family="DejaVu Sans, Verdana, sans-serif" role="img">
                <title>\(XML.escape(title))</title>
                \(notesDescription)<style>
                \(SVGDiagram.style)
                </style>
                <rect width="\(f(w))" height="\(f(h))" class="bg"/>
                <text x="\(f(margin))" y="\(f(margin + titleFont))" class="ink slide-title" font-size="\(f(titleFont))" font-weight="bold">\(XML.escape(titleText))</text>
                \(picture.element(x: x, y: room.y, width: shown.width, height: shown.height))
                </svg>

                """
        }

        func f(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
    }

    /// The pieces a diagram is drawn in: itself when it fits at a legible
    /// size; else its lanes in groups that fit the slide's height, each
    /// group in parts of its time that fit the slide's width.
    static func split(_ diagram: LaneDiagram, layout: Layout) -> [LaneDiagram] {
        if layout.fits(layout.picture(diagram)) { return [diagram] }
        // Every piece at the whole diagram's scale: a slide's columns are
        // the diagram's, so what the page reads of a mark's column (the
        // time cursor, a tooltip's time, a drag) is the diagram's time on
        // every slide, not a count of the slide's own columns.
        let scale = diagram.chooseScale()
        var diagram = diagram
        diagram.options.frame = scale.frame
        diagram.options.breaksLongWaits = diagram.options.breaksLongWaits || scale.breaksAxis
        var groups: [[LaneDiagram.Lane]] = []
        var current: [LaneDiagram.Lane] = []
        for lane in diagram.lanes {
            let tried = current + [lane]
            // Tried at a width that always fits: the height decides.
            var tall = diagram
            tall.lanes = tried
            if !current.isEmpty, !fitsHeight(tall, layout: layout) {
                groups.append(current)
                current = [lane]
            } else {
                current = tried
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups.flatMap { lanes -> [LaneDiagram] in
            var group = diagram
            group.lanes = lanes
            return layout.fits(layout.picture(group)) ? [group] : splitInTime(group, layout: layout)
        }
    }

    static func fitsHeight(_ diagram: LaneDiagram, layout: Layout) -> Bool {
        // Drawn as tall as it may be drawn, with its labels above its lanes.
        let drawn = picture(diagram, labelsAbove: true)
        return drawn.height * layout.legibleScale(drawn) <= layout.room.height + 0.5
    }

    /// The diagram in parts of its time, each as long as fits: each part
    /// holds the events of its stretch, and the lanes still running then.
    static func splitInTime(_ diagram: LaneDiagram, layout: Layout) -> [LaneDiagram] {
        let times = Set(diagram.lanes.flatMap { lane in
            lane.events.map(\.time) + [lane.start, lane.cancelled].compactMap { $0 }
        }).sorted()
        guard times.count > 1 else { return [diagram] }
        var parts: [LaneDiagram] = []
        var first = 0
        while first < times.count {
            // The most instants from `first` on that fit, found by halving.
            var (low, high) = (first + 1, times.count)
            while low < high {
                let middle = (low + high + 1) / 2
                if layout.fits(layout.picture(part(of: diagram, from: times[first], to: middle < times.count ? times[middle] : nil, first: first == 0))) {
                    low = middle
                } else {
                    high = middle - 1
                }
            }
            let end = low < times.count ? times[low] : nil
            parts.append(part(of: diagram, from: times[first], to: end, first: first == 0))
            first = low
        }
        return parts
    }

    /// The stretch of `diagram` from `start` up to `end`: the events in it,
    /// the lanes that run in it; the time before it left out of the axis.
    static func part(of diagram: LaneDiagram, from start: TimeSpan, to end: TimeSpan?, first: Bool) -> LaneDiagram {
        var part = diagram
        part.options.breaksLongWaits = part.options.breaksLongWaits || !first
        // The time before the stretch takes no room (a group of lanes
        // that starts late is drawn from where it starts).
        part.options.leavesOutTimeBefore = start > .zero ? start : nil
        part.lanes = diagram.lanes.compactMap { lane in
            var piece = lane
            let inside = { (time: TimeSpan) in time >= start && end.map { time < $0 } != false }
            // A lane that ended before the stretch, or starts after it, is not in it.
            if let finished = lane.cancelled ?? lane.events.last.flatMap({ $0.event.isTerminal ? $0.time : nil }), finished < start { return nil }
            if let begins = lane.start, let end, begins >= end { return nil }
            piece.events = lane.events.filter { inside($0.time) }
            piece.madeFrom = []
            piece.placeInWhole?.event += lane.events.prefix(while: { $0.time < start }).count
            if let cancelled = lane.cancelled, !inside(cancelled) { piece.cancelled = nil }
            if let begins = lane.start, begins < start { piece.start = nil }
            return piece
        }
        return part
    }
}
