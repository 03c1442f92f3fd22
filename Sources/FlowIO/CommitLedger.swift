import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// What each sink of the run has committed so far: rows into a table,
/// lines and bytes appended to a file, a file replaced or left as it was.
/// A stop (Ctrl-C, SIGTERM, SIGHUP) prints it, always: kept under a lock,
/// it is read even by the watchdog that ends a run too busy to stop in
/// time, without waiting for the loop.
public final class CommitLedger: @unchecked Sendable {
    public static let shared = CommitLedger()

    struct Entry {
        var sink: String
        var noun: String
        var verb: String
        var count = 0
        var bytes = 0
        /// How it ended, once it has (`replaced`, `left as it was`).
        var outcome: String?
    }

    private let lock = NIOLock()
    private var entries: [Int: Entry] = [:]
    private var nextID = 0
    /// Commits sent and not yet answered: a report waits for them (a
    /// little), so it counts what the server really kept.
    private var committing = 0

    /// A new sink, `sink` as the script wrote it (`pg.insert("orders")`),
    /// counting what it `verb`s (`row`, `committed`; `line`, `appended`).
    func open(_ sink: String, _ noun: String, _ verb: String) -> Int {
        lock.withLock {
            nextID += 1
            entries[nextID] = Entry(sink: sink, noun: noun, verb: verb)
            return nextID
        }
    }

    func add(_ id: Int, count: Int, bytes: Int = 0) {
        lock.withLock {
            entries[id]?.count += count
            entries[id]?.bytes += bytes
        }
    }

    func settle(_ id: Int, _ outcome: String) {
        lock.withLock { entries[id]?.outcome = outcome }
    }

    func beginCommit() { lock.withLock { committing += 1 } }
    func endCommit() { lock.withLock { committing -= 1 } }

    /// One line per sink: what it committed, once the commits under way
    /// have been answered, or after `seconds` at most.
    public func report(waitingUpTo seconds: Double = 3) -> [String] {
        var waited = 0.0
        while lock.withLock({ committing > 0 }), waited < seconds {
            usleep(10_000)
            waited += 0.01
        }
        let unanswered = lock.withLock { committing }
        // Writers made per event (`file.append` inside a closure) of one
        // sink say it once, their counts summed.
        var all: [Entry] = []
        var places: [[String?]: Int] = [:]
        for entry in lock.withLock({ entries.sorted { $0.key < $1.key }.map(\.value) }) {
            let key = [entry.sink, entry.noun, entry.verb, entry.outcome]
            if let same = places[key] {
                all[same].count += entry.count
                all[same].bytes += entry.bytes
            } else {
                places[key] = all.count
                all.append(entry)
            }
        }
        return all.map { entry in
            var text = "\(entry.sink): \(entry.count) \(entry.noun)\(entry.count == 1 ? "" : "s") \(entry.verb)"
            if entry.bytes > 0 { text += " (\(entry.bytes) bytes)" }
            return text + (entry.outcome.map { ", \($0)" } ?? "")
        } + (unanswered > 0 ? ["\(unanswered) commit\(unanswered == 1 ? " was" : "s were") still unanswered by the server"] : [])
    }

    /// Forgets every sink (a new run in the same process).
    public func reset() { lock.withLock { entries = [:] } }
}
