import FlowRuntime
import Foundation
import Synchronization

/// Foundation's formatters as a script configures them: objects (Swift's
/// `DateFormatter` and `ISO8601DateFormatter` are classes, so a `let`
/// holding one has its properties set), whose properties are the fields of
/// a `ScriptObject`. Formatting and reading are Foundation's own: a call
/// makes (or finds) a Foundation formatter with the object's settings, so
/// patterns, time zones, locales and what `date(from:)` accepts are as
/// swiftc's Foundation has them.
enum DateFormatterValue {
    /// `DateFormatter()`: `dateFormat` (a pattern, "" at first, which
    /// formats to ""), `timeZone` and `locale` (the system's at first, as
    /// Foundation's), `isLenient`, `dateStyle` and `timeStyle` (`.none` at
    /// first; setting one sets `dateFormat` to the locale's pattern for them).
    static let objectClass = ObjectClass(
        name: "DateFormatter", fieldNames: ["dateFormat", "timeZone", "locale", "isLenient", "dateStyle", "timeStyle"],
        publishedFields: Array(repeating: false, count: 6), weakFields: Array(repeating: false, count: 6), superclass: nil)

    /// Foundation's `DateFormatter.Style`s, by the names Swift writes and prints them with.
    static let styles: [String: DateFormatter.Style] = ["none": .none, "short": .short, "medium": .medium, "long": .long, "full": .full]

    /// The classes among these, whose properties a `let` holding one sets.
    static let classes: [String: ObjectClass] = ["DateFormatter": objectClass, "ISO8601DateFormatter": ISO8601FormatterValue.objectClass]

    /// `TimeZone.current`, `TimeZone.gmt`, `Locale.current`.
    static func staticMember(_ type: String, _ name: String) -> (@Sendable () -> Value)? {
        switch (type, name) {
        case ("TimeZone", "current"), ("TimeZone", "autoupdatingCurrent"): { TimeZoneValue.make(TimeZone.current) }
        case ("TimeZone", "gmt"): { TimeZoneValue.make(TimeZone.gmt) }
        case ("Locale", "current"), ("Locale", "autoupdatingCurrent"): { LocaleValue.make(Locale.current) }
        default: nil
        }
    }

    static func make() -> Value {
        .object(ScriptObject(objectClass, fields: [
            .string(""), TimeZoneValue.make(TimeZone.current), LocaleValue.make(Locale.current), .bool(false), .string("none"), .string("none"),
        ]))
    }

    /// After a script set property `field` (which held `old`): the object
    /// as Foundation's setters leave it. A style sets `dateFormat` to the
    /// locale's pattern for the two styles, which a `dateFormat` set later
    /// replaces, and which a new locale makes again unless a `dateFormat`
    /// was set after the styles; `timeZone` and `locale` set to nil (Swift's
    /// `TimeZone!` and `Locale!`) read back as the system's, as Foundation's do.
    static func changed(_ object: ScriptObject, field: Int, from old: Value) throws {
        switch objectClass.fieldNames[field] {
        case "timeZone":
            if case .null = object.fields[field] { object.fields[field] = TimeZoneValue.make(TimeZone.current) }
        case "locale":
            if case .null = object.fields[field] { object.fields[field] = LocaleValue.make(Locale.current) }
            let (date, time) = try (style(object.fields[4], "dateStyle"), style(object.fields[5], "timeStyle"))
            // A pattern the styles made is made again for the new locale.
            guard date != .none || time != .none, case .string(let format) = object.fields[0],
                  format == pattern(date: date, time: time, locale: try LocaleValue.identifier(old)) else { return }
            object.fields[0] = .string(pattern(date: date, time: time, locale: try LocaleValue.identifier(object.fields[2])))
        case "dateStyle", "timeStyle":
            let style: DateFormatter.Style
            do { style = try self.style(object.fields[field], objectClass.fieldNames[field]) } catch {
                // Refused where it is set: the formatter keeps the style it had.
                object.fields[field] = old
                throw error
            }
            object.fields[field] = .string(styles.first { $0.value == style }!.key)
            object.fields[0] = .string(pattern(date: try self.style(object.fields[4], "dateStyle"), time: try self.style(object.fields[5], "timeStyle"),
                                               locale: try LocaleValue.identifier(object.fields[2])))
        default:
            break
        }
    }

