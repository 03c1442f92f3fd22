import FlowRuntime

/// Compares recorded events with an expected marble, and explains the first
/// difference as a teacher would: both lanes aligned, a caret under it, and
/// one sentence saying whether the value, the frame or the kind differs.
public struct MarbleMismatch: CustomStringConvertible {
    public var expected: String
    public var actual: String
    public var caretColumn: Int
    public var reason: String
    public var legend: [String]
    /// What the mistake probably is, when it is a common one.
    public var hint: String?
    /// The expected lane drawn by itself, and the column of the first
    /// difference in it: aligned with the actual lane, its spacing would
    /// show where the actual events fall.
    var expectedAlone = ""
    var expectedAloneCaret = 0
    /// When the first difference happens: the earlier of the two events
    /// that differ (or the one event, where a lane has no more).
    public var time = TimeSpan.zero
    /// The lanes compared, whole: an exercise's feedback says the
    /// difference of the learner's own lane from them (`ExerciseSheet`).
    public internal(set) var expectedEvents: [TimedEvent] = []
    public internal(set) var actualEvents: [TimedEvent] = []

    /// What kind of difference it is and at which frame, without the
    /// actual lane's values or timing ("value differs at frame 5").
    public var kind: String { reason.split(separator: ":", maxSplits: 1).first.map(String.init) ?? reason }

    /// Where the expected lane is wrong, and what kind of difference it is,
    /// without the actual lane, its values or its timing: a grader's view
    /// that does not give the answer away.
    public var withoutActual: String {
        return "expected: \(expectedAlone)\n" + String(repeating: " ", count: 10 + expectedAloneCaret) + "^ " + kind
    }

    /// The stream's own lane drawn by itself, what was wrong with it, and a
    /// hint about it, never the expected lane: feedback that tells a
    /// student where and why without giving the answer away (`flow grade
    /// --feedback why`).
    public var ownLaneOnly: String {
        var lines = [
            "your lane: \(actualAlone)",
            String(repeating: " ", count: 11 + actualAloneCaret) + "^ " + ownReason,
        ]
        if !actualAloneLegend.isEmpty { lines.append("legend:    " + actualAloneLegend.joined(separator: ", ")) }
        if let ownHint { lines.append("hint:      " + ownHint) }
        return lines.joined(separator: "\n")
    }
    var actualAlone = ""
    var actualAloneCaret = 0
    var actualAloneLegend: [String] = []
    /// The first difference said of the stream's lane alone.
    public var ownReason = ""
    /// A hint about the stream's lane, never blaming the expected one.
    public var ownHint: String?

    public var description: String {
        var lines = [
            "expected: \(expected)",
            "actual:   \(actual)",
            String(repeating: " ", count: 10 + caretColumn) + "^ " + reason,
        ]
        if !legend.isEmpty { lines.append("legend:   " + legend.joined(separator: ", ")) }
        if let hint { lines.append("hint:     " + hint) }
        return lines.joined(separator: "\n")
    }
}

public enum MarbleComparison {
    /// nil when `actual` matches `expected`. With `errorGiven`, an expected
    /// error must equal the actual error's value or message; without, any
    /// error matches `#`.
    public static func compare(
        expected: [TimedEvent], actual: [TimedEvent], values: [String: Value] = [:], errorGiven: Bool = false
    ) -> MarbleMismatch? {
        guard let index = firstDifference(expected, actual, errorGiven: errorGiven) else { return nil }
        // A recorded inner stream that matches an expected `cold(...)` is
        // drawn with that one's symbol.
        let expectedStreams = expected.compactMap { timed -> ColdStream? in
            if case .next(.stream(let cold as ColdStream)) = timed.event { cold } else { nil }
        }
        let actual = expectedStreams.isEmpty ? actual : actual.map { timed in
            guard case .next(.stream(let recorded as ColdStream)) = timed.event,
                  let same = expectedStreams.first(where: { matches(.next(.stream($0)), .next(.stream(recorded)), errorGiven: true) })
            else { return timed }
            return TimedEvent(timed.time, .next(.stream(same)))
        }
        var legend = MarbleLegend(presets: values)
        // Long lanes are shown around the first difference: a few of the
        // events before it (the same in both), and a few after.
        let window = Self.window(around: index, expected.count, actual.count)
        let shownExpected = expected[window.start..<Swift.min(expected.count, window.end)]
        let shownActual = actual[window.start..<Swift.min(actual.count, window.end)]
        let drawn = MarbleRenderer.render(lanes: [Array(shownExpected), Array(shownActual)], legend: &legend)
        var (expectedLane, actualLane) = (drawn[0], drawn[1])
        if window.end < expected.count { expectedLane.text += " …" }
        if window.end < actual.count { actualLane.text += " …" }
        let shown = index - window.start
        let column: Int
        switch (index < expected.count, index < actual.count) {
        case (true, true):
            column = expected[index].time <= actual[index].time ? expectedLane.columns[shown] : actualLane.columns[shown]
        case (true, false): column = expectedLane.columns[shown]
        default: column = actualLane.columns[shown]
        }
        let reason = explain(index, expected, actual, legend: &legend)
        var explanations = legend.explanations(for: expectedLane.symbols.union(actualLane.symbols))
        if window.start > 0 {
            explanations.insert("(the \(window.start) events before, the same in both, are not shown)", at: 0)
        }
        var mismatch = MarbleMismatch(
            expected: expectedLane.text, actual: actualLane.text, caretColumn: column, reason: reason, legend: explanations,
            hint: inlineValueHint(index, expected, actual) ?? frameCountHint(index, expected, actual, errorGiven: errorGiven))
        (mismatch.expectedEvents, mismatch.actualEvents) = (expected, actual)
        mismatch.time = [expected.indices.contains(index) ? expected[index].time : nil,
                         actual.indices.contains(index) ? actual[index].time : nil].compactMap { $0 }.min() ?? .zero
        var ownLegend = MarbleLegend(presets: values)
        let alone = MarbleRenderer.render(lanes: [Array(shownExpected)], legend: &ownLegend)[0]
        mismatch.expectedAlone = alone.text + (window.end < expected.count ? " …" : "")
        // Past the expected lane's last event (the stream had more), the caret marks its end.
        mismatch.expectedAloneCaret = shown < alone.columns.count ? alone.columns[shown] : alone.text.count
        var actualLegend = MarbleLegend(presets: [:])
        let actualAlone = MarbleRenderer.render(lanes: [Array(shownActual)], legend: &actualLegend)[0]
        mismatch.actualAlone = actualAlone.text + (window.end < actual.count ? " …" : "")
        mismatch.actualAloneCaret = shown < actualAlone.columns.count ? actualAlone.columns[shown] : actualAlone.text.count
        mismatch.actualAloneLegend = actualLegend.explanations(for: actualAlone.symbols)
        mismatch.ownReason = explainOwn(index, expected, actual, errorGiven: errorGiven)
        mismatch.ownHint = ownFrameHint(index, expected, actual, errorGiven: errorGiven)
        return mismatch
    }

