import FlowRuntime

/// One event at a time: what a marble string describes and what a run records.
public struct TimedEvent: CustomStringConvertible {
    public var time: TimeSpan
    public var event: Event

    public init(_ time: TimeSpan, _ event: Event) {
        self.time = time
        self.event = event
    }

    public var description: String { "\(event)@\(time.frames)" }
}

/// One subscription's life: `^` where it started, `!` where it ended (nil
/// while still subscribed).
public struct SubscriptionLog: Equatable, CustomStringConvertible {
    public var subscribed: TimeSpan
    public var unsubscribed: TimeSpan?

    public init(subscribed: TimeSpan, unsubscribed: TimeSpan?) {
        self.subscribed = subscribed
        self.unsubscribed = unsubscribed
    }

    public var description: String { MarbleRenderer.render(self) }
}

/// A problem in a marble string, with the character offset it concerns.
public struct MarbleSyntaxError: Error, CustomStringConvertible {
    public var message: String
    /// Offset in characters from the start of the marble string.
    public var offset: Int
    public var description: String { "\(message) (at character \(offset + 1) of the marble string)" }
}

/// Parses marble strings with RxJS `TestScheduler.run` syntax: `-` is one
/// 1 ms frame, spaces are ignored, `( )` groups events into one frame,
/// `10ms`/`1.5s`/`2m`/`1h` after a space advance time, `|` completes, `#`
/// fails, `^` marks frame 0 of a hot stream (or a subscription), `!` an
/// unsubscription. flow adds `[ ]`: a group that takes one frame, however
/// wide, so that events at frames 0, 0 and 1 can be written (`[ab]c`),
/// which RxJS's groups cannot express.
public enum MarbleParser {
    /// `"???"`: the expected lane of an exercise, left for the learner to
    /// write. Three or more `?` and nothing else (spaces aside).
    public static func isPlaceholder(_ marbles: String) -> Bool {
        let marks = marbles.filter { $0 != " " }
        return marks.count >= 3 && marks.allSatisfy { $0 == "?" }
    }

    public static let frame = TimeSpan.milliseconds(Int64(1))

    /// The characters that are notation, never a value's symbol (a space
    /// is ignored).
    public static let notation: Set<Character> = ["-", "|", "#", "^", "!", "(", ")", "[", "]", " "]

    public struct Parsed {
        public var events: [TimedEvent]
        /// Time of `^` measured from the string's start, if present.
        public var subscriptionOffset: TimeSpan?
        /// Where the first event after the terminal one is written, in an
        /// input marble that has one (it is never delivered).
        public var ignoredEventOffset: Int?
    }

    /// Parses an event marble. `values` maps symbols to values (else a
    /// digit is an Int and any other symbol a String); `error` is the value
    /// of `#` (default "error"). With `allowSubscriptionPoint`, one `^` may
    /// mark frame 0 (hot streams), and event times are measured from it.
    /// An input marble (`isInput`) may go on after `|` or `#`, as RxJS
    /// allows (`"--a--#--b--|"`): nothing after the terminal is delivered.
    /// An expected marble may not, as no stream could produce it.
    public static func parseEvents(
        _ marbles: String, values: [String: Value] = [:], error: Value? = nil, allowSubscriptionPoint: Bool = false,
        isInput: Bool = false, frame unit: TimeSpan = MarbleParser.frame
    ) throws -> Parsed {
        var events: [TimedEvent] = []
        var subscriptionOffset: TimeSpan?
        var terminalSeen = false
        var ignoredEventOffset: Int?
        func isAfterTerminal(_ offset: Int) throws -> Bool {
            guard terminalSeen else { return false }
            if isInput {
                if ignoredEventOffset == nil { ignoredEventOffset = offset }
                return true
            }
            throw MarbleSyntaxError(message: "an event after '|' or '#': nothing may follow a terminal event", offset: offset)
        }
        try scan(marbles, frame: unit) { token, time, offset in
            switch token {
            case .subscribe:
                guard allowSubscriptionPoint else {
                    throw MarbleSyntaxError(message: "'^' marks a subscription point and is only allowed in hot(...) and subscription marbles", offset: offset)
                }
                guard subscriptionOffset == nil else { throw MarbleSyntaxError(message: "a second '^'", offset: offset) }
                subscriptionOffset = time
            case .unsubscribe:
                throw MarbleSyntaxError(message: "'!' marks an unsubscription and is only allowed in subscription marbles", offset: offset)
            case .value(let symbol):
                guard try !isAfterTerminal(offset) else { return }
                events.append(TimedEvent(time, .next(lookup(symbol, in: values))))
            case .complete:
                guard try !isAfterTerminal(offset) else { return }
                terminalSeen = true
                events.append(TimedEvent(time, .completed))
            case .error:
                guard try !isAfterTerminal(offset) else { return }
                terminalSeen = true
                events.append(TimedEvent(time, .error(FlowError(error ?? .string("error")))))
            }
        }
        if let zero = subscriptionOffset {
            for i in events.indices { events[i].time = events[i].time - zero }
        }
        return Parsed(events: events, subscriptionOffset: subscriptionOffset, ignoredEventOffset: ignoredEventOffset)
    }