    /// A style property's value: `.none` (which flow reads as nil too), `.short`, `.medium`, `.long`, `.full`.
    private static func style(_ value: Value, _ property: String) throws -> DateFormatter.Style {
        switch value {
        case .null: return .none
        case .string(let name) where styles[name] != nil: return styles[name]!
        default: throw FlowError("DateFormatter's \(property) is .none, .short, .medium, .long or .full, not \(value.typeName) \(value.literal)")
        }
    }

    /// The pattern Foundation gives a formatter of these styles in `locale` (nil: the system's).
    private static func pattern(date: DateFormatter.Style, time: DateFormatter.Style, locale: String?) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale.map(Locale.init(identifier:)) ?? Locale.current
        formatter.dateStyle = date
        formatter.timeStyle = time
        return formatter.dateFormat ?? ""
    }

    /// The object's settings, checked: a property set to a value of
    /// another type fails here, naming it.
    private static func settings(of object: ScriptObject) throws -> Settings {
        let fields = object.fields
        let format: String
        switch fields[0] {
        case .string(let text): format = text
        case .null: format = ""
        case let other: throw FlowError("DateFormatter's dateFormat is a String, such as \"yyyy-MM-dd HH:mm\", not \(other.typeName) \(other.literal)")
        }
        let lenient: Bool
        switch fields[3] {
        case .bool(let b): lenient = b
        case let other: throw FlowError("DateFormatter's isLenient is a Bool, not \(other.typeName) \(other.literal)")
        }
        return Settings(pattern: format, timeZone: try TimeZoneValue.identifier(fields[1], of: "DateFormatter"),
                        locale: try LocaleValue.identifier(fields[2]), isLenient: lenient)
    }

    static func string(_ object: ScriptObject, from date: Value) throws -> Value {
        let seconds = try DateValue.seconds(date, for: "string(from:)")
        let settings = try settings(of: object)
        return .string(formatters.withLock { $0.formatter(settings).string(from: Date(timeIntervalSince1970: seconds)) })
    }

    static func date(_ object: ScriptObject, from text: Value) throws -> Value {
        let text = try text.asString()
        let settings = try settings(of: object)
        return formatters.withLock { $0.formatter(settings).date(from: text) }.map { DateValue.make($0.timeIntervalSince1970) } ?? .null
    }

    struct Settings: Hashable {
        var pattern: String
        var timeZone: String?
        var locale: String?
        var isLenient: Bool
    }

    /// Foundation's formatters by their settings: making one costs far more
    /// than formatting with it, and a script formats many dates with one.
    struct Formatters: ~Copyable {
        private var made: [Settings: DateFormatter] = [:]

        mutating func formatter(_ settings: Settings) -> DateFormatter {
            if let formatter = made[settings] { return formatter }
            // A script that makes formatters in a loop with ever new patterns does not grow this without end.
            if made.count >= 64 { made.removeAll() }
            let formatter = DateFormatter()
            formatter.dateFormat = settings.pattern
            formatter.timeZone = settings.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
            formatter.locale = settings.locale.map(Locale.init(identifier:)) ?? Locale.current
            formatter.isLenient = settings.isLenient
            made[settings] = formatter
            return formatter
        }
    }

    private static let formatters = Mutex(Formatters())
}

/// `ISO8601DateFormatter()`: `formatOptions` (Foundation's options by
/// name, `.withInternetDateTime` at first) and `timeZone` (UTC at first).
enum ISO8601FormatterValue {
    static let objectClass = ObjectClass(
        name: "ISO8601DateFormatter", fieldNames: ["formatOptions", "timeZone"],
        publishedFields: [false, false], weakFields: [false, false], superclass: nil)

    static func make() -> Value {
        .object(ScriptObject(objectClass, fields: [.array([.string("withInternetDateTime")]), TimeZoneValue.make(TimeZone(identifier: "GMT")!)]))
    }

    /// Foundation's options, by the names Swift writes them with (`.withFullDate`).
    static let options: [String: ISO8601DateFormatter.Options] = [
        "withYear": .withYear, "withMonth": .withMonth, "withWeekOfYear": .withWeekOfYear, "withDay": .withDay,
        "withTime": .withTime, "withTimeZone": .withTimeZone, "withSpaceBetweenDateAndTime": .withSpaceBetweenDateAndTime,
        "withDashSeparatorInDate": .withDashSeparatorInDate, "withColonSeparatorInTime": .withColonSeparatorInTime,
        "withColonSeparatorInTimeZone": .withColonSeparatorInTimeZone, "withFractionalSeconds": .withFractionalSeconds,
        "withFullDate": .withFullDate, "withFullTime": .withFullTime, "withInternetDateTime": .withInternetDateTime,
    ]

