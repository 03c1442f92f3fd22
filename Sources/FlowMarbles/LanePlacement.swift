import FlowRuntime

/// Places the lanes of one diagram on one time axis: every frame has one
/// column (or a run of columns) shared by all lanes, so an event is drawn
/// under the events of the same instant in every other lane.
///
/// A frame is one column unless a lane writes something wider there (a
/// group `(ab)`, a value printed in place); the frame then widens in every
/// lane, and the lanes that have nothing wide there are padded after that
/// frame's `-` with the padding character (a space, which marble syntax
/// ignores, so a padded lane reads back as the same events).
struct LanePlacement {
    /// What one lane writes at one frame.
    struct Mark {
        var frame: Int64
        var text: String
        /// Terminal columns of `text`.
        var width: Int
        /// Frames the text takes when read back as marble syntax: 1 for a
        /// symbol or a `[ ]` group, its characters for a `( )` group.
        var span: Int64

        init(frame: Int64, text: String, span: Int64 = 1) {
            self.frame = frame
            self.text = text
            self.width = text.terminalColumns
            self.span = span
        }

        /// Several events of one frame, written as RxJS writes them, `(ab)`,
        /// where the lane's next mark is far enough for the group's width;
        /// else as flow's one-frame group `[ab]`, which RxJS cannot write.
        static func group(frame: Int64, _ parts: [String], nextFrame: Int64?) -> Mark {
            guard parts.count > 1 else { return Mark(frame: frame, text: parts.first ?? "") }
            let inner = parts.joined()
            let width = Int64(inner.count + 2)
            if let nextFrame, nextFrame - frame < width { return Mark(frame: frame, text: "[" + inner + "]") }
            return Mark(frame: frame, text: "(" + inner + ")", span: width)
        }
    }

    let lanes: [[Mark]]
    /// Every frame some lane writes at, and frame 0, in order.
    private let frames: [Int64]
    /// The column where each of `frames` starts.
    private var positions: [Int]
    /// For each gap between consecutive `frames`: written as a time
    /// progression (`a 120ms b`) instead of dashes.
    private let compressed: [Bool]
    /// Compressed gaps before each index of `frames`, to ask in O(1)
    /// whether a stretch of time crosses one.
    private let compressedBefore: [Int]

    /// The time of one frame, when a time progression is written in time
    /// (`1.5s`) rather than in frames of 1 ms (`1500ms`).
    private let frameTime: TimeSpan?

    /// `longestGap`: a wait longer than this many frames is written as a
    /// time progression; nil writes every frame. `anchors` are frames that
    /// must have a column of their own though no lane writes there (where
    /// an inner stream starts), so no gap swallows them. `frameTime` writes
    /// progressions as the time they stand for at that scale.
    /// `leavingOutBefore`: the wait from frame 0 to that frame is left
    /// out however short (a slide showing a later part of a diagram), when
    /// its progression is narrower than its dashes.
    init(lanes: [[Mark]], longestGap: Int64? = nil, anchors: [Int64] = [], frameTime: TimeSpan? = nil, leavingOutBefore: Int64? = nil) {
        self.lanes = lanes
        self.frameTime = frameTime
        frames = Set(lanes.joined().map(\.frame) + anchors + [0] + (leavingOutBefore.map { [$0] } ?? [])).sorted()
        let leftOut = { (earlier: Int64, later: Int64) in
            earlier == 0 && later == leavingOutBefore && later - 1 > Int64(Self.progression(later).count)
        }
        compressed = zip(frames, frames.dropFirst()).map { earlier, later in
            leftOut(earlier, later) || (longestGap.map { later - earlier - 1 > $0 } ?? false)
        }
        var before = [0]
        for gap in compressed { before.append(before.last! + (gap ? 1 : 0)) }
        compressedBefore = before
        positions = Array(repeating: 0, count: frames.count)
        place()
    }

    private func index(of frame: Int64) -> Int { lastIndex(atOrBefore: frame) }

