import FlowRuntime

/// Several streams drawn as marble lanes on one time axis, under a tick
/// ruler, with a legend for values that are not one character.
///
/// The time scale is chosen from the events (one column per frame of 1 ms
/// when the diagram fits, else 2 ms, 5 ms, 10 ms, ... 1 s, ...) or given.
/// At 1 ms a lane is exact marble syntax: `cold(lane, legend values)`
/// reproduces the stream.
public struct LaneDiagram {
    public struct Lane {
        public var label: String
        public var events: [TimedEvent]
        /// For a stream subscribed late (an inner stream): blank before it.
        public var start: TimeSpan?
        /// Where the subscription was cancelled, marked `!`.
        public var cancelled: TimeSpan?
        /// A subscription lane: `^` at `start`, `!` at `cancelled`, no events.
        public var isSubscription = false
        /// The output of an operator applied to the lanes above (a traced
        /// stage): drawn under an operator box in SVG.
        public var isStage = false
        /// The stream drawn, when known (to find where it was written).
        public var node: Observable?
        /// For a traced lane, each event's origin: the event of another
        /// lane of the diagram it was made from (the value a `map` was
        /// given), if it was made from one that is drawn.
        public var madeFrom: [EventPlace?] = []

        public init(label: String, events: [TimedEvent], start: TimeSpan? = nil, cancelled: TimeSpan? = nil) {
            self.label = label
            self.events = events
            self.start = start
            self.cancelled = cancelled
        }

        /// `^` where a subscription started and `!` where it ended, if it did.
        public static func subscription(label: String, _ log: SubscriptionLog) -> Lane {
            var lane = Lane(label: label, events: [], start: log.subscribed, cancelled: log.unsubscribed)
            lane.isSubscription = true
            return lane
        }
    }

    public struct Options {
        /// Time per column; nil chooses one.
        public var frame: TimeSpan?
        /// Columns wide enough to print values in place, instead of a legend.
        public var wide = false
        public var color = false
        /// The widest a diagram may grow before a coarser scale is chosen.
        public var maxColumns = 72
        /// The terminal's width, when known: the lanes and their labels
        /// are fitted to it (a coarser scale is chosen sooner).
        public var terminalWidth: Int?
        /// Times measured on the live clock: an event is drawn in the
        /// nearest column, so a few microseconds of scheduling never move
        /// it a column late.
        public var roundsToNearestFrame = false
        /// Symbols already given to values (by earlier drawings of a REPL
        /// session): the same value keeps its symbol.
        public var symbols: [String: Value] = [:]

        public init(frame: TimeSpan? = nil, wide: Bool = false, color: Bool = false, maxColumns: Int = 72) {
            self.frame = frame
            self.wide = wide
            self.color = color
            self.maxColumns = maxColumns
        }
    }

    /// An event of a diagram: its lane, and its place among the lane's events.
    public struct EventPlace: Hashable, Codable, Sendable {
        public var lane: Int
        public var event: Int

        public init(lane: Int, event: Int) {
            self.lane = lane
            self.event = event
        }
    }

    public var lanes: [Lane]
    public var options: Options
    /// `marbles(title: "...", ...)`: printed above the lanes.
    public var title: String?

    public init(lanes: [Lane], options: Options = Options(), title: String? = nil) {
        self.lanes = lanes
        self.options = options
        self.title = title
    }

    /// The result of drawing: the lanes' marble texts, the legend, and the
    /// lines a user sees.
    public struct Rendered {
        public var frame: TimeSpan
        /// Each lane's marble text, without label or colour.
        public var marbles: [String]
        /// Each lane's events, as recorded.
        public var events: [[TimedEvent]]
        /// Whether each lane is plain marble syntax (not an inner stream
        /// starting late, a cancelled one, or a subscription lane).
        public var isPlain: [Bool]
        /// Symbols that do not read as themselves, and their values.
        public var legend: [(symbol: Character, value: Value)]
        /// Each different error drawn, with the labels of the lanes it
        /// ends: one `# = ...` legend entry each.
        public var errors: [(error: FlowError, lanes: [String])]
        public var error: FlowError? { errors.first?.error }
        public var lines: [String]
        public var text: String { lines.joined(separator: "\n") }
        /// What was drawn, lane by lane, to read it back.
        var drawnLanes: [Lane] = []
        var wide = false
        /// Where each frame and each lane's events were drawn, for a
        /// picture of the same diagram (SVG).
        var placement: LanePlacement?
        var cells: [[Cell]] = []
        /// The time axis, as printed above the lanes.
        var ruler = ""

