import FlowLanguage
import FlowRuntime
import Foundation

/// How much `log` writes: `--log-level`. Each level writes its own lines
/// and those of the levels after it.
public enum LogLevel: String, CaseIterable, Sendable, Comparable {
    case debug, info, warn, error, off

    public static func < (a: LogLevel, b: LogLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension IOModules {
    /// `log.info("...")`: a line on standard error with the time on the
    /// run's clock and the level (`2026-11-27T22:40:19.123Z INFO  started`),
    /// written when the level is at or above `threshold`. Standard output
    /// stays the script's data; the log is for whoever watches the job
    /// (journald, a cron mail).
    public static func log(threshold: LogLevel, write: @escaping @Sendable (String) -> Void = { StandardStreams.err($0) }) -> BuiltinModule {
        func level(_ level: LogLevel, _ summary: String) -> OperatorSpec {
            function(level.rawValue, .utility, summary, [variadic("items", .value)]) { args in
                guard level >= threshold else { return .null }
                let text = args.all(0).map(\.description).joined(separator: " ")
                let seconds = RunClock.secondsSince1970(on: args.context.scheduler)
                let stamp = timestampFormatter.withLockedValue { $0.string(from: Date(timeIntervalSince1970: seconds)) }
                let name = level.rawValue.uppercased()
                write(stamp + " " + name + String(repeating: " ", count: max(0, 5 - name.count)) + " " + text)
                return .null
            }
        }
        return BuiltinModule(name: "log", summary: "lines on standard error with the time and a level; --log-level chooses which are written (info by default)",
                             functions: [
                                level(.debug, "a detail, written with --log-level debug"),
                                level(.info, "a line of what the job does (written unless --log-level is warn, error or off)"),
                                level(.warn, "something wrong the job goes on after"),
                                level(.error, "a failure"),
                             ],
                             examples: ["info": #"log.info("loaded", count, "rows")"#])
    }

    private static let timestampFormatter: LockedISO8601Formatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return LockedISO8601Formatter(formatter)
    }()
}

/// A formatter used from the loop threads of several runs at once (the
/// playground): `ISO8601DateFormatter` is not safe to share unguarded.
final class LockedISO8601Formatter: @unchecked Sendable {
    private let formatter: ISO8601DateFormatter
    private let lock = NSLock()

    init(_ formatter: ISO8601DateFormatter) { self.formatter = formatter }

    func withLockedValue<T>(_ body: (ISO8601DateFormatter) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(formatter)
    }
}