    private static func formatter(_ object: ScriptObject) throws -> ISO8601DateFormatter {
        let written: [Value] = switch object.fields[0] {
        case .array(let items): items
        case let one: [one]
        }
        var chosen: ISO8601DateFormatter.Options = []
        for item in written {
            guard case .string(let name) = item, let option = options[name] else {
                throw FlowError("ISO8601DateFormatter's formatOptions are options such as .withInternetDateTime, .withFractionalSeconds and .withFullDate, not \(item.typeName) \(item.literal)")
            }
            chosen.insert(option)
        }
        // Not shared: one is cheap to make, and its options are the object's own.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = chosen
        formatter.timeZone = try TimeZoneValue.identifier(object.fields[1], of: "ISO8601DateFormatter")
            .flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "GMT")!
        return formatter
    }

    static func string(_ object: ScriptObject, from date: Value) throws -> Value {
        let seconds = try DateValue.seconds(date, for: "string(from:)")
        return .string(try formatter(object).string(from: Date(timeIntervalSince1970: seconds)))
    }

    static func date(_ object: ScriptObject, from text: Value) throws -> Value {
        let text = try text.asString()
        return try formatter(object).date(from: text).map { DateValue.make($0.timeIntervalSince1970) } ?? .null
    }
}

/// A Foundation value flow keeps as its identifier and the text Swift
/// prints for it (a `TimeZone`, a `Locale`).
struct IdentifiedValue: Sendable {
    let nominal: Nominal

    init(type: String) {
        nominal = Nominal(type: type, describe: { tuple in
            if case .string(let text)? = tuple.elements.last { return text }
            return type
        })
    }

    func make(identifier: String, description: String) -> Value {
        .tuple(Tuple([.string(identifier), .string(description)], labels: ["identifier", "description"], nominal: nominal))
    }

    /// The identifier `value` holds; nil for nil (a formatter's default),
    /// and `wrong` thrown for a value of another kind.
    func identifier(_ value: Value, wrong: @autoclosure () -> String) throws -> String? {
        switch value {
        case .null: return nil
        case .tuple(let t) where t.nominal === nominal:
            if case .string(let identifier)? = t.elements.first { return identifier }
        default: break
        }
        throw FlowError(wrong())
    }
}

/// Foundation's `TimeZone`: its identifier, and how Swift prints it (which
/// the identifier alone does not say: `TimeZone(identifier: "UTC")` prints
/// `GMT`, `TimeZone(secondsFromGMT: 7200)` `GMT (7200)`).
enum TimeZoneValue {
    static let kind = IdentifiedValue(type: "TimeZone")
    static var nominal: Nominal { kind.nominal }

    static func make(_ zone: TimeZone) -> Value { kind.make(identifier: zone.identifier, description: zone.description) }

    /// `TimeZone(identifier:)`, `TimeZone(secondsFromGMT:)`,
    /// `TimeZone(abbreviation:)`: the zone, or nil as Foundation gives.
    static func initialise(_ args: MethodArguments) throws -> Value {
        let zone: TimeZone? = switch args.labels.first ?? nil {
        case "secondsFromGMT": TimeZone(secondsFromGMT: try args.values[0].asInt())
        case "abbreviation": TimeZone(abbreviation: try args.string(0))
        default: TimeZone(identifier: try args.string(0))
        }
        return zone.map(make) ?? .null
    }

    /// The identifier of a formatter's `timeZone`; nil (the default zone)
    /// for nil, which Swift's `TimeZone!` property takes.
    static func identifier(_ value: Value, of formatter: String) throws -> String? {
        try kind.identifier(value, wrong: "\(formatter)'s timeZone is a TimeZone, such as TimeZone(identifier: \"UTC\"), not \(value.typeName) \(value.literal)")
    }

    static func zone(of value: Value) throws -> TimeZone {
        guard let identifier = try identifier(value, of: "TimeZone"), let zone = TimeZone(identifier: identifier) else {
            throw FlowError("not a TimeZone: \(value.typeName) \(value.literal)")
        }
        return zone
    }
}

/// Foundation's `Locale`, by its identifier (`en_US_POSIX`), printed as
/// Swift prints it.
enum LocaleValue {
    static let kind = IdentifiedValue(type: "Locale")
    static var nominal: Nominal { kind.nominal }

    static func make(_ locale: Locale) -> Value { kind.make(identifier: locale.identifier, description: locale.description) }

    static func make(identifier: String) -> Value { make(Locale(identifier: identifier)) }

