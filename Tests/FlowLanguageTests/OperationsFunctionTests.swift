import Testing
@testable import FlowLanguage

/// `Date`, `now()` and `exit(code)`: what a job run by cron or systemd asks
/// of its run. The expected texts are what swiftc's Foundation prints for
/// the same calls (Swift 6.3 on Linux).
@Suite struct OperationsFunctionTests {
    @Test func aDatePrintsAndComputesAsSwiftsDoes() {
        let printed = OperatorDocs.printed(by: #"""
            let d = Date(timeIntervalSince1970: 1_700_000_000.25)
            print(d)
            print([d])
            print(d.ISO8601Format())
            print(d.timeIntervalSince(Date(timeIntervalSince1970: 1_699_999_000)))
            print(d.addingTimeInterval(90))
            print(d.timeIntervalSince1970)
            print(Date(iso8601: "2023-11-14T22:13:20Z")!)
            print(Date(iso8601: "2023-11-14T23:13:20+01:00")!)
            """#)
        #expect(printed == """
            2023-11-14 22:13:20 +0000
            [2023-11-14 22:13:20 +0000]
            2023-11-14T22:13:20Z
            1000.25
            2023-11-14 22:14:50 +0000
            1700000000.25
            2023-11-14 22:13:20 +0000
            2023-11-14 22:13:20 +0000
            """, "\(printed)")
    }

    @Test func timeZonesAndPatterns() {
        let printed = OperatorDocs.printed(by: #"""
            let d = Date(timeIntervalSince1970: 1_700_000_000)
            print(d.ISO8601Format(timeZone: "Europe/Paris"), d.ISO8601Format(timeZone: "-05:30"))
            print(d.formatted("yyyy-MM-dd HH:mm:ss"), d.formatted("yyyy-MM-dd HH:mm zzz", timeZone: "Europe/Paris"))
            print(Date(iso8601: "2023-11-14T22:13:20.5Z")!.timeIntervalSince1970, Date(iso8601: "2023-11-14")!, Date(iso8601: "yesterday") == nil)
            print(Date(timeIntervalSince1970: 0) < d, d == Date(timeIntervalSince1970: 1_700_000_000))
            """#)
        #expect(printed == """
            2023-11-14T23:13:20+01:00 2023-11-14T16:43:20-05:30
            2023-11-14 22:13:20 2023-11-14 23:13 GMT+1
            1700000000.5 2023-11-14 00:00:00 +0000 true
            true true
            """, "\(printed)")
        let unknown = OperatorDocs.printed(by: #"print(Date().ISO8601Format(timeZone: "Mars/Olympus"))"#)
        #expect(unknown.contains("example.flow:1:") && unknown.contains(#"unknown time zone "Mars/Olympus""#), "\(unknown)")
    }

    /// In virtual time a date is 1970-01-01 plus the virtual time, so
    /// marble runs are the same every time; on the live clock it is now.
    @Test func theRunsClockGivesTheDate() {
        let virtual = OperatorDocs.printed(by: #"""
            print(Date(), now().ISO8601Format())
            timer(1500ms).map { _ in Date().timeIntervalSince1970 }.sink { print($0) }
            """#)
        #expect(virtual == "1970-01-01 00:00:00 +0000 1970-01-01T00:00:00Z\n1.5", "\(virtual)")
    }

    /// Foundation's `ISO8601DateFormatter()` with its default options: the
    /// expected text is what swiftc's Foundation printed for the same
    /// program (its `date(from:)` reads neither fractions of a second nor a
    /// date alone, which flow's lenient `Date(iso8601:)` does).
    @Test func iso8601DateFormatterWritesAndReadsAsFoundationsDoes() {
        let printed = OperatorDocs.printed(by: #"""
            let iso = ISO8601DateFormatter()
            let d = Date(timeIntervalSince1970: 1_700_000_000.25)
            print(iso.string(from: d))
            print(iso.date(from: "2023-11-14T23:13:20+01:00")!)
            print(iso.date(from: "2023-11-14T22:13:20.5Z") == nil, iso.date(from: "2023-11-14") == nil, iso.date(from: "nope") == nil)
            print(iso.string(from: Date.now).count)
            """#)
        #expect(printed == """
            2023-11-14T22:13:20Z
            2023-11-14 22:13:20 +0000
            true true true
            20
            """, "\(printed)")
        let wrong = OperatorDocs.printed(by: #"print(ISO8601DateFormatter().string(from: 3))"#)
        #expect(wrong.contains("example.flow:1:") && wrong.contains("string(from:) takes a Date, got Int 3"), "\(wrong)")
    }

    /// Foundation's formatters are classes: a `let` holding one has its
    /// properties set, and every name holding it sees them (oracle 115 has
    /// what they write and read). A property set to a value of another type
    /// is an error where the formatter is used, naming the property.
    @Test func dateFormattersAreObjectsWhosePropertiesAreSet() {
        let printed = OperatorDocs.printed(by: #"""
            let f = DateFormatter()
            let same = f
            f.dateFormat = "yyyy-MM-dd"
            f.timeZone = TimeZone(identifier: "Asia/Tokyo")
            print(same.string(from: Date(timeIntervalSince1970: 1_700_000_000)), same.dateFormat!, f is DateFormatter)
            f.timeZone = TimeZone.current
            print(f.timeZone == TimeZone.current, Locale.current == f.locale)
            let iso = ISO8601DateFormatter()
            iso.formatOptions = [.withFullDate]
            print(iso.string(from: Date(timeIntervalSince1970: 0)), iso.timeZone!)
            f.timeZone = nil
            f.locale = nil
            f.timeStyle = .short
            print(f.timeZone == TimeZone.current, f.locale == Locale.current, f.dateStyle, f.timeStyle, f.dateFormat!.isEmpty)
            f.timeStyle = .none
            print(f.timeStyle, f.dateFormat!.isEmpty)
            """#)
        #expect(printed == """
            2023-11-15 yyyy-MM-dd true
            true true
            1970-01-01 GMT (0)
            true true none short false
            none true
            """, "\(printed)")
        let badFormat = OperatorDocs.printed(by: """
            let f = DateFormatter()
            f.dateFormat = 5
            print(f.string(from: Date()))
            """)
        #expect(badFormat.contains("example.flow:3:") && badFormat.contains("DateFormatter's dateFormat is a String"), "\(badFormat)")
        let badZone = OperatorDocs.printed(by: """
            let f = DateFormatter()
            f.timeZone = "Europe/Paris"
            print(f.string(from: Date()))
            """)
        #expect(badZone.contains("example.flow:3:") && badZone.contains(#"timeZone is a TimeZone, such as TimeZone(identifier: "UTC")"#), "\(badZone)")
        let badOption = OperatorDocs.printed(by: """
            let iso = ISO8601DateFormatter()
            iso.formatOptions = [.withFullDate, 3]
            print(iso.string(from: Date()))
            """)
        #expect(badOption.contains("example.flow:3:") && badOption.contains("formatOptions are options such as .withInternetDateTime"), "\(badOption)")
        let unknownProperty = OperatorDocs.printed(by: """
            let f = DateFormatter()
            f.calendar = 2
            """)
        #expect(unknownProperty.contains("example.flow:2:3") && unknownProperty.contains("flow has no DateFormatter property 'calendar'")
                && unknownProperty.contains("it sets 'dateFormat', 'timeZone', 'locale', 'isLenient', 'dateStyle', 'timeStyle'"), "\(unknownProperty)")
        // A style is one of Foundation's five, checked where it is set.
        let badStyle = OperatorDocs.printed(by: """
            let f = DateFormatter()
            f.dateStyle = .medium
            f.timeStyle = 2
            print("not reached")
            """)
        #expect(badStyle.contains("example.flow:3:") && badStyle.contains("DateFormatter's timeStyle is .none, .short, .medium, .long or .full, not Int 2")
                && !badStyle.contains("not reached"), "\(badStyle)")
        let misspelt = OperatorDocs.printed(by: """
            let f = DateFormatter()
            f.dateformat = "yyyy"
            """)
        #expect(misspelt.contains("did you mean 'dateFormat'?"), "\(misspelt)")
    }

    /// Foundation's `Date.now` is `Date()`: on the run's clock, printed as
    /// swiftc's Foundation prints it (`1970-01-01 00:00:00 +0000`); a name
    /// of the script's own called `Date` is left alone.
    @Test func dateNowIsTheRunsClock() {
        let virtual = OperatorDocs.printed(by: #"""
            print(Date.now, Date.now.ISO8601Format(), Date.now == Date())
            timer(1500ms).map { _ in Date.now.timeIntervalSince1970 }.sink { print($0) }
            """#)
        #expect(virtual == "1970-01-01 00:00:00 +0000 1970-01-01T00:00:00Z true\n1.5", "\(virtual)")
        let own = OperatorDocs.printed(by: #"""
            struct Date { static let now = "mine" }
            print(Date.now)
            """#)
        #expect(own == "mine", "\(own)")
    }

    @Test func exitEndsTheRunWhereItIsCalled() throws {
        final class Lines: @unchecked Sendable { var text: [String] = [] }
        let lines = Lines()
        let console = Console(out: { lines.text.append($0) }, err: { lines.text.append("err: " + $0) }, color: false)
        let program = try Program(file: SourceFile(path: "exit.flow", text: """
            print("before")
            of(1, 2, 3).sink { v in
              print(v)
              if v == 2 { exit(4) }
              print("not after exit")
            }
            print("never")
            """), console: console)
        let outcome = program.run(on: .virtual)
        #expect(outcome.exitStatus == 4)
        #expect(outcome.errors.isEmpty)
        #expect(lines.text == ["before", "1", "not after exit", "2"], "\(lines.text)")
    }

    @Test func exitIsRefusedInATestBlockAndOutOfRange() {
        let refused = OperatorDocs.printed(by: "exit(300)")
        #expect(refused.contains("exit takes a status from 0 to 255, not 300"), "\(refused)")
    }
}