    /// `toBe("-10-")` for a value 10: each character of a marble is an
    /// event of its own, so the expected lane has a 1 and then a 0 where
    /// the stream gave one 10.
    static func inlineValueHint(_ index: Int, _ expected: [TimedEvent], _ actual: [TimedEvent]) -> String? {
        guard index < actual.count, case .next(let value) = actual[index].event, index + 1 < expected.count,
              expected[index].time == actual[index].time else { return nil }
        let written = value.description
        var text = ""
        var j = index
        while j < expected.count, case .next(let part) = expected[j].event, text.count < written.count {
            if j > index + 1, expected[j].time - expected[j - 1].time != expected[index + 1].time - expected[index].time { return nil }
            text += part.description
            j += 1
        }
        guard j - index >= 2, text == written else { return nil }
        return "each character of a marble is one event: write \(written) as one symbol with its value, as in toBe(\"-a-\", a: \(value.literal))"
    }

    /// The right event at the wrong frame: usually frames miscounted, and
    /// most often a group's, which takes a frame per character.
    static func frameCountHint(_ index: Int, _ expected: [TimedEvent], _ actual: [TimedEvent], errorGiven: Bool) -> String? {
        guard index < expected.count, index < actual.count, matches(expected[index].event, actual[index].event, errorGiven: errorGiven)
        else { return nil }
        let off = expected[index].time.frames - actual[index].time.frames
        let frames = abs(off) == 1 ? "1 frame" : "\(abs(off)) frames"
        return "the event is right but \(frames) too \(off > 0 ? "late" : "early") in the expected lane: each - is one frame, "
            + "a group (ab) takes one frame per character, and [ab] is a group of one frame"
    }

    /// The first difference said of the stream's own events: its event,
    /// its frame and the kind of difference, never the expected event.
    static func explainOwn(_ i: Int, _ expected: [TimedEvent], _ actual: [TimedEvent], errorGiven: Bool) -> String {
        func describe(_ e: TimedEvent) -> String {
            switch e.event {
            case .next(let v): return "next(\(v.literal))"
            case .error(let err): return "error(\(err.value.literal))"
            case .completed: return "completion"
            }
        }
        guard i < actual.count else {
            let after = actual.last.map { " after frame \($0.time.frames)" } ?? ""
            return "missing event: the stream sent nothing more\(after); another event was expected at frame \(expected[i].time.frames)"
        }
        let a = actual[i]
        guard i < expected.count else {
            return "unexpected event: \(describe(a)) at frame \(a.time.frames), after all expected events"
        }
        let e = expected[i]
        let sameKind: Bool
        switch (e.event, a.event) {
        case (.next, .next), (.error, .error), (.completed, .completed): sameKind = true
        default: sameKind = false
        }
        if !sameKind {
            if e.time < a.time { return "missing event: another kind of event was expected at frame \(e.time.frames), before this \(describe(a))" }
            return "kind differs: \(describe(a)) at frame \(a.time.frames) is not the kind of event expected there"
        }
        if e.time != a.time {
            let right = matches(e.event, a.event, errorGiven: true)
            return "frame differs: \(describe(a)) at frame \(a.time.frames) is \(right ? "the right event at the wrong frame" : "not expected at this frame")"
        }
        return "value differs at frame \(a.time.frames): \(describe(a)) is not the value expected"
    }