    static func identifier(_ value: Value) throws -> String? {
        try kind.identifier(value, wrong: "DateFormatter's locale is a Locale, such as Locale(identifier: \"en_US_POSIX\"), not \(value.typeName) \(value.literal)")
    }
}

extension ValueMethod {
    /// The formatters' and time zones' methods.
    static let dateFormatterMethods: [ValueMethod] = [
        ValueMethod(name: "string", receiver: .dateFormatter, forms: [[labelled("from", .value)]],
                    summary: "a Date as text by the formatter's dateFormat, in its timeZone and locale",
                    example: #"let f = DateFormatter()"# + "\n" + #"f.dateFormat = "yyyy-MM-dd HH:mm""# + "\n"
                        + #"f.timeZone = TimeZone(identifier: "UTC")"# + "\n" + #"print(f.string(from: Date(timeIntervalSince1970: 1_700_000_000)))"#,
                    body: .reading { receiver, args in try DateFormatterValue.string(try formatterObject(receiver, args), from: args.values[0]) }),
        ValueMethod(name: "date", receiver: .dateFormatter, forms: [[labelled("from", .string)]],
                    summary: "the Date a text written in the formatter's dateFormat names, or nil",
                    example: #"let f = DateFormatter()"# + "\n" + #"f.dateFormat = "yyyy-MM-dd HH:mm""# + "\n"
                        + #"f.timeZone = TimeZone(identifier: "UTC")"# + "\n" + #"print(f.date(from: "2023-11-14 22:13")!, f.date(from: "14/11/2023") == nil)"#,
                    body: .reading { receiver, args in try DateFormatterValue.date(try formatterObject(receiver, args), from: args.values[0]) }),
        ValueMethod(name: "string", receiver: .iso8601DateFormatter, forms: [[labelled("from", .value)]],
                    summary: "a Date as ISO 8601 text by the formatter's formatOptions, in its timeZone (2023-11-14T22:13:20Z at first)",
                    example: #"let iso = ISO8601DateFormatter()"# + "\n" + #"iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]"# + "\n"
                        + #"print(iso.string(from: Date(timeIntervalSince1970: 1_700_000_000.25)))"#,
                    body: .reading { receiver, args in try ISO8601FormatterValue.string(try formatterObject(receiver, args), from: args.values[0]) }),
        ValueMethod(name: "date", receiver: .iso8601DateFormatter, forms: [[labelled("from", .string)]],
                    summary: "the Date an ISO 8601 text of the formatter's formatOptions names, or nil (at first a date and time with a zone, no fractions of a second)",
                    example: #"print(ISO8601DateFormatter().date(from: "2023-11-14T23:13:20+01:00")!)"#,
                    body: .reading { receiver, args in try ISO8601FormatterValue.date(try formatterObject(receiver, args), from: args.values[0]) }),
        ValueMethod(name: "secondsFromGMT", receiver: .timeZone, forms: [noArguments, [labelled("for", .value)]],
                    summary: "the zone's offset from UTC in seconds, now (on the wall clock) or at a Date",
                    example: #"print(TimeZone(identifier: "Europe/Paris")!.secondsFromGMT(for: Date(timeIntervalSince1970: 1_700_000_000)))"#,
                    body: .reading { receiver, args in
                        let zone = try TimeZoneValue.zone(of: receiver)
                        guard let date = args.values.first else { return .int(zone.secondsFromGMT()) }
                        return .int(zone.secondsFromGMT(for: Date(timeIntervalSince1970: try DateValue.seconds(date, for: "secondsFromGMT(for:)"))))
                    }),
        ValueMethod(name: "abbreviation", receiver: .timeZone, forms: [noArguments, [labelled("for", .value)]],
                    summary: "the zone's abbreviation (GMT+1), now or at a Date, or nil",
                    example: #"print(TimeZone(identifier: "Europe/Paris")!.abbreviation(for: Date(timeIntervalSince1970: 1_700_000_000))!)"#,
                    body: .reading { receiver, args in
                        let zone = try TimeZoneValue.zone(of: receiver)
                        guard let date = args.values.first else { return zone.abbreviation().map(Value.string) ?? .null }
                        let seconds = try DateValue.seconds(date, for: "abbreviation(for:)")
                        return zone.abbreviation(for: Date(timeIntervalSince1970: seconds)).map(Value.string) ?? .null
                    }),
    ]

    private static func formatterObject(_ receiver: Value, _ args: MethodArguments) throws -> ScriptObject {
        guard case .object(let object) = receiver else { throw ValueMethods.notMine(args.name, receiver) }
        return object
    }
}
