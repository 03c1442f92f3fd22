import FlowRuntime

/// The free functions a job run by cron or systemd needs from its run:
/// the time on the run's clock, a way to choose its exit status, and
/// numbers for money.
enum OperationsFunctions {
    static let all: [FreeFunction] = [
        FreeFunction(name: "exit", forms: [[arg("status", .int)]],
                     summary: "stops the run at once (every subscription cancelled, unfinished files removed) and ends the process with this status, 0 to 255",
                     example: #"print("done"); exit(0)"#, body: .running { args, env in try exit(args, env) }),
        FreeFunction(name: "Date",
                     forms: [noArguments, [labelled("timeIntervalSince1970", .value)], [labelled("timeIntervalSinceNow", .value)],
                             [labelled("iso8601", .string)]],
                     summary: "a moment: now on the run's clock (the wall clock live, 1970-01-01 plus the virtual time in virtual time), one given in seconds, or one read from ISO 8601 text (nil if it is not)",
                     example: #"print(Date(timeIntervalSince1970: 1_700_000_000), Date(iso8601: "2023-11-14T23:13:20+01:00")!)"#,
                     body: .running { args, env in try date(args, env) }),
        FreeFunction(name: "Decimal", forms: [noArguments, [arg("value", .value)], [labelled("string", .string)]],
                     summary: "Foundation's base-10 number, for money: 0 with no argument, an Int's or a Double's value, or the number a text writes (nil if it is not one); + - * / and comparisons with Decimals, Ints and Doubles",
                     example: #"print(Decimal(string: "0.1")! + Decimal(string: "0.2")!, Decimal(19) * 3, Decimal(7) / 2)"#,
                     body: .value { args in
                         switch args.labels.first ?? nil {
                         case "string": return DecimalValue.parse(try args.string(0))
                         case nil where !args.values.isEmpty: return DecimalValue.make(try DecimalValue.number(args.values[0], for: "Decimal(_:)"))
                         default: return DecimalValue.make(0)
                         }
                     }),
        FreeFunction(name: "ISO8601DateFormatter", forms: [noArguments],
                     summary: "Foundation's ISO 8601 formatter: string(from: date) and date(from: text) (or nil) by its formatOptions (.withInternetDateTime at first; .withFractionalSeconds, .withFullDate, ...) in its timeZone (UTC at first)",
                     example: #"let iso = ISO8601DateFormatter()"# + "\n" + #"print(iso.string(from: iso.date(from: "2023-11-14T23:13:20+01:00")!))"#,
                     body: .value { _ in ISO8601FormatterValue.make() }),
        FreeFunction(name: "DateFormatter", forms: [noArguments],
                     summary: "Foundation's date formatter: set its dateFormat (yyyy-MM-dd HH:mm), timeZone and locale (the system's at first), then string(from: date) and date(from: text) (or nil)",
                     example: #"let f = DateFormatter()"# + "\n" + #"f.dateFormat = "yyyy-MM-dd HH:mm""# + "\n" + #"f.timeZone = TimeZone(identifier: "UTC")"#
                        + "\n" + #"print(f.string(from: Date(timeIntervalSince1970: 1_700_000_000)))"#,
                     body: .value { _ in DateFormatterValue.make() }),
        FreeFunction(name: "TimeZone", forms: [[labelled("identifier", .string)], [labelled("secondsFromGMT", .int)], [labelled("abbreviation", .string)]],
                     summary: "Foundation's time zone by its identifier (Europe/Paris, UTC), its offset in seconds or its abbreviation (CET), or nil if there is none; TimeZone.current is the system's",
                     example: #"print(TimeZone(identifier: "Europe/Paris")!.identifier, TimeZone(secondsFromGMT: 7200)!.identifier, TimeZone(identifier: "Mars") == nil)"#,
                     body: .value { args in try TimeZoneValue.initialise(args) }),
        FreeFunction(name: "Locale", forms: [[labelled("identifier", .string)]],
                     summary: "Foundation's locale by its identifier (en_US_POSIX for fixed formats, fr_FR), for a DateFormatter's locale; Locale.current is the system's",
                     example: #"print(Locale(identifier: "en_US_POSIX").identifier)"#,
                     body: .value { args in LocaleValue.make(identifier: try args.string(0)) }),
        FreeFunction(name: "now", forms: [noArguments], summary: "the Date now on the run's clock, as Date()",
                     example: #"print(now().timeIntervalSince(Date(timeIntervalSince1970: 0)) >= 0)"#,
                     body: .running { _, env in DateValue.make(DateValue.now(on: env.run.scheduler)) }),
        FreeFunction(name: "signals", forms: [[arg("name", .string), variadic("more", .string)]],
                     summary: "each delivery of these signals (HUP, INT, TERM, USR1, USR2) as its name; while subscribed the script handles them instead of the run stopping",
                     example: #"let reloads = signals("HUP", "USR1")"#,
                     body: .value { args in .stream(SignalStream(try args.values.map { try SignalStream.name(try $0.asString()) })) }),
    ]

    private static func exit(_ args: MethodArguments, _ env: Environment) throws -> Value {
        let status = try args.values[0].asInt()
        guard (0...255).contains(status) else { throw FlowError("exit takes a status from 0 to 255, not \(status)") }
        guard let request = env.requestExit else {
            throw FlowError("exit(\(status)) ends a script's run, and a test block is not one: let the stream fail, or use expect")
        }
        request(Int32(status))
        // Like Swift's exit, the call does not return: what called it
        // stops here (this error is not reported once the run is exiting).
        throw FlowError("exit(\(status))")
    }

    private static func date(_ args: MethodArguments, _ env: Environment) throws -> Value {
        switch args.labels.first ?? nil {
        case "timeIntervalSince1970": return DateValue.make(try DateValue.interval(args.values[0], for: "Date(timeIntervalSince1970:)"))
        case "timeIntervalSinceNow":
            return DateValue.make(DateValue.now(on: env.run.scheduler) + (try DateValue.interval(args.values[0], for: "Date(timeIntervalSinceNow:)")))
        case "iso8601": return DateValue.parseISO8601(try args.string(0))
        default: return DateValue.make(DateValue.now(on: env.run.scheduler))
        }
    }
}
