import FlowRuntime

/// Which symbol stands for which value in rendered marbles.
///
/// A value keeps the symbol a test gave it; a one-character string or a
/// digit stands for itself; anything else gets the next free letter and a
/// line in the legend. Letters run on past `Z` into other alphabets, one
/// column wide each, so the legend never runs out.
public struct MarbleLegend {
    public private(set) var entries: [(symbol: Character, value: Value)] = []
    /// The same, by value: a lane of many values looks each one up.
    private var symbols: [Value: Character] = [:]
    private var reserved = MarbleParser.notation
    /// Where the search for a free letter goes on from.
    private var poolPosition = 0

    public init(presets: [String: Value] = [:]) {
        for key in presets.keys.sorted() {
            guard key.count == 1, let symbol = key.first else { continue }
            entries.append((symbol, presets[key]!))
            if symbols[presets[key]!] == nil { symbols[presets[key]!] = symbol }
            reserved.insert(symbol)
        }
    }

    /// Gives every value that reads as itself (`a`, `7`) its own symbol
    /// before any other value is given a letter: a lane of the strings
    /// "a", "b", "c" is drawn `-a-b-c|` even when another lane's values
    /// were named first.
    public mutating func reserveNaturalSymbols(for values: some Sequence<Value>) {
        for value in values where symbols[value] == nil {
            if let natural = Self.naturalSymbol(for: value), !reserved.contains(natural) { _ = claim(natural, for: value) }
        }
    }

    public mutating func symbol(for value: Value) -> Character {
        if let known = symbols[value] { return known }
        if let natural = Self.naturalSymbol(for: value), !reserved.contains(natural) {
            return claim(natural, for: value)
        }
        while poolPosition < Self.pool.count {
            let candidate = Self.pool[poolPosition]
            poolPosition += 1
            if !reserved.contains(candidate) { return claim(candidate, for: value) }
        }
        // Past every letter of the pool (tens of thousands): CJK
        // Extension B, one symbol per value still.
        var scalar = UInt32(0x20000 + poolPosition - Self.pool.count)
        while true {
            poolPosition += 1
            if let s = Unicode.Scalar(scalar), !reserved.contains(Character(s)) { return claim(Character(s), for: value) }
            scalar += 1
        }
    }

    /// Letters to name values with, in the order they are given: Latin,
    /// then the one-column letters of Greek, Cyrillic, more Latin,
    /// Armenian and Georgian (scripts written left to right), then CJK
    /// ideographs, two columns each.
    static let pool: [Character] = {
        var letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let ranges: [ClosedRange<UInt32>] = [
            0x03B1...0x03C9, 0x0391...0x03A9, 0x0430...0x044F, 0x0410...0x042F, 0x00C0...0x024F, 0x0370...0x052F,
            0x0531...0x0587, 0x10A0...0x10FF, 0x1E00...0x1EFF, 0x4E00...0x9FFF,
        ]
        var seen = Set(letters)
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                switch scalar.properties.generalCategory {
                case .lowercaseLetter, .uppercaseLetter, .otherLetter:
                    let character = Character(scalar)
                    if seen.insert(character).inserted { letters.append(character) }
                default: continue
                }
            }
        }
        return letters
    }()

    private mutating func claim(_ symbol: Character, for value: Value) -> Character {
        entries.append((symbol, value))
        symbols[value] = symbol
        reserved.insert(symbol)
        return symbol
    }

    /// The symbol that reads back as `value` with no legend: `1` for 1, `a` for "a".
    public static func naturalSymbol(for value: Value) -> Character? {
        switch value {
        case .int(let i) where (0...9).contains(i): return Character(String(i))
        case .string(let s) where s.count == 1:
            // Any character the parser reads as this string: not notation,
            // not a digit (an Int), not a space.
            let c = s.first!
            return MarbleParser.notation.contains(c) || c.isWhitespace || (c.isASCII && c.isNumber) ? nil : c
        default: return nil
        }
    }

    /// The entries of the symbols in `used` that do not read back by themselves.
    public func entries(explaining used: Set<Character>) -> [(symbol: Character, value: Value)] {
        entries.filter { used.contains($0.symbol) && Self.naturalSymbol(for: $0.value) != $0.symbol }
    }

    /// Legend lines for the symbols that do not read back by themselves.
    public func explanations(for used: Set<Character>) -> [String] {
        entries(explaining: used).map { "\($0.symbol) = \($0.value.literal)" }
    }
}

/// Draws events as marble strings: one character per 1 ms frame, events of
/// one frame grouped, `|` completion, `#` error. Lanes drawn together share
/// one time axis (`LanePlacement`), and every lane reads back as the
/// events it shows.
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
        render(lanes: [Array(events)], legend: &legend)[0]
    }

    /// Events as a script writes them in `cold(...)` or `toBe(...)`: the
    /// marble, and a value for each symbol that does not stand for itself
    /// (`"-a-|", a: 10`).
    public static func arguments(for events: [TimedEvent]) -> (marble: String, arguments: String, values: [(symbol: Character, value: Value)]) {
        var legend = MarbleLegend()
        let lane = render(events, legend: &legend)
        let values = legend.entries(explaining: lane.symbols)
        return (lane.text, ([Value.string(lane.text).literal] + values.map { "\($0.symbol): \($0.value.literal)" }).joined(separator: ", "), values)
    }

    /// Lanes drawn one above the other, an event under the events of the
    /// same instant.
    public static func render(lanes: [[TimedEvent]], legend: inout MarbleLegend) -> [Lane] {
        legend.reserveNaturalSymbols(for: lanes.joined().compactMap { if case .next(let v) = $0.event { v } else { nil } })
        var used: [Set<Character>] = []
        // Each lane's events by frame: the symbols, and how many events.
        var grouped: [[(frame: Int64, symbols: [Character], count: Int)]] = []
        for events in lanes {
            var groups: [(frame: Int64, symbols: [Character], count: Int)] = []
            var symbols = Set<Character>()
            for event in events {
                let symbol = Self.symbol(for: event.event, legend: &legend)
                symbols.insert(symbol)
                if groups.last?.frame == event.time.frames {
                    groups[groups.count - 1].symbols.append(symbol)
                    groups[groups.count - 1].count += 1
                } else {
                    groups.append((event.time.frames, [symbol], 1))
                }
            }
            used.append(symbols)
            grouped.append(groups)
        }
        let marks = grouped.map { groups in
            groups.indices.map { i in
                LanePlacement.Mark.group(frame: groups[i].frame, groups[i].symbols.map { String($0) },
                                         nextFrame: i + 1 < groups.count ? groups[i + 1].frame : nil)
            }
        }
        let placement = LanePlacement(lanes: marks, longestGap: longGap)
        return lanes.indices.map { l in
            let drawn = placement.draw(l)
            // Each event of a group is at the group's column.
            let columns = zip(drawn.columns, grouped[l]).flatMap { column, group in Array(repeating: column, count: group.count) }
            return Lane(text: drawn.plain, columns: columns, symbols: used[l])
        }
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