    /// The index of the last of `frames` at or before `frame`.
    private func lastIndex(atOrBefore frame: Int64) -> Int {
        var low = 0, high = frames.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frames[middle] <= frame { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Whether waiting from `start` to the mark frame `end` crosses a gap
    /// written as a time progression.
    private func crossesCompressedGap(from start: Int64, to end: Int64) -> Bool {
        compressedBefore[index(of: end)] > compressedBefore[lastIndex(atOrBefore: start)]
    }

    static func progression(_ frames: Int64) -> String { " \(frames)ms " }

    /// `frames` of waiting written as a time progression at this scale.
    func progression(_ frames: Int64) -> String {
        guard let frameTime else { return Self.progression(frames) }
        return " \(TimeSpan(nanoseconds: frameTime.nanoseconds.multipliedReportingOverflow(by: frames).partialValue)) "
    }

    /// A stretch of time left out of the axis (written as a time
    /// progression): after frame `after`, before frame `before`, over the
    /// columns `columns`.
    struct Gap {
        var after: Int64
        var before: Int64
        var columns: Range<Int>
    }

    /// Every stretch of time the axis leaves out, in order.
    var gaps: [Gap] {
        compressed.indices.filter { compressed[$0] }.map { i in
            // The gap's columns begin after what is written at its first frame.
            let widest = lanes.compactMap { lane in lane.last { $0.frame == frames[i] }.map(\.width) }.max() ?? 1
            let start = Swift.min(positions[i] + Swift.max(1, widest), positions[i + 1])
            return Gap(after: frames[i], before: frames[i + 1], columns: start..<positions[i + 1])
        }
    }

    /// Where `frame` is drawn, in columns, fractions included: inside a
    /// gap, the same share of the gap's columns as of its time.
    func position(of frame: Int64) -> Double {
        if let column = column(of: frame) { return Double(column) }
        let i = lastIndex(atOrBefore: frame)
        guard i + 1 < frames.count, let gap = gaps.first(where: { $0.after == frames[i] }) else { return Double(positions[i]) }
        let share = Double(frame - gap.after) / Double(Swift.max(1, gap.before - gap.after))
        return Double(gap.columns.lowerBound) + share * Double(gap.columns.count)
    }

    /// The first frame at or after `frame` that has a column of its own.
    func shownFrame(atOrAfter frame: Int64) -> Int64? {
        if column(of: frame) != nil { return frame }
        let i = lastIndex(atOrBefore: frame)
        return i + 1 < frames.count ? frames[i + 1] : nil
    }

    /// Each frame's column: after the previous frame's, and far enough
    /// for what every lane writes before it.
    private mutating func place() {
        var required = Array(repeating: 0, count: frames.count)
        var next = Array(repeating: 0, count: lanes.count)
        for (i, frame) in frames.enumerated() {
            var column = required[i]
            if i > 0 {
                let gap = frame - frames[i - 1]
                let spacing = compressed[i - 1] ? progression(gap - 1).count + 1 : Int(gap)
                column = Swift.max(column, positions[i - 1] + spacing)
            }
            positions[i] = column
            for l in lanes.indices where next[l] < lanes[l].count && lanes[l][next[l]].frame == frame {
                let mark = lanes[l][next[l]]
                next[l] += 1
                guard next[l] < lanes[l].count else { continue }
                let (resume, end) = (frame + mark.span, column + mark.width)
                let following = lanes[l][next[l]].frame
                if crossesCompressedGap(from: resume, to: following) {
                    let target = index(of: following)
                    required[target] = Swift.max(required[target], end + progression(following - resume).count)
                } else {
                    // The first frame at or after `resume`: the dashes up to
                    // it must fit.
                    var target = lastIndex(atOrBefore: resume)
                    if frames[target] < resume { target += 1 }
                    required[target] = Swift.max(required[target], end + Int(frames[target] - resume))
                }
            }
        }
    }

    /// The column where `frame` starts; nil inside a gap written as a time
    /// progression.
    func column(of frame: Int64) -> Int? {
        let i = lastIndex(atOrBefore: frame)
        if frames[i] == frame { return positions[i] }
        guard i + 1 < frames.count else {
            // A `( )` group goes on frame by frame; a wider mark widens
            // its own frame only.
            let widest = lanes.compactMap { lane in lane.last { $0.frame == frames[i] }.map { $0.width - Int($0.span) + 1 } }.max() ?? 1
            return positions[i] + Swift.max(1, widest) + Int(frame - frames[i] - 1)
        }
        if compressed[i] { return nil }
        return positions[i + 1] - Int(frames[i + 1] - frame)
    }

    /// One lane's text, with `paint` applied to each mark (colour), and the
    /// column of each mark. `filler` is what a frame with nothing in it
    /// shows (`-`, or a space before an inner stream was subscribed).
    /// A lane that `starts` late (an inner stream) is blank before it.
    func draw(
        _ lane: Int, padding: Character = " ", filler: (Int64) -> Character = { _ in "-" }, starts: Int64? = nil,
        paint: (Int, String) -> String = { $1 }
    ) -> (plain: String, painted: String, columns: [Int]) {
        var plain = "", painted = ""
        var width = 0
        var columns: [Int] = []
        var frame: Int64 = 0
        func write(_ text: String, columns: Int, painted paintedText: String? = nil) {
            plain += text
            painted += paintedText ?? text
            width += columns
        }
        func pad(to column: Int) {
            if column > width { write(String(repeating: padding, count: column - width), columns: column - width) }
        }
        if let starts, starts > 0, let column = column(of: starts) ?? lanes[lane].first.flatMap({ self.column(of: $0.frame) }) {
            width = column
            plain = String(repeating: " ", count: column)
            painted = plain
            frame = Swift.min(starts, lanes[lane].first?.frame ?? starts)
        }
        for (n, mark) in lanes[lane].enumerated() {
            if frame < mark.frame {
                if crossesCompressedGap(from: frame, to: mark.frame) {
                    if let start = column(of: frame) { pad(to: start) }
                    let text = progression(mark.frame - frame)
                    write(text, columns: text.count)
                } else {
                    for g in frame..<mark.frame {
                        pad(to: column(of: g) ?? width)
                        write(String(filler(g)), columns: 1)
                    }
                }
            }
            pad(to: column(of: mark.frame) ?? width)
            columns.append(width)
            write(mark.text, columns: mark.width, painted: paint(n, mark.text))
            frame = mark.frame + mark.span
        }
        return (plain, painted, columns)
    }
}
