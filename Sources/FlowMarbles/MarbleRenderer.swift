import FlowRuntime

/// Which symbol stands for which value in rendered marbles.
///
/// A value keeps the symbol a test gave it; a one-character string or a
/// digit stands for itself; anything else gets the next free letter and a
/// line in the legend.
public struct MarbleLegend {
    public private(set) var entries: [(symbol: Character, value: Value)] = []
    /// The same, by value: a lane of many values looks each one up.
    private var symbols: [Value: Character] = [:]
    private var reserved: Set<Character> = ["-", "|", "#", "^", "!", "(", ")", " "]
    /// Every letter is taken: later values get `?` without another search.
    private var poolExhausted = false

    public init(presets: [String: Value] = [:]) {
        for key in presets.keys.sorted() {
            guard key.count == 1, let symbol = key.first else { continue }
            entries.append((symbol, presets[key]!))
            if symbols[presets[key]!] == nil { symbols[presets[key]!] = symbol }
            reserved.insert(symbol)
        }
    }

    public mutating func symbol(for value: Value) -> Character {
        if let known = symbols[value] { return known }
        if let natural = Self.naturalSymbol(for: value), !reserved.contains(natural) {
            return claim(natural, for: value)
        }
        guard !poolExhausted else { return "?" }
        let pool = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        if let free = pool.first(where: { !reserved.contains($0) }) { return claim(free, for: value) }
        poolExhausted = true
        return "?"
    }

    private mutating func claim(_ symbol: Character, for value: Value) -> Character {
        entries.append((symbol, value))
        symbols[value] = symbol
        reserved.insert(symbol)
        return symbol
    }

    /// The symbol that reads back as `value` with no legend: `1` for 1, `a` for "a".
    static func naturalSymbol(for value: Value) -> Character? {
        switch value {
        case .int(let i) where (0...9).contains(i): return Character(String(i))
        case .string(let s) where s.count == 1 && s.first!.isLetter: return s.first
        default: return nil
        }
    }

    /// Legend lines for the symbols that do not read back by themselves.
    public func explanations(for used: Set<Character>) -> [String] {
        entries.filter { used.contains($0.symbol) && Self.naturalSymbol(for: $0.value) != $0.symbol }
            .map { "\($0.symbol) = \($0.value.literal)" }
    }
}

/// Draws events as marble strings: one character per 1 ms frame, events of
/// one frame grouped `(ab)`, `|` completion, `#` error.
public enum MarbleRenderer {
    public struct Lane {
        public var text: String
        /// The column of each rendered event, by event index.
        public var columns: [Int]
        public var symbols: Set<Character>
    }

    /// Gaps longer than this many frames are written as a time progression.
    public static let longGap: Int64 = 20

    public static func render(_ events: some Collection<TimedEvent>, legend: inout MarbleLegend) -> Lane {
        let events = Array(events)
        var text = ""
        // Counted as it grows: `text.count` walks the whole string, which
        // made drawing a long lane quadratic.
        var width = 0
        var columns: [Int] = []
        var used = Set<Character>()
        var cursor: Int64 = 0
        var index = 0
        while index < events.count {
            let frame = events[index].time.frames
            var end = index
            while end < events.count, events[end].time.frames == frame { end += 1 }
            if frame - cursor > longGap {
                // A long wait reads better (and parses the same) as time.
                let gap = " \(frame - cursor)ms "
                text += gap
                width += gap.count
                cursor = frame
            } else if frame > cursor {
                text += String(repeating: "-", count: Int(frame - cursor))
                width += Int(frame - cursor)
                cursor = frame
            }
            let symbols = events[index..<end].map { symbol(for: $0.event, legend: &legend) }
            used.formUnion(symbols)
            let column = width
            if symbols.count == 1 {
                text.append(symbols[0])
                width += 1
                cursor += 1
            } else {
                text += "(" + String(symbols) + ")"
                width += symbols.count + 2
                cursor += Int64(symbols.count + 2)
            }
            columns += Array(repeating: column, count: end - index)
            index = end
        }
        return Lane(text: text, columns: columns, symbols: used)
    }

    static func symbol(for event: Event, legend: inout MarbleLegend) -> Character {
        switch event {
        case .next(let v): return legend.symbol(for: v)
        case .error: return "#"
        case .completed: return "|"
        }
    }

    /// `^` at the subscription frame and `!` at the unsubscription frame.
    public static func render(_ log: SubscriptionLog) -> String {
        let start = log.subscribed.frames
        guard let end = log.unsubscribed?.frames else { return wait(start) + "^" }
        if end == start { return wait(start) + "(^!)" }
        return wait(start) + "^" + wait(end - start - 1) + "!"
    }

    /// `frames` of waiting: dashes, or a time progression when long (so a
    /// far-off frame never becomes a line of millions of dashes).
    private static func wait(_ frames: Int64) -> String {
        if frames > longGap { return " \(frames)ms " }
        return String(repeating: "-", count: Int(Swift.max(0, frames)))
    }
}