        /// The events lane `index` shows, read back from its marble text
        /// as a user would read it: blank until an inner stream was
        /// subscribed, then marble syntax, then `!` if it was cancelled.
        /// nil where a lane is not marble syntax: a subscription lane,
        /// values printed in place, a scale coarser than 1 ms.
        public func readBack(_ index: Int) throws -> [TimedEvent]? {
            let lane = drawnLanes[index]
            guard frame == MarbleParser.frame, !wide, !lane.isSubscription else { return nil }
            var text = Substring(marbles[index])
            if lane.cancelled != nil, text.last == "!" { text.removeLast() }
            var offset = TimeSpan.zero
            if let start = lane.start {
                while text.first == " " { text.removeFirst() }
                offset = start
            }
            var values: [String: Value] = [:]
            for (symbol, value) in legend { values[String(symbol)] = value }
            let error = lane.events.lazy.compactMap { if case .error(let e) = $0.event { e.value } else { nil } }.first
            return try MarbleParser.parseEvents(String(text), values: values, error: error).events.map {
                TimedEvent($0.time + offset, $0.event)
            }
        }
    }

    static let niceFrames: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 300_000, 600_000, 3_600_000]
        .map { $0 * TimeSpan.nanosecondsPerMillisecond }

    /// The most characters of one lane printed.
    public static let longestLane = 10_000

    /// No diagram is drawn wider than this, whatever frame was asked for: a
    /// frame of 1ns over a minute of events would be 60 billion columns.
    public static let widestDiagram: Int64 = 2000

    /// The last time the diagram shows: its last event, start or cancellation.
    var end: Int64 {
        lanes.flatMap { lane in lane.events.map(\.time.nanoseconds) + [lane.start, lane.cancelled].compactMap { $0?.nanoseconds } }
            .max() ?? 0
    }

    /// The frame asked for, if the diagram fits `widestDiagram` with it;
    /// else the finest nice frame at which it fits in `maxColumns`, or as
    /// coarse a frame as a very long run needs.
    public func chooseFrame() -> TimeSpan {
        let end = self.end
        if let frame = options.frame, end / frame.nanoseconds + 4 <= Self.widestDiagram { return frame }
        // A coarse frame that puts events of different times in one column
        // makes groups, each wider than a column: the widest lane counts.
        var narrowest: (frame: Int64, columns: Int64)?
        for frame in Self.niceFrames where end / frame + 4 <= Self.widestDiagram {
            let columns = estimatedColumns(frame: frame)
            if columns + 4 <= Int64(maxColumns) { return TimeSpan(nanoseconds: frame) }
            // A coarser scale must be clearly narrower to be worth its
            // groups (one group of everything is never worth it).
            if narrowest == nil || columns * 10 < narrowest!.columns * 9 { narrowest = (frame, columns) }
        }
        if let narrowest { return TimeSpan(nanoseconds: narrowest.frame) }
        return TimeSpan(nanoseconds: end / (Self.widestDiagram - 4) + 1)
    }

    /// The columns the lanes may take: `maxColumns`, or less on a narrow
    /// terminal once the labels have theirs.
    var maxColumns: Int {
        guard let terminal = options.terminalWidth else { return options.maxColumns }
        let labels = (lanes.map { Self.displayLabel($0.label).terminalColumns }.max() ?? 0) + 2
        return Swift.max(20, Swift.min(options.maxColumns, terminal - labels - 1))
    }

    /// About how many columns the widest lane takes at `frame`: one per
    /// frame, and a group's characters beyond its own frame.
    func estimatedColumns(frame: Int64) -> Int64 {
        var widest: Int64 = 0
        for lane in lanes {
            var extra: Int64 = 0
            var column: Int64 = -1
            var count: Int64 = 0
            for event in lane.events {
                let c = event.time.nanoseconds / frame
                if c == column {
                    count += 1
                } else {
                    if count > 1 { extra += count + 1 }
                    column = c
                    count = 1
                }
            }
            if count > 1 { extra += count + 1 }
            widest = Swift.max(widest, (lane.events.last?.time.nanoseconds ?? 0) / frame + extra)
        }
        return widest
    }

    public func render() -> Rendered {
        let frame = chooseFrame()
        var legend = MarbleLegend(presets: options.symbols)
        legend.reserveNaturalSymbols(for: lanes.lazy.flatMap(\.events).compactMap { if case .next(let v) = $0.event { v } else { nil } })
        let paint = LanePaint(enabled: options.color)
        // Symbols first, so that every lane shares one legend.
        let cells = lanes.map { lane in Self.cells(lane.events, frame: frame, legend: &legend, wide: options.wide, rounding: options.roundsToNearestFrame) }
        let marks = zip(lanes, cells).map { lane, laneCells in
            Self.marks(for: lane, laneCells, frame: frame, wide: options.wide, rounding: options.roundsToNearestFrame)
        }
        let placement = LanePlacement(lanes: marks)
        let labels = lanes.map { Self.displayLabel($0.label) }
        let labelWidth = (labels.map(\.terminalColumns).max() ?? 0) + 2
        var marbles: [String] = []
        var drawn: [String] = []
        var used = Set<Character>()
        for (index, (lane, laneCells)) in zip(lanes, cells).enumerated() {
            let start = lane.isSubscription ? nil : lane.start.map { Self.column($0, frame: frame, rounding: options.roundsToNearestFrame) }
            let (plain, painted, _) = placement.draw(
                index, padding: options.wide ? "-" : " ", filler: { frame in frame < (start ?? 0) ? " " : "-" },
                paint: { n, text in n < laneCells.count ? paint.cell(laneCells[n], text) : paint.cancellation(text) })
            marbles.append(plain)
            // A lane of a million events at one instant is one group a
            // million characters wide: shown cut, in full in `marbles`.
            drawn.append(plain.count > Self.longestLane ? String(plain.prefix(Self.longestLane)) + " …" : painted)
            used.formUnion(laneCells.flatMap { $0.events.map(\.symbol) })
        }
        let span = Swift.max(1, Swift.min(Self.longestLane, marbles.map(\.terminalColumns).max() ?? 1))
        let ruler = Self.ruler(placement, frame: frame, width: span)
        var lines = title.map { [$0] } ?? []
        if let terminal = options.terminalWidth, labelWidth + span > terminal {
            // Wider than the terminal: the lanes go on in blocks, each
            // under its part of the ruler (without colour, which cannot be
            // cut between columns).
            let block = Swift.max(20, terminal - labelWidth)
            for start in stride(from: 0, to: span, by: block) {
                if start > 0 { lines.append("") }
                var rulerPart = ruler.columns(start..<start + block)
                while rulerPart.last == " " { rulerPart.removeLast() }
                lines.append(String(repeating: " ", count: labelWidth) + rulerPart)
                for (label, plain) in zip(labels, marbles) {
                    lines.append(label.padded(toColumns: labelWidth) + plain.columns(start..<start + block))
                }
            }
        } else {
            lines.append(String(repeating: " ", count: labelWidth) + ruler)
            for (label, (plain, painted)) in zip(labels, zip(marbles, drawn)) {
                lines.append(plain.trimmingCharacters(in: " ").isEmpty ? label : label.padded(toColumns: labelWidth) + painted)
            }
        }
        let explanations = options.wide ? [] : legend.explanations(for: used)
        var footer = Self.shortened(explanations)
        let errors = Self.errors(in: lanes)
        footer += errors.map { error, labels in
            "# = \(error.value.literal)" + (errors.count > 1 ? " (" + labels.joined(separator: ", ") + ")" : "")
        }
        if frame != MarbleParser.frame { footer.append("- = \(frame)") }
        if let asked = options.frame, asked != frame {
            footer.append("(\(asked) a column would need \(end / asked.nanoseconds) columns)")
        }
        if !footer.isEmpty {
            // Wrapped to the diagram's width, entry by entry, under the lanes.
            let indent = Swift.max(labelWidth, 7)
            let width = Swift.max(maxColumns, 40)
            var line = "legend" + String(repeating: " ", count: indent - 6)
            var lineHasEntry = false
            for (i, entry) in footer.enumerated() {
                let piece = entry + (i < footer.count - 1 ? "," : "")
                if lineHasEntry, line.terminalColumns + 1 + piece.terminalColumns > indent + width {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                    lineHasEntry = false
                }
                line += (lineHasEntry ? " " : "") + piece
                lineHasEntry = true
            }
            lines.append(line)
        }
        let legendEntries = legend.entries(explaining: used)
        return Rendered(frame: frame, marbles: marbles, events: lanes.map(\.events),
                        isPlain: lanes.map { $0.start == nil && $0.cancelled == nil && !$0.isSubscription },
                        legend: legendEntries, errors: errors, lines: lines, drawnLanes: lanes, wide: options.wide,
                        placement: placement, cells: cells, ruler: ruler)
    }

    /// The most legend entries shown: a lane of a hundred thousand values
    /// names each with a symbol of its own, but a legend that long is
    /// read by no one.
    public static let longestLegend = 300

    static func shortened(_ entries: [String]) -> [String] {
        guard entries.count > longestLegend else { return entries }
        return Array(entries.prefix(longestLegend)) + ["… and \(entries.count - longestLegend) more"]
    }

    /// The widest a lane's label is drawn.
    public static let longestLabel = 56

    /// A label on one line (a multi-line closure written as a lane's
    /// expression), cut at `longestLabel` columns.
    public static func displayLabel(_ label: String) -> String {
        let indent = label.prefix { $0 == " " }
        let words = label.dropFirst(indent.count).split(whereSeparator: \.isWhitespace)
        var line = String(indent) + words.joined(separator: " ")
        guard line.terminalColumns > longestLabel else { return line }
        while line.terminalColumns > longestLabel - 1 { line.removeLast() }
        // Cut between words where there is a space in the second half.
        if let space = line.lastIndex(of: " "), line[..<space].count > longestLabel / 2 { line = String(line[..<space]) }
        return line + "…"
    }

    /// Each different error the lanes end with, and the lanes it ends: one
    /// `#` legend entry each.
    static func errors(in lanes: [Lane]) -> [(error: FlowError, lanes: [String])] {
        var found: [(error: FlowError, lanes: [String])] = []
        for lane in lanes {
            for case .error(let error) in lane.events.lazy.map(\.event) {
                if let i = found.firstIndex(where: { $0.error.value == error.value && $0.error.message == error.message }) {
                    if found[i].lanes.last != displayLabel(lane.label) { found[i].lanes.append(displayLabel(lane.label)) }
                } else {
                    found.append((error, [displayLabel(lane.label)]))
                }
            }
        }
        return found
    }

    /// Events falling in one column.
    struct Cell {
        var column: Int64
        var events: [(symbol: Character, text: String, kind: Kind)]
        /// The index of its first event among the lane's events.
        var firstEvent = 0
        enum Kind { case value, error, completion }
    }

    /// The column of a time: the frame it falls in, or, with `rounding`
    /// (times read from the wall clock), the nearest.
    static func column(_ time: TimeSpan, frame: TimeSpan, rounding: Bool) -> Int64 {
        (time.nanoseconds + (rounding ? frame.nanoseconds / 2 : 0)) / frame.nanoseconds
    }

    static func cells(_ events: [TimedEvent], frame: TimeSpan, legend: inout MarbleLegend, wide: Bool, rounding: Bool = false) -> [Cell] {
        var cells: [Cell] = []
        // Compared by column alone: binding the last cell would copy its
        // events, and appending to them would then copy them each time.
        var lastColumn: Int64?
        for (index, event) in events.enumerated() {
            let column = Self.column(event.time, frame: frame, rounding: rounding)
            let symbol: Character, kind: Cell.Kind, text: String
            switch event.event {
            case .next(let v):
                symbol = legend.symbol(for: v)
                kind = .value
                text = wide ? v.description : String(symbol)
            case .error: (symbol, kind, text) = ("#", .error, "#")
            case .completed: (symbol, kind, text) = ("|", .completion, "|")
            }
            if lastColumn == column {
                cells[cells.count - 1].events.append((symbol, text, kind))
            } else {
                cells.append(Cell(column: column, events: [(symbol, text, kind)], firstEvent: index))
                lastColumn = column
            }
        }
        return cells
    }

    /// What a lane writes, frame by frame: its cells (groups as RxJS
    /// writes them where they fit before the next cell, else as `[ ]`),
    /// then `!` where it was cancelled; a subscription lane writes `^` and
    /// `!`.
    static func marks(for lane: Lane, _ cells: [Cell], frame: TimeSpan, wide: Bool, rounding: Bool = false) -> [LanePlacement.Mark] {
        let start = lane.start.map { column($0, frame: frame, rounding: rounding) }
        let cancelled = lane.cancelled.map { column($0, frame: frame, rounding: rounding) }
        if lane.isSubscription {
            let subscribed = start ?? 0
            guard let end = cancelled else { return [.init(frame: subscribed, text: "^")] }
            if end == subscribed { return [.init(frame: subscribed, text: "(^!)", span: 4)] }
            return [.init(frame: subscribed, text: "^"), .init(frame: end, text: "!")]
        }
        var marks = cells.indices.map { i -> LanePlacement.Mark in
            let texts = cells[i].events.map(\.text)
            let next = i + 1 < cells.count ? cells[i + 1].column : cancelled
            // Values printed in place are not marble syntax: a group of
            // them is one column, whatever it would read as.
            if wide { return .init(frame: cells[i].column, text: texts.count == 1 ? texts[0] : "(" + texts.joined(separator: ",") + ")") }
            return .group(frame: cells[i].column, texts, nextFrame: next)
        }
        if let cancelled {
            // Cancelled in the frame of its last event: the mark follows it.
            let after = marks.last.map { $0.frame + $0.span } ?? cancelled
            marks.append(.init(frame: Swift.max(cancelled, after), text: "!"))
        }
        return marks
    }

    /// `0    5    10`: a tick label every 5 frames, in frames at 1 ms;
    /// every 10 frames, in time (`0    1s    2s`), at a coarser scale.
    static func ruler(_ placement: LanePlacement, frame: TimeSpan, width: Int) -> String {
        let inFrames = frame == MarbleParser.frame
        let step: Int64 = inFrames ? 5 : 10
        var out = ""
        // Counted as it grows: `out.count` would walk the whole ruler.
        var length = 0
        var tick: Int64 = 0
        while let position = placement.column(of: tick), position < width {
            if position >= length + (tick == 0 ? 0 : 1) {
                let label = tick == 0 ? "0" : inFrames ? String(tick) : (frame * tick).description
                out += String(repeating: " ", count: position - length) + label
                length = position + label.count
            }
            tick += step
        }
        return out
    }
}

/// Colours for a terminal, or none.
struct LanePaint {
    let enabled: Bool

    func cancellation(_ text: String) -> String { enabled ? "\u{1B}[33m\(text)\u{1B}[0m" : text }

    func cell(_ cell: LaneDiagram.Cell, _ text: String) -> String {
        guard enabled else { return text }
        let code: String
        switch (cell.events.contains { $0.kind == .error }, cell.events.contains { $0.kind == .completion }) {
        case (true, _): code = "1;31"
        case (false, true) where cell.events.count == 1: code = "2"
        default: code = "1;36"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}

extension String {
    func trimmingCharacters(in character: Character) -> Substring {
        var s = Substring(self)
        while s.first == character { s.removeFirst() }
        while s.last == character { s.removeLast() }
        return s
    }
}
