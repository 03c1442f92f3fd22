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

        public init(frame: TimeSpan? = nil, wide: Bool = false, color: Bool = false, maxColumns: Int = 72) {
            self.frame = frame
            self.wide = wide
            self.color = color
            self.maxColumns = maxColumns
        }
    }

    public var lanes: [Lane]
    public var options: Options

    public init(lanes: [Lane], options: Options = Options()) {
        self.lanes = lanes
        self.options = options
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
        /// The first error drawn, shown as `# = ...`.
        public var error: FlowError?
        public var lines: [String]
        public var text: String { lines.joined(separator: "\n") }
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
        for frame in Self.niceFrames where end / frame + 4 <= Int64(options.maxColumns) {
            return TimeSpan(nanoseconds: frame)
        }
        let coarsest = Self.niceFrames.last!
        if end / coarsest + 4 <= Self.widestDiagram { return TimeSpan(nanoseconds: coarsest) }
        return TimeSpan(nanoseconds: end / (Self.widestDiagram - 4) + 1)
    }

    public func render() -> Rendered {
        let frame = chooseFrame()
        var legend = MarbleLegend()
        let paint = LanePaint(enabled: options.color)
        // Symbols first, so that every lane shares one legend.
        let cells = lanes.map { lane in Self.cells(lane.events, frame: frame, legend: &legend, wide: options.wide) }
        let layout = Self.columnWidths(cells, wide: options.wide)
        let labelWidth = (lanes.map(\.label.count).max() ?? 0) + 2
        var marbles: [String] = []
        var drawn: [String] = []
        var used = Set<Character>()
        for (lane, laneCells) in zip(lanes, cells) {
            let bounds = (start: lane.start.map { $0.nanoseconds / frame.nanoseconds },
                          cancelled: lane.cancelled.map { $0.nanoseconds / frame.nanoseconds })
            let (plain, colored) = lane.isSubscription
                ? Self.drawSubscription(start: bounds.start ?? 0, end: bounds.cancelled, layout: layout)
                : Self.draw(laneCells, layout: layout, paint: paint, bounds: bounds)
            marbles.append(plain)
            // A lane of a million events at one instant is one group a
            // million characters wide: shown cut, in full in `marbles`.
            drawn.append(plain.count > Self.longestLane ? String(plain.prefix(Self.longestLane)) + " …" : colored)
        }
        let span = Swift.max(1, Swift.min(Self.longestLane, marbles.map(\.count).max() ?? 1))
        var lines = [String(repeating: " ", count: labelWidth) + Self.ruler(layout: layout, frame: frame, width: span)]
        for ((lane, laneCells), (plain, colored)) in zip(zip(lanes, cells), zip(marbles, drawn)) {
            used.formUnion(laneCells.flatMap { $0.events.map(\.symbol) })
            let line = lane.label + String(repeating: " ", count: labelWidth - lane.label.count) + colored
            lines.append(plain.trimmingCharacters(in: " ").isEmpty ? lane.label : line)
        }
        let explanations = options.wide ? [] : legend.explanations(for: used)
        var footer = explanations
        let firstError = lanes.flatMap(\.events).lazy.compactMap { if case .error(let e) = $0.event { e } else { nil } }.first
        if let firstError { footer.append("# = \(firstError.value.literal)") }
        if frame != MarbleParser.frame { footer.append("- = \(frame)") }
        if let asked = options.frame, asked != frame {
            footer.append("(\(asked) a column would need \(end / asked.nanoseconds) columns)")
        }
        if !footer.isEmpty {
            // Wrapped to the diagram's width, entry by entry, under the lanes.
            let indent = Swift.max(labelWidth, 7)
            let width = Swift.max(options.maxColumns, 40)
            var line = "legend" + String(repeating: " ", count: indent - 6)
            var lineHasEntry = false
            for (i, entry) in footer.enumerated() {
                let piece = entry + (i < footer.count - 1 ? "," : "")
                if lineHasEntry, line.count + 1 + piece.count > indent + width {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                    lineHasEntry = false
                }
                line += (lineHasEntry ? " " : "") + piece
                lineHasEntry = true
            }
            lines.append(line)
        }
        let legendEntries = legend.entries.filter { used.contains($0.symbol) && MarbleLegend.naturalSymbol(for: $0.value) != $0.symbol }
        return Rendered(frame: frame, marbles: marbles, events: lanes.map(\.events),
                        isPlain: lanes.map { $0.start == nil && $0.cancelled == nil && !$0.isSubscription },
                        legend: legendEntries, error: firstError, lines: lines)
    }

    /// Events falling in one column.
    struct Cell {
        var column: Int64
        var events: [(symbol: Character, text: String, kind: Kind)]
        enum Kind { case value, error, completion }

        /// How it is written: `a`, `(ab|)`, or in wide mode the values themselves.
        var text: String {
            let parts = events.map(\.text)
            return parts.count == 1 ? parts[0] : "(" + parts.joined() + ")"
        }
    }

    static func cells(_ events: [TimedEvent], frame: TimeSpan, legend: inout MarbleLegend, wide: Bool) -> [Cell] {
        var cells: [Cell] = []
        // Compared by column alone: binding the last cell would copy its
        // events, and appending to them would then copy them each time.
        var lastColumn: Int64?
        for event in events {
            let column = event.time.nanoseconds / frame.nanoseconds
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
                cells.append(Cell(column: column, events: [(symbol, text, kind)]))
                lastColumn = column
            }
        }
        return cells
    }

    /// Columns that must be wider than one character, and how wide: in
    /// marble syntax a group takes as many frames as its characters, so
    /// only wide mode widens a column.
    static func columnWidths(_ lanes: [[Cell]], wide: Bool) -> [Int64: Int] {
        guard wide else { return [:] }
        var widths: [Int64: Int] = [:]
        for cell in lanes.flatMap({ $0 }) { widths[cell.column] = Swift.max(widths[cell.column] ?? 1, cell.text.count) }
        return widths
    }

    static func width(of column: Int64, in layout: [Int64: Int]) -> Int { layout[column] ?? 1 }

    /// One lane: dashes up to each cell; a cell that would start before the
    /// end of the previous one (a group wider than the gap) follows it.
    static func draw(
        _ cells: [Cell], layout: [Int64: Int], paint: LanePaint, bounds: (start: Int64?, cancelled: Int64?) = (nil, nil)
    ) -> (plain: String, colored: String) {
        var plain = "", colored = ""
        var column: Int64 = 0
        /// Dashes (or blanks before a late start) up to `target`.
        func advance(to target: Int64) {
            while column < target {
                let filler: Character = column < (bounds.start ?? 0) ? " " : "-"
                let text = String(repeating: filler, count: width(of: column, in: layout))
                plain += text
                colored += text
                column += 1
            }
        }
        for cell in cells {
            advance(to: cell.column)
            let text = cell.text
            let padded = layout.isEmpty ? text : text + String(repeating: "-", count: Swift.max(0, width(of: cell.column, in: layout) - text.count))
            plain += padded
            colored += paint.cell(cell, padded)
            // A group of n characters spans n frames, as marble syntax reads it.
            column = cell.column + (layout.isEmpty ? Int64(text.count) : 1)
        }
        if let cancelled = bounds.cancelled {
            advance(to: cancelled)
            plain += "!"
            colored += paint.cancellation("!")
        } else if let start = bounds.start, cells.isEmpty {
            advance(to: start)
        }
        return (plain, colored)
    }

    static func drawSubscription(start: Int64, end: Int64?, layout: [Int64: Int]) -> (plain: String, colored: String) {
        var text = ""
        for column in 0..<start { text += String(repeating: " ", count: width(of: column, in: layout)) }
        guard let end else { return (text + "^", text + "^") }
        if end == start { return (text + "(^!)", text + "(^!)") }
        text += "^" + String(repeating: " ", count: Swift.max(0, width(of: start, in: layout) - 1))
        for column in (start + 1)..<end { text += String(repeating: "-", count: width(of: column, in: layout)) }
        return (text + "!", text + "!")
    }

    /// `0    5    10`: a tick label every 5 columns, in frames at 1 ms;
    /// every 10 columns, in time (`0    1s    2s`), at a coarser scale.
    static func ruler(layout: [Int64: Int], frame: TimeSpan, width: Int) -> String {
        let inFrames = frame == MarbleParser.frame
        let step: Int64 = inFrames ? 5 : 10
        var out = ""
        // Counted as it grows: `out.count` would walk the whole ruler.
        var length = 0
        var column: Int64 = 0
        var position = 0
        var nextFree = 0
        while position < width {
            if column % step == 0, position >= nextFree {
                let label = column == 0 ? "0" : inFrames ? String(column) : (frame * column).description
                out += String(repeating: " ", count: position - length) + label
                length = position + label.count
                nextFree = length + 1
            }
            position += Self.width(of: column, in: layout)
            column += 1
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
