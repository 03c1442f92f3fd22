/// A span of time in nanoseconds: the unit of both clocks.
///
/// Virtual time counts from the start of a run; marble frames are 1 ms.
public struct TimeSpan: Hashable, Comparable, Sendable {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = TimeSpan(nanoseconds: 0)
    public static let nanosecondsPerMillisecond: Int64 = 1_000_000

    public static func milliseconds(_ ms: Int64) -> TimeSpan { TimeSpan(nanoseconds: ms &* nanosecondsPerMillisecond) }
    public static func milliseconds(_ ms: Double) -> TimeSpan { TimeSpan(nanoseconds: Int64((ms * 1e6).rounded())) }
    public static func seconds(_ s: Double) -> TimeSpan { TimeSpan(nanoseconds: Int64((s * 1e9).rounded())) }

    /// Whole milliseconds, rounded down: the marble frame this time falls in.
    public var frames: Int64 { nanoseconds >= 0 ? nanoseconds / Self.nanosecondsPerMillisecond : -((-nanoseconds + Self.nanosecondsPerMillisecond - 1) / Self.nanosecondsPerMillisecond) }
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(nanoseconds: a.nanoseconds &+ b.nanoseconds) }
    public static func - (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(nanoseconds: a.nanoseconds &- b.nanoseconds) }
    public static func * (a: TimeSpan, k: Int64) -> TimeSpan { TimeSpan(nanoseconds: a.nanoseconds &* k) }
}

extension TimeSpan: CustomStringConvertible {
    /// The shortest literal that reads back as this span: `5ms`, `1.5s`, `2m`, `1h`.
    public var description: String {
        let ns = nanoseconds
        if ns == 0 { return "0ms" }
        let units: [(Int64, String)] = [(3_600_000_000_000, "h"), (60_000_000_000, "m"), (1_000_000_000, "s")]
        for (size, suffix) in units where ns % size == 0 { return "\(ns / size)\(suffix)" }
        if abs(ns) >= 1_000_000_000 { return Self.trimmed(Double(ns) / 1e9) + "s" }
        return Self.trimmed(Double(ns) / 1e6) + "ms"
    }

    private static func trimmed(_ x: Double) -> String {
        if x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }
}
