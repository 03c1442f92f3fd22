import FlowRuntime

/// Date's methods, as Foundation's `Date` has them (the time zone and
/// pattern labels are flow's: Swift passes a format style instead).
extension ValueMethod {
    static let dateMethods: [ValueMethod] = [
        date("timeIntervalSince", [[arg("date", .value)]], "the seconds from another Date to this one (negative if it is later)",
             example: "let start = Date(timeIntervalSince1970: 0)\nprint(Date(timeIntervalSince1970: 90).timeIntervalSince(start))") { seconds, args in
            .double(seconds - (try DateValue.seconds(args.values[0], for: "timeIntervalSince")))
        },
        date("addingTimeInterval", [[arg("seconds", .value)]], "the Date this many seconds (a number or a duration) later",
             example: "print(Date(timeIntervalSince1970: 0).addingTimeInterval(90), Date(timeIntervalSince1970: 0).addingTimeInterval(2m))") { seconds, args in
            DateValue.make(seconds + (try DateValue.interval(args.values[0], for: "addingTimeInterval")))
        },
        date("ISO8601Format", [noArguments, [labelled("timeZone", .string)]],
             "ISO 8601 text: in UTC as Swift writes it (2023-11-14T22:13:20Z), or in a time zone with its offset",
             example: #"let d = Date(timeIntervalSince1970: 1_700_000_000)"# + "\n" + #"print(d.ISO8601Format(), d.ISO8601Format(timeZone: "Europe/Paris"))"#) { seconds, args in
            .string(DateValue.iso8601(seconds, timeZone: try args.values.first.map { try DateValue.timeZone(try $0.asString()) }))
        },
        date("formatted", [noArguments, [arg("pattern", .string)], [arg("pattern", .string), labelled("timeZone", .string)],
                           [labelled("timeZone", .string)]],
             "as Foundation's formatted(), or by a DateFormatter pattern (yyyy-MM-dd HH:mm), in UTC unless a time zone is given",
             example: #"let d = Date(timeIntervalSince1970: 1_700_000_000)"# + "\n"
                + #"print(d.formatted("yyyy-MM-dd HH:mm"), d.formatted("HH:mm zzz", timeZone: "America/New_York"))"#) { seconds, args in
            let pattern = args.labels.first == .some(nil) ? try args.string(0) : nil
            let zone = try args.labels.firstIndex(of: "timeZone").map { try DateValue.timeZone(try args.string($0)) }
            return .string(DateValue.formatted(seconds, pattern: pattern, timeZone: zone))
        },
    ]

    private static func date(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                             _ body: @escaping @Sendable (Double, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .date, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            guard let seconds = DateValue.seconds(of: receiver) else { throw ValueMethods.notMine(name, receiver) }
            return try body(seconds, args)
        })
    }
}
