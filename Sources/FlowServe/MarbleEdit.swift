import FlowMarbles
import FlowRuntime

/// Rewrites an input marble string when the page drags one of its events
/// along the time axis: the event moves, the others stay, and the string
/// is written again in flow's notation (so it still reads as exactly the
/// events the lane shows).
enum MarbleEdit {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// `marble` with event `index` moved `frames` frames (earlier when
    /// negative, never before frame 0). The marble's symbols are kept.
    ///
    /// In a hot marble, events are counted from `^` on, and move only
    /// there: what comes before the subscription is kept as written.
    /// The furthest a drag moves an event, and the latest frame it may land
    /// on: a marble is drawn a character a frame, so a drag of 10^13
    /// frames would overflow the clock or draw gigabytes.
    static let largestShift: Int64 = 100_000

    static func move(_ marble: String, event index: Int, by frames: Int64) throws -> String {
        guard (-Self.largestShift...Self.largestShift).contains(frames) else {
            throw Refused(description: "a drag moves an event at most \(Self.largestShift) frames, not \(frames)")
        }
        if let (before, after) = try splitAtSubscription(marble) {
            // `^` takes the frame it is written in: what follows starts a frame later.
            return before + "^" + (try move(after, event: index, by: frames))
        }
        var events: [TimedEvent]
        do {
            events = try MarbleParser.parseEvents(marble, values: symbolValues(marble), isInput: true).events
        } catch {
            throw Refused(description: "the marble does not parse: \(error)")
        }
        guard events.indices.contains(index) else { throw Refused(description: "the marble has no event \(index)") }
        let moved = events.remove(at: index)
        let time = TimeSpan(nanoseconds: Swift.max(0, moved.time.nanoseconds + frames * MarbleParser.frame.nanoseconds))
        guard time.nanoseconds / MarbleParser.frame.nanoseconds <= Self.largestShift else {
            throw Refused(description: "an event may be dragged to frame \(Self.largestShift) at the latest")
        }
        let placed = TimedEvent(time, moved.event)
        // A value dragged onto or past the end pushes the end a frame
        // after it; the end dragged before values takes them along.
        if !placed.event.isTerminal, let end = events.lastIndex(where: { $0.event.isTerminal }), placed.time >= events[end].time {
            events[end].time = placed.time + MarbleParser.frame
        }
        if placed.event.isTerminal {
            events = events.map { $0.time > placed.time ? TimedEvent(placed.time, $0.event) : $0 }
        }
        // In time order; in one frame, values before the end.
        let at = events.firstIndex { $0.time > placed.time || (!placed.event.isTerminal && $0.time == placed.time && $0.event.isTerminal) }
            ?? events.count
        events.insert(placed, at: at)
        var legend = MarbleLegend()
        return MarbleRenderer.render(events, legend: &legend).text
    }

    /// A hot marble's text before and after its `^`; nil for a cold one.
    static func splitAtSubscription(_ marble: String) throws -> (before: String, after: String)? {
        guard let caret = marble.firstIndex(of: "^") else { return nil }
        var depth = 0
        for c in marble[..<caret] {
            if c == "(" || c == "[" { depth += 1 }
            if c == ")" || c == "]" { depth -= 1 }
        }
        guard depth == 0, marble[marble.index(after: caret)...].firstIndex(of: "^") == nil else {
            throw Refused(description: "a marble with '^' inside a group or twice is edited as text")
        }
        return (String(marble[..<caret]), String(marble[marble.index(after: caret)...]))
    }

    /// Which of the marble's movable events a lane subscribed at `start`
    /// shows first: 0 for a cold marble (each subscription sees it all),
    /// and for a hot one, how many of its events after `^` came before
    /// the subscription. Nil when the marble does not parse.
    static func firstEventSeen(in marble: String, subscribedAt start: TimeSpan) -> Int? {
        guard let split = try? splitAtSubscription(marble) else {
            return (try? MarbleParser.parseEvents(marble, values: symbolValues(marble), isInput: true)) == nil ? nil : 0
        }
        guard let events = try? MarbleParser.parseEvents(split.after, values: symbolValues(split.after), isInput: true).events else { return nil }
        return events.count { $0.time + MarbleParser.frame < start }
    }

    /// Each symbol stands for itself: a digit for its Int, anything else
    /// for its one-character string, so drawing gives the symbol back.
    static func symbolValues(_ marble: String) -> [String: Value] {
        var values: [String: Value] = [:]
        for c in marble where !MarbleParser.notation.contains(c) {
            values[String(c)] = c.isASCII && c.isNumber ? .int(c.wholeNumberValue!) : .string(String(c))
        }
        return values
    }
}