    /// Parses a subscription marble such as `"--^---!"`.
    public static func parseSubscription(_ marbles: String) throws -> SubscriptionLog {
        var start: TimeSpan?
        var end: TimeSpan?
        try scan(marbles) { token, time, offset in
            switch token {
            case .subscribe:
                guard start == nil else { throw MarbleSyntaxError(message: "a second '^'", offset: offset) }
                start = time
            case .unsubscribe:
                guard end == nil else { throw MarbleSyntaxError(message: "a second '!'", offset: offset) }
                end = time
            default:
                throw MarbleSyntaxError(message: "a subscription marble holds only '-', '^' and '!'", offset: offset)
            }
        }
        let subscribed = start ?? .zero
        if let end, end < subscribed {
            throw MarbleSyntaxError(message: "'!' comes before '^'", offset: marbles.distance(from: marbles.startIndex, to: marbles.firstIndex(of: "!")!))
        }
        return SubscriptionLog(subscribed: subscribed, unsubscribed: end)
    }

    /// The time a marble string spans: `time("---|")` is 3 ms (the frame of `|`).
    public static func duration(of marbles: String) throws -> TimeSpan {
        var last: TimeSpan = .zero
        var sawEvent = false
        var end: TimeSpan = .zero
        try scan(marbles) { _, time, _ in
            last = time
            sawEvent = true
        } atEnd: { end = $0 }
        return sawEvent ? last : end
    }

    static func lookup(_ symbol: Character, in values: [String: Value]) -> Value {
        if let v = values[String(symbol)] { return v }
        if let digit = symbol.wholeNumberValue, symbol.isASCII { return .int(digit) }
        return .string(String(symbol))
    }

    enum Token {
        case value(Character), complete, error, subscribe, unsubscribe
    }

    /// Walks the string, reporting each symbol with its time and offset.
    /// `unit` is the time of one frame (`-`): 1 ms in marble syntax, more
    /// in a diagram drawn at a coarser scale.
    static func scan(
        _ marbles: String, frame unit: TimeSpan = MarbleParser.frame, _ visit: (Token, TimeSpan, Int) throws -> Void, atEnd: (TimeSpan) -> Void = { _ in }
    ) throws {
        let chars = Array(marbles)
        var time = TimeSpan.zero
        var groupStart: TimeSpan?
        var groupOpenedAt = 0
        // The bracket of the open group: `(` takes a frame per character,
        // `[` one frame in all.
        var groupBracket: Character = "("
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let here = groupStart ?? time
            var advance = unit
            switch c {
            case " ":
                advance = .zero
            case "-":
                break
            case "(", "[":
                guard groupStart == nil else { throw MarbleSyntaxError(message: "groups cannot nest", offset: i) }
                groupStart = time
                groupOpenedAt = i
                groupBracket = c
                if c == "[" { advance = .zero }
            case ")", "]":
                let opening: Character = c == ")" ? "(" : "["
                guard groupStart != nil, groupBracket == opening else {
                    throw MarbleSyntaxError(message: "'\(c)' without '\(opening)'", offset: i)
                }
                groupStart = nil
            case "|", "#", "^", "!":
                let token: Token = c == "|" ? .complete : c == "#" ? .error : c == "^" ? .subscribe : .unsubscribe
                try visit(token, here, i)
                if groupStart != nil, groupBracket == "[" { advance = .zero }
            default:
                if c.isASCII, c.isNumber, i == 0 || chars[i - 1] == " ", let (span, length) = timeProgression(chars, from: i) {
                    guard groupStart == nil else { throw MarbleSyntaxError(message: "a time progression inside a group", offset: i) }
                    guard let span else { throw MarbleSyntaxError(message: "time progression too long for the clock", offset: i) }
                    advance = span
                    i += length - 1
                } else if c.isWhitespace {
                    advance = .zero
                } else {
                    try visit(.value(c), here, i)
                    if groupStart != nil, groupBracket == "[" { advance = .zero }
                }
            }
            guard let next = time.adding(advance) else {
                throw MarbleSyntaxError(message: "marble too long for the clock (about 292 years)", offset: i)
            }
            time = next
            i += 1
        }
        if groupStart != nil { throw MarbleSyntaxError(message: "'\(groupBracket)' is never closed", offset: groupOpenedAt) }
        atEnd(time)
    }

    /// Where a marble has digits then a letter at the start of a word (where
    /// a time progression is read) that are not one: `10x` or `2sec` are
    /// read as the values `1`, `0`, `x`, which is rarely what was meant.
    public static func digitsBeforeALetter(in marble: String) -> Int? {
        let chars = Array(marble)
        for start in chars.indices where chars[start].isASCII && chars[start].isNumber && (start == 0 || chars[start - 1] == " ") {
            guard timeProgression(chars, from: start) == nil else { continue }
            var i = start
            while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "." { i += 1 }
            if i < chars.count, chars[i].isASCII, chars[i].isLetter { return start }
        }
        return nil
    }

    /// `10ms`, `1.5s`, `2m` or `1h`, followed by a space or the end of the string.
    /// The span is nil when it does not fit the clock.
    private static func timeProgression(_ chars: [Character], from start: Int) -> (TimeSpan?, Int)? {
        var i = start
        var number = ""
        while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "." {
            number.append(chars[i])
            i += 1
        }
        guard let amount = Double(number) else { return nil }
        let rest = String(chars[i..<Swift.min(i + 2, chars.count)])
        let (unitLength, scale): (Int, Double)
        if rest.hasPrefix("ms") { (unitLength, scale) = (2, 1) }
        else if rest.hasPrefix("s") { (unitLength, scale) = (1, 1000) }
        else if rest.hasPrefix("m") { (unitLength, scale) = (1, 60_000) }
        else if rest.hasPrefix("h") { (unitLength, scale) = (1, 3_600_000) }
        else { return nil }
        let end = i + unitLength
        guard end == chars.count || chars[end] == " " else { return nil }
        return (TimeSpan.exactly(nanoseconds: amount * scale * 1e6), end - start)
    }
}