    /// The right event at the wrong frame, said of the stream's lane.
    static func ownFrameHint(_ index: Int, _ expected: [TimedEvent], _ actual: [TimedEvent], errorGiven: Bool) -> String? {
        guard index < expected.count, index < actual.count, matches(expected[index].event, actual[index].event, errorGiven: errorGiven)
        else { return nil }
        let off = expected[index].time.frames - actual[index].time.frames
        let frames = abs(off) == 1 ? "1 frame" : "\(abs(off)) frames"
        return "your event is right but \(frames) too \(off > 0 ? "early" : "late"): look at what delays or hurries your stream"
    }

    /// Events kept on each side of the first difference when a lane is long.
    static let context = 8

    /// The events drawn: all of a short lane; of a long one, `context`
    /// events on each side of the first difference.
    static func window(around index: Int, _ expected: Int, _ actual: Int) -> (start: Int, end: Int) {
        let longest = Swift.max(expected, actual)
        if longest <= 4 * context { return (0, longest) }
        return (Swift.max(0, index - context), index + context + 1)
    }

    static func firstDifference(_ expected: [TimedEvent], _ actual: [TimedEvent], errorGiven: Bool) -> Int? {
        for i in 0..<Swift.max(expected.count, actual.count) {
            guard i < expected.count, i < actual.count else { return i }
            if expected[i].time != actual[i].time || !matches(expected[i].event, actual[i].event, errorGiven: errorGiven) {
                return i
            }
        }
        return nil
    }

    public static func matches(_ expected: Event, _ actual: Event, errorGiven: Bool) -> Bool {
        switch (expected, actual) {
        case let (.next(.stream(a)), .next(.stream(b as ColdStream))) where b.recordedFrom === a:
            // The very stream that was recorded (drawn) is expected.
            return true
        case let (.next(.stream(a as ColdStream)), .next(.stream(b as ColdStream))):
            // An expected `cold(...)` value and a recorded inner stream (a
            // group, a window): the same events at the same times.
            return a === b || (a.events.count == b.events.count
                && zip(a.events, b.events).allSatisfy { $0.time == $1.time && matches($0.event, $1.event, errorGiven: true) })
        case let (.next(a), .next(b)): return a == b
        case (.completed, .completed): return true
        case let (.error(e), .error(a)):
            guard errorGiven else { return true }
            return e.value == a.value || e.message == a.message
        default: return false
        }
    }

    private static func explain(_ i: Int, _ expected: [TimedEvent], _ actual: [TimedEvent], legend: inout MarbleLegend) -> String {
        func describe(_ e: TimedEvent) -> String {
            switch e.event {
            case .next(let v):
                let symbol = legend.symbol(for: v)
                return MarbleLegend.naturalSymbol(for: v) == symbol ? "next(\(v.literal))" : "next(\(v.literal)) '\(symbol)'"
            case .error(let err): return "error(\(err.value.literal))"
            case .completed: return "completion"
            }
        }
        guard i < actual.count else {
            return "missing event: expected \(describe(expected[i])) at frame \(expected[i].time.frames), but the stream sent nothing more"
        }
        guard i < expected.count else {
            return "unexpected event: \(describe(actual[i])) at frame \(actual[i].time.frames), after all expected events"
        }
        let e = expected[i], a = actual[i]
        let sameKind: Bool
        switch (e.event, a.event) {
        case (.next, .next), (.error, .error), (.completed, .completed): sameKind = true
        default: sameKind = false
        }
        if !sameKind {
            return "kind differs: expected \(describe(e)) at frame \(e.time.frames), got \(describe(a)) at frame \(a.time.frames)"
        }
        if e.time != a.time {
            let what = matches(e.event, a.event, errorGiven: true) ? "" : " (and the value differs: got \(describe(a)))"
            return "frame differs: expected \(describe(e)) at frame \(e.time.frames), got it at frame \(a.time.frames)\(what)"
        }
        return "value differs at frame \(e.time.frames): expected \(describe(e)), got \(describe(a))"
    }

    /// nil when the logs match; else both sides, one log per line.
    public static func compare(expected: [SubscriptionLog], actual: [SubscriptionLog]) -> String? {
        guard expected != actual else { return nil }
        func show(_ logs: [SubscriptionLog]) -> String {
            logs.isEmpty ? "[] (never subscribed)" : logs.map { MarbleRenderer.render($0) }.joined(separator: "\n          ")
        }
        let index = (0..<Swift.max(expected.count, actual.count)).first {
            $0 >= expected.count || $0 >= actual.count || expected[$0] != actual[$0]
        } ?? 0
        return """
            subscriptions differ (first at entry \(index + 1)):
            expected: \(show(expected))
            actual:   \(show(actual))
            """
    }
}
