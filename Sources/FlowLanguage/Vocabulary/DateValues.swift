import FlowRuntime
import Foundation

/// `Date` as a script sees it: a moment, held as seconds since 1970 (as
/// Foundation's `Date` is), which prints, compares and formats as Swift's
/// does, because Foundation does the printing and formatting.
///
/// It is read on the run's clock: the wall clock in a live run; in virtual
/// time the virtual instant counted from 1970-01-01T00:00:00Z, so a marble
/// run gives the same dates every time.
enum DateValue {
    static let nominal = Nominal(type: "Date", describe: { tuple in
        guard case .double(let seconds)? = tuple.elements.first else { return "Date(?)" }
        return Foundation.Date(timeIntervalSince1970: seconds).description
    })

    static func make(_ secondsSince1970: Double) -> Value {
        .tuple(Tuple([.double(secondsSince1970)], labels: ["timeIntervalSince1970"], nominal: nominal))
    }

    /// The seconds since 1970 of a Date value, or nil for any other value.
    static func seconds(of value: Value) -> Double? {
        guard case .tuple(let tuple) = value, tuple.nominal === nominal, case .double(let seconds)? = tuple.elements.first else { return nil }
        return seconds
    }

    static func seconds(_ value: Value, for call: String) throws -> Double {
        guard let seconds = seconds(of: value) else { throw FlowError("\(call) takes a Date, got \(value.typeName) \(value.literal)") }
        return seconds
    }

    /// Now, on the run's clock.
    static func now(on scheduler: Scheduler?) -> Double {
        guard let scheduler, scheduler.isVirtual else { return Foundation.Date().timeIntervalSince1970 }
        return Double(scheduler.now.nanoseconds) / 1e9
    }

    /// A number of seconds, given as a number or a duration (`90`, `1.5s`).
    static func interval(_ value: Value, for call: String) throws -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d) where d.isFinite: return d
        case .duration(let t): return t.seconds
        default: throw FlowError("\(call) takes seconds (a number or a duration), got \(value.typeName) \(value.literal)")
        }
    }

    /// A time zone by its identifier (`Europe/Paris`, `UTC`) or its offset
    /// from UTC (`+02:00`, `-0530`).
    static func timeZone(_ name: String) throws -> TimeZone {
        if let zone = TimeZone(identifier: name) { return zone }
        if let offset = offsetSeconds(name), let zone = TimeZone(secondsFromGMT: offset) { return zone }
        throw FlowError("unknown time zone \(name.debugDescription): give an identifier such as \"Europe/Paris\" or \"UTC\", or an offset such as \"+02:00\"")
    }

    private static func offsetSeconds(_ text: String) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 4 || digits.count == 2, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
        let (hours, minutes) = digits.count == 2 ? (number, 0) : (number / 100, number % 100)
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// ISO 8601 text, as Swift's `ISO8601Format()` writes it in UTC
    /// (`2023-11-14T22:13:20Z`), or with the zone's offset.
    static func iso8601(_ seconds: Double, timeZone: TimeZone? = nil) -> String {
        let formatter = ISO8601DateFormatter()
        if let timeZone { formatter.timeZone = timeZone }
        return formatter.string(from: Foundation.Date(timeIntervalSince1970: seconds))
    }

    /// The moment an ISO 8601 text names (a date and time with a zone, with
    /// or without fractions of a second, or a date alone, at midnight UTC),
    /// or nil, as `ISO8601DateFormatter.date(from:)` gives; `strictly`, a
    /// date and time with a zone alone, as its default options read.
    static func parseISO8601(_ text: String, strictly: Bool = false) -> Value {
        let attempts: [ISO8601DateFormatter.Options] = strictly ? [[.withInternetDateTime]] : [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ]
        for options in attempts {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return make(date.timeIntervalSince1970) }
        }
        return .null
    }

    /// Foundation's `formatted()`, or a `DateFormatter` pattern
    /// (`yyyy-MM-dd HH:mm`) in a time zone (UTC unless given).
    static func formatted(_ seconds: Double, pattern: String?, timeZone: TimeZone?) -> String {
        let date = Foundation.Date(timeIntervalSince1970: seconds)
        guard let pattern else {
            guard let timeZone else { return date.formatted() }
            var style = Foundation.Date.FormatStyle()
            style.timeZone = timeZone
            return date.formatted(style)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

/// The run's clock as dates, for the layers above (log lines' times).
public enum RunClock {
    /// Seconds since 1970 now on `scheduler`'s clock: the wall clock live,
    /// 1970-01-01T00:00:00Z plus the virtual time in virtual time.
    public static func secondsSince1970(on scheduler: Scheduler?) -> Double { DateValue.now(on: scheduler) }
}
