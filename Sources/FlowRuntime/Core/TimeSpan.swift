/// A span of time in nanoseconds: the unit of both clocks.
///
/// Virtual time counts from the start of a run; marble frames are 1 ms.
///
/// A script can write durations far beyond what 64 bits of nanoseconds hold
/// (`1ms * 1e300`, `1h * Int.max`). Values built from script input go
/// through the throwing constructors (`exactly`, `adding`, `multiplied`),
/// which report overflow as an error; the clocks' own arithmetic (`+`, `-`,
/// `*`) saturates at `±max`, a deadline no run reaches, instead of wrapping
/// into the past or trapping.
public struct TimeSpan: Hashable, Comparable, Sendable {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = TimeSpan(nanoseconds: 0)
    /// The longest span: about 292 years.
    public static let max = TimeSpan(nanoseconds: .max)
    public static let nanosecondsPerMillisecond: Int64 = 1_000_000

    public static func milliseconds(_ ms: Int64) -> TimeSpan { TimeSpan(nanoseconds: ms &* nanosecondsPerMillisecond) }
    public static func milliseconds(_ ms: Double) -> TimeSpan { clamped(nanoseconds: ms * 1e6) }
    public static func seconds(_ s: Double) -> TimeSpan { clamped(nanoseconds: s * 1e9) }

    /// The span of `nanoseconds`, rounded; nil if it is not a number or
    /// does not fit (more than about 292 years either way).
    /// A number of `unit`s (an Int or a Double) as a span: `300` of a
    /// millisecond. Throws for a value that is not a number or does not fit
    /// the clock.
    public static func amount(_ value: Value, of unit: TimeSpan, unitName: String) throws -> TimeSpan {
        let amount: Double
        switch value {
        case .int(let n): amount = Double(n)
        case .double(let d): amount = d
        default: throw FlowError("expected a number of \(unitName), got \(value.typeName) \(value.literal)")
        }
        guard let span = exactly(nanoseconds: amount * Double(unit.nanoseconds)) else {
            throw FlowError("\(value.literal) \(unitName) is not a duration the clock can hold")
        }
        return span
    }

    public static func exactly(nanoseconds: Double) -> TimeSpan? {
        let rounded = nanoseconds.rounded()
        // Int64(exactly:) is nil for NaN and infinities; the bound keeps the
        // conversion from trapping on values at the edge of the range.
        guard rounded.isFinite, rounded > -9.2e18, rounded < 9.2e18, let n = Int64(exactly: rounded) else { return nil }
        return TimeSpan(nanoseconds: n)
    }

    /// For the clocks' own fixed values: out-of-range values stick to ±max.
    private static func clamped(nanoseconds: Double) -> TimeSpan {
        if let span = exactly(nanoseconds: nanoseconds) { return span }
        if nanoseconds.isNaN { return .zero }
        return nanoseconds < 0 ? TimeSpan(nanoseconds: -Int64.max) : .max
    }

    /// Whole milliseconds, rounded down: the marble frame this time falls in.
    public var frames: Int64 { nanoseconds >= 0 ? nanoseconds / Self.nanosecondsPerMillisecond : -((-(nanoseconds + 1)) / Self.nanosecondsPerMillisecond) - 1 }
    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: TimeSpan, b: TimeSpan) -> TimeSpan { saturating(a.nanoseconds.addingReportingOverflow(b.nanoseconds), sign: b.nanoseconds) }
    public static func - (a: TimeSpan, b: TimeSpan) -> TimeSpan {
        saturating(a.nanoseconds.subtractingReportingOverflow(b.nanoseconds), sign: b.nanoseconds == .min ? 1 : -b.nanoseconds)
    }
    public static func * (a: TimeSpan, k: Int64) -> TimeSpan {
        saturating(a.nanoseconds.multipliedReportingOverflow(by: k), sign: (a.nanoseconds < 0) == (k < 0) ? 1 : -1)
    }

    private static func saturating(_ r: (partialValue: Int64, overflow: Bool), sign: Int64) -> TimeSpan {
        if !r.overflow { return TimeSpan(nanoseconds: r.partialValue) }
        return TimeSpan(nanoseconds: sign < 0 ? -Int64.max : .max)
    }

    // Checked arithmetic for values a script computes: nil on overflow.

    public func adding(_ other: TimeSpan) -> TimeSpan? { Self.exact(nanoseconds.addingReportingOverflow(other.nanoseconds)) }
    public func subtracting(_ other: TimeSpan) -> TimeSpan? { Self.exact(nanoseconds.subtractingReportingOverflow(other.nanoseconds)) }
    public func multiplied(by k: Int64) -> TimeSpan? { Self.exact(nanoseconds.multipliedReportingOverflow(by: k)) }
    public func multiplied(by k: Double) -> TimeSpan? { Self.exactly(nanoseconds: Double(nanoseconds) * k) }
    public func divided(by k: Int64) -> TimeSpan? { k == 0 ? nil : Self.exact(nanoseconds.dividedReportingOverflow(by: k)) }
    public func divided(by k: Double) -> TimeSpan? { k == 0 ? nil : Self.exactly(nanoseconds: Double(nanoseconds) / k) }
    public var negated: TimeSpan? { Self.exact((0 as Int64).subtractingReportingOverflow(nanoseconds)) }

    private static func exact(_ r: (partialValue: Int64, overflow: Bool)) -> TimeSpan? {
        r.overflow ? nil : TimeSpan(nanoseconds: r.partialValue)
    }
}

extension TimeSpan: CustomStringConvertible {
    /// The shortest literal that reads back as this span: `5ms`, `1.5s`, `2m`, `1h`.
    public var description: String {
        let ns = nanoseconds
        if ns == 0 { return "0ms" }
        let units: [(Int64, String)] = [(3_600_000_000_000, "h"), (60_000_000_000, "m"), (1_000_000_000, "s")]
        for (size, suffix) in units where ns % size == 0 { return "\(ns / size)\(suffix)" }
        if ns.magnitude >= 1_000_000_000 { return Self.trimmed(Double(ns) / 1e9) + "s" }
        // Below a microsecond's precision, milliseconds would read 1e-06ms.
        if ns.magnitude < 1_000_000, ns % 1000 != 0 { return "\(ns)ns" }
        return Self.trimmed(Double(ns) / 1e6) + "ms"
    }

    private static func trimmed(_ x: Double) -> String {
        if x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }
}
