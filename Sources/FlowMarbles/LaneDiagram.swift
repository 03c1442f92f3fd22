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
        /// For a lane of a slide that shows part of a diagram: the lane's
        /// index in the whole diagram, and the whole lane's index of the
        /// first event shown here, so a page's marks name the whole
        /// diagram's events (to drag, follow or read them).
        public var placeInWhole: EventPlace?
        /// Said in place of the lane's events, for a stream that is not
        /// drawn ("not drawn: print runs a closure that may have side
        /// effects"): no line, no marks, the words from its start.
        public var note: String?

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
        /// Leave every long wait out of the axis, whether or not the
        /// diagram would fit without (a slide showing a later part of a
        /// diagram leaves out the time before it).
        public var breaksLongWaits = false
        /// Leave the time before this out of the axis however short it is
        /// (a slide showing a later part of a diagram starts there).
        public var leavesOutTimeBefore: TimeSpan?

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
    /// Where the `marbles(...)` call that draws it is written, when known
    /// (a lesson's slides are titled by the comments above it).
    public var location: SourceLocation?

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
        /// At a scale coarser than 1 ms, a `-` is read as that scale's
        /// frame. nil where a lane is not marble syntax: a subscription
        /// lane, values printed in place.
        public func readBack(_ index: Int) throws -> [TimedEvent]? {
            let lane = drawnLanes[index]
            guard !wide, !lane.isSubscription else { return nil }
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
            return try MarbleParser.parseEvents(String(text), values: values, error: error, frame: frame).events.map {
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

    /// At least how many bytes the diagram takes drawn, in the larger of
    /// its forms, counted without drawing it and not past `limit`: SVG
    /// writes each event's value whole (its tooltip) with a few hundred
    /// bytes of marks, and the text each lane as wide as the diagram.
    public func drawnBytesAtLeast(upTo limit: Int) -> Int {
        let perLane = 300, perEvent = 300
        var total = 0
        for lane in lanes {
            total += perLane + lane.label.utf8.count
            for event in lane.events {
                total += perEvent
                if case .next(let value) = event.event, total <= limit { total += value.printedBytesAtLeast(upTo: limit - total) }
            }
            if total > limit { return total }
        }
        // Lanes as wide as the widest diagram could not pass the limit: the
        // scale need not be chosen to know.
        guard total + lanes.count * Int(Self.widestDiagram) > limit else { return total }
        let columns = Swift.min(Int64(Self.longestLane), estimatedColumns(frame: chooseFrame().nanoseconds))
        return total + lanes.count * Int(columns)
    }

    /// The last time the diagram shows: its last event, start or cancellation.
    var end: Int64 {
        lanes.flatMap { lane in lane.events.map(\.time.nanoseconds) + [lane.start, lane.cancelled].compactMap { $0?.nanoseconds } }
            .max() ?? 0
    }

    /// How a diagram is drawn in time: the time per column, and whether
    /// long waits are left out of the axis (written as time progressions,
    /// `a 995ms b`, and drawn as a marked break).
    public struct Scale: Equatable, Sendable {
        public var frame: TimeSpan
        public var breaksAxis: Bool
    }

    public func chooseFrame() -> TimeSpan { chooseScale().frame }

    /// The frame asked for, if the diagram fits `widestDiagram` with it.
    /// Else the finest nice frame that keeps the diagram true to time
    /// (events of different times in different columns, each exactly at
    /// its time) and fits in `maxColumns`: first with every frame drawn,
    /// then with long waits left out of the axis. When no true scale fits,
    /// the narrowest true one; only when there is none (a very long run of
    /// close events), as coarse a frame as the run needs.
    public func chooseScale() -> Scale {
        let end = self.end
        if let frame = options.frame, end / frame.nanoseconds + 4 <= Self.widestDiagram { return Scale(frame: frame, breaksAxis: false) }
        let candidates = Self.niceFrames.filter { end / $0 + 4 <= Self.widestDiagram }
        let times = Set(lanes.flatMap { $0.events.map(\.time.nanoseconds) }).sorted()
        let anchors = lanes.flatMap { [$0.start, $0.cancelled].compactMap { $0?.nanoseconds } }
        let rounding = options.roundsToNearestFrame
        let limit = Int64(maxColumns)
        var trueScales: [(frame: Int64, exact: Bool)] = []
        // Any frame may be true to time: one too fine to draw every frame
        // of the run can still leave its long waits out.
        for frame in Self.niceFrames {
            let column = { (t: Int64) in (t + (rounding ? frame / 2 : 0)) / frame }
            guard zip(times, times.dropFirst()).allSatisfy({ column($0) != column($1) }) else { continue }
            // Times read from the wall clock are never exact: in the nearest column is true enough.
            let exact = rounding || (times + anchors).allSatisfy { $0 % frame == 0 }
            trueScales.append((frame, exact))
            if exact, end / frame + 4 <= Self.widestDiagram, estimatedColumns(frame: frame) + 4 <= limit {
                return Scale(frame: TimeSpan(nanoseconds: frame), breaksAxis: false)
            }
        }
        var narrowest: (scale: Scale, columns: Int64, exact: Bool)?
        for (frame, exact) in trueScales {
            let columns = estimatedColumns(frame: frame, breakingAfter: MarbleRenderer.longGap)
            let scale = Scale(frame: TimeSpan(nanoseconds: frame), breaksAxis: true)
            if exact, columns + 4 <= limit { return scale }
            if let known = narrowest, (known.exact && !exact) || (known.exact == exact && known.columns <= columns) { continue }
            narrowest = (scale, columns, exact)
        }
        if let narrowest, narrowest.columns + 4 <= Self.widestDiagram { return narrowest.scale }
        // No scale keeps every event apart: a coarse frame that puts
        // events of different times in one column makes groups, each
        // wider than a column, so the widest lane counts.
        var squeezed: (frame: Int64, columns: Int64)?
        for frame in candidates {
            let columns = estimatedColumns(frame: frame)
            if columns + 4 <= limit { return Scale(frame: TimeSpan(nanoseconds: frame), breaksAxis: false) }
            // A coarser scale must be clearly narrower to be worth its
            // groups (one group of everything is never worth it).
            if squeezed == nil || columns * 10 < squeezed!.columns * 9 { squeezed = (frame, columns) }
        }
        if let squeezed { return Scale(frame: TimeSpan(nanoseconds: squeezed.frame), breaksAxis: false) }
        return Scale(frame: TimeSpan(nanoseconds: end / (Self.widestDiagram - 4) + 1), breaksAxis: false)
    }

    /// About how many columns the diagram takes at `frame` when every
    /// wait longer than `longest` frames is written as a time progression.
    func estimatedColumns(frame: Int64, breakingAfter longest: Int64) -> Int64 {
        let half: Int64 = options.roundsToNearestFrame ? frame / 2 : 0
        var occupied: Set<Int64> = [0]
        for lane in lanes {
            for event in lane.events { occupied.insert((event.time.nanoseconds + half) / frame) }
            for time in [lane.start, lane.cancelled].compactMap({ $0 }) { occupied.insert((time.nanoseconds + half) / frame) }
        }
        let columns = occupied.sorted()
        var width: Int64 = 1
        for (earlier, later) in zip(columns, columns.dropFirst()) {
            let wait: Int64 = later - earlier - 1
            width += wait > longest ? Int64(TimeSpan(nanoseconds: wait * frame).description.count + 3) : wait + 1
        }
        // Groups of one instant widen their frame.
        let groups = lanes.map { lane in
            var extra: Int64 = 0
            var index = lane.events.startIndex
            while index < lane.events.endIndex {
                let time = lane.events[index].time
                var next = index + 1
                while next < lane.events.endIndex, lane.events[next].time == time { next += 1 }
                if next - index > 1 { extra += Int64(next - index + 1) }
                index = next
            }
            return extra
        }
        return width + (groups.max() ?? 0)
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
        let scale = chooseScale()
        let frame = scale.frame
        var legend = MarbleLegend(presets: options.symbols)
        legend.reserveNaturalSymbols(for: lanes.lazy.flatMap(\.events).compactMap { if case .next(let v) = $0.event { v } else { nil } })
        let paint = LanePaint(enabled: options.color)
        // Symbols first, so that every lane shares one legend.
        let cells = lanes.map { lane in Self.cells(lane.events, frame: frame, legend: &legend, wide: options.wide, rounding: options.roundsToNearestFrame) }
        let marks = zip(lanes, cells).map { lane, laneCells in
            Self.marks(for: lane, laneCells, frame: frame, wide: options.wide, rounding: options.roundsToNearestFrame)
        }
        let rounding = options.roundsToNearestFrame
        let placement = LanePlacement(
            lanes: marks, longestGap: scale.breaksAxis || options.breaksLongWaits ? MarbleRenderer.longGap : nil,
            anchors: lanes.compactMap { $0.isSubscription ? nil : $0.start.map { Self.column($0, frame: frame, rounding: rounding) } },
            frameTime: frame, leavingOutBefore: options.leavesOutTimeBefore.map { Self.column($0, frame: frame, rounding: rounding) })
        let labels = lanes.map { Self.displayLabel($0.label) }
        let labelWidth = (labels.map(\.terminalColumns).max() ?? 0) + 2
        var marbles: [String] = []
        var drawn: [String] = []
        var used = Set<Character>()
        for (index, (lane, laneCells)) in zip(lanes, cells).enumerated() {
            let start = lane.isSubscription ? nil : lane.start.map { Self.column($0, frame: frame, rounding: rounding) }
            let isNote = lane.note != nil
            let (plain, painted, _) = placement.draw(
                index, padding: options.wide ? "-" : " ", filler: { frame in isNote || frame < (start ?? 0) ? " " : "-" }, starts: start,
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
            for (lane, (label, (plain, painted))) in zip(lanes, zip(labels, zip(marbles, drawn))) {
                if let note = lane.note {
                    lines.append(label.padded(toColumns: labelWidth) + plain + note)
                    continue
                }
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
                        isPlain: lanes.map { $0.start == nil && $0.cancelled == nil && !$0.isSubscription && $0.note == nil },
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
        while true {
            guard let position = placement.column(of: tick) else {
                // A stretch left out of the axis: the ruler goes on after
                // it, first at the frame where the axis resumes.
                guard let resumes = placement.shownFrame(atOrAfter: tick), resumes > tick else { break }
                tick = resumes
                continue
            }
            guard position < width else { break }
            if position >= length + (tick == 0 ? 0 : 1) {
                let label = tick == 0 ? "0" : inFrames ? String(tick) : (frame * tick).description
                out += String(repeating: " ", count: position - length) + label
                length = position + label.count
            }
            // The next multiple of the step.
            tick = (tick / step + 1) * step
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
