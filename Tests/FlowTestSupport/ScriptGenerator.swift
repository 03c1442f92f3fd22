/// Makes random scripts that compile more often than not, for fuzzing what
/// runs, not only what parses: sources, chains of operators and closures
/// drawn from the language's surface, with arguments chosen to be hostile
/// (negative, zero, huge, overflowing) as often as ordinary.
///
/// The same seed always gives the same script, so a failure reproduces:
/// `ScriptGenerator(seed: s).script()`.
public struct ScriptGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// SplitMix64: small, fast, and good enough to pick among choices.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    // Hostile values a quarter of the time: out of range, zero, huge.
    private mutating func count() -> String {
        chance(25) ? pick(["0", "-1", "1000000", "9223372036854775807", "(0 - 9223372036854775807)"])
            : pick(["1", "2", "3", "5", "10"])
    }

    private mutating func duration() -> String {
        chance(25) ? pick(["0ms", "-1ms", "1ms * 1e300", "1h * 1000000", "1ms / 0", "(1ms * 0.5)"])
            : pick(["1ms", "2ms", "5ms", "20ms", "1s"])
    }

    private mutating func number() -> String {
        chance(25) ? pick(["9223372036854775807", "(0.0 / 0.0)", "1e308", "-1", "\"text\"", "nil"])
            : pick(["0", "1", "2", "7", "0.5"])
    }

    /// A marble that is well formed, or, one time in ten, any characters.
    private mutating func marble(hot: Bool = false) -> String {
        let symbols = ["-", "-", "-", "a", "b", "c", "1", "2", "(ab)", " 10ms "]
        if chance(10) {
            return (0..<(1 + below(12))).map { _ in pick(symbols + ["|", "#", "^", "(", ")", " "]) }.joined()
        }
        var text = hot && chance(70) ? String(repeating: "-", count: below(4)) + "^" : ""
        for _ in 0..<below(10) { text += pick(symbols) }
        if chance(70) { text += pick(["|", "|", "#", "(c|)"]) }
        return text
    }

    private mutating func source(depth: Int) -> String {
        switch below(depth > 2 ? 9 : 12) {
        case 0: return "cold(\"\(marble())\")"
        case 1: return "cold(\"\(marble())\", a: \(number()), b: \(number()))"
        case 2: return "hot(\"\(marble(hot: true))\")"
        case 3: return "of(\(number()), \(number()), \(number()))"
        case 4: return "range(\(count()), \(count()))"
        case 5: return "just(\(number()))"
        case 6: return "interval(\(duration()))"
        case 7: return "timer(\(duration()))"
        case 8: return pick(["empty()", "never()", "error(\"boom\")"])
        case 9: return "merge(\(source(depth: depth + 1)), \(source(depth: depth + 1)))"
        case 10: return "zip(\(source(depth: depth + 1)), \(source(depth: depth + 1)))"
        default: return "concat(\(source(depth: depth + 1)), \(source(depth: depth + 1)))"
        }
    }

    private mutating func closure() -> String {
        pick([
            "{ $0 }", "{ $0 * 2 }", "{ $0 + 1 }", "{ $1 }", "{ $9 }", "{ x in x / 0 }", "{ x in x % 2 == 0 }",
            "{ _ in 42 }", "{ \"\\($0)!\" }", "{ a, b in a + b }", "{ $0 * 9223372036854775807 }",
            "{ x in rec(rec, 0) }", "{ x in [x].map { $0 * 2 }.count }",
        ])
    }

    private mutating func stage(depth: Int) -> String {
        switch below(depth > 2 ? 30 : 34) {
        case 0: return ".map \(closure())"
        case 1: return ".filter \(closure())"
        case 2: return ".take(\(count()))"
        case 3: return ".skip(\(count()))"
        case 4: return ".debounce(\(duration()))"
        case 5: return ".throttle(\(duration()), latest: \(pick(["true", "false"])))"
        case 6: return ".delay(\(duration()))"
        case 7: return ".buffer(count: \(count()))"
        case 8: return ".buffer(timeSpan: \(duration()), count: \(count()))"
        case 9: return ".scan(0) { $0 + $1 }"
        case 10: return ".distinctUntilChanged()"
        case 11: return ".startWith(\(number()))"
        case 12: return ".timeout(\(duration()))"
        case 13: return ".retry(\(count()))"
        case 14: return ".catch { _ in just(0) }"
        case 15: return ".elementAt(\(count()))"
        case 16: return pick([".first()", ".last()", ".single()", ".count()", ".sum()", ".materialize()", ".pairwise()"])
        case 17: return ".reduce(0) { $0 + $1 }"
        case 18: return ".share()"
        case 19: return ".share(replay: \(count()))"
        case 20: return ".takeLast(\(count()))"
        case 21: return ".window(count: \(count())).flatMap { $0 }"
        case 22: return ".delaySubscription(\(duration()))"
        case 23: return ".toArray()"
        case 24: return ".ignoreElements()"
        case 25: return ".takeUntil(timer(\(duration())))"
        case 26: return ".sample(interval(\(duration())))"
        case 27: return ".enumerated()"
        case 28: return ".skipWhile \(closure())"
        case 29: return ".takeWhile \(closure())"
        case 30: return ".flatMap { _ in \(chain(depth: depth + 1)) }"
        case 31: return ".flatMapLatest { _ in \(chain(depth: depth + 1)) }"
        case 32: return ".concatMap { _ in \(chain(depth: depth + 1)) }"
        default: return ".combineLatest(\(chain(depth: depth + 1)))"
        }
    }

    private mutating func chain(depth: Int) -> String {
        var text = source(depth: depth)
        for _ in 0..<below(depth > 1 ? 3 : 6) { text += stage(depth: depth) }
        return text
    }

    /// A script: a few bindings, one of them drawn or expected, one
    /// subscribed; sometimes a test block.
    public mutating func script() -> String {
        var lines = ["let rec = { g, n in g(g, n + 1) }"]
        let names = (0..<(1 + below(3))).map { "s\($0)" }
        for name in names { lines.append("let \(name) = \(chain(depth: 0))") }
        switch below(4) {
        case 0: lines.append("marbles(\(names.joined(separator: ", ")))")
        case 1: lines.append("\(pick(names)).sink { print($0) }")
        case 2: lines.append("test \"fuzz\" {\n  expect(\(pick(names))).toBe(\"\(marble())\")\n}")
        default: lines.append("\(pick(names)).subscribe(onNext: { _ in }, onError: { print($0) })")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
