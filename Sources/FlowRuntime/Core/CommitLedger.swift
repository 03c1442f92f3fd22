import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What each sink of one run has committed so far: rows into a table,
/// lines and bytes appended to a file, a file replaced or left as it was.
///
/// One per run (a script's top level, a test block, a line of the REPL, a
/// page's run), reached by the sinks through their `OperatorContext`
/// (`commitLedger`), and read by whatever ran it: `flow run` when the run
/// ends or is stopped, `flow test` with each test, the REPL after the line
/// whose sinks ended, the page with the run's output. All of them say it
/// through `summary`. Kept under a lock: database sinks count off the loop,
/// where the server answers a COMMIT, and the watchdog that ends a run too
/// busy to stop reads it without waiting for the loop.
public final class CommitLedger: Sendable {
    struct Entry {
        var sink: String
        var noun: String
        var verb: String
        var count = 0
        var bytes = 0
        /// How it ended, once it has (`replaced`, `left as it was`).
        var outcome: String?
    }

    fileprivate struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// Commits sent and not yet answered: a report waits for them (a
        /// little), so it counts what the server really kept.
        var committing = 0
        /// Sinks with rows received and not yet settled (a database sink's
        /// batches after its stream ended).
        var writing = 0
    }

    fileprivate let state = Mutex(State())

    public init() {}

    /// One sink's line in a ledger, which it counts on from any thread.
    /// `nowhere` counts for nobody: a sink made where no run keeps a ledger.
    public struct Account: Sendable {
        fileprivate let ledger: CommitLedger?
        fileprivate let entry: Int

        public static let nowhere = Account(ledger: nil, entry: 0)

        /// `count` more rows or lines committed, of `bytes` bytes in all.
        public func add(_ count: Int, bytes: Int = 0) {
            ledger?.state.withLock { state in
                state.entries[entry]?.count += count
                state.entries[entry]?.bytes += bytes
            }
        }

        /// How the sink ended (`out.txt replaced`), once it has.
        public func settle(_ outcome: String) {
            ledger?.state.withLock { $0.entries[entry]?.outcome = outcome }
        }

        /// A commit was sent (`beginCommit`) or answered (`endCommit`):
        /// the ledger's lines wait for what is under way.
        public func beginCommit() { ledger?.state.withLock { $0.committing += 1 } }
        public func endCommit() { ledger?.state.withLock { $0.committing -= 1 } }

        /// The sink has writes under way (`beginWriting`) until it has
        /// settled them all (`endWriting`), its stream ended: what the
        /// REPL waits for before it says what a line committed.
        public func beginWriting() { ledger?.state.withLock { $0.writing += 1 } }
        public func endWriting() { ledger?.state.withLock { $0.writing -= 1 } }

        /// The same sink counted in `other` from now on, with what it has
        /// counted so far.
        fileprivate func moved(to other: CommitLedger) -> Account {
            guard let ledger, ledger !== other, let moving = ledger.state.withLock({ $0.entries.removeValue(forKey: entry) }) else { return self }
            return other.state.withLock { state in
                state.nextID += 1
                state.entries[state.nextID] = moving
                return Account(ledger: other, entry: state.nextID)
            }
        }
    }

    /// A sink's line, in the ledger of the run that uses it: opened when
    /// the sink is first subscribed or written to, so a sink made by one
    /// run and used by another (a REPL line's `let out = file.append(...)`,
    /// a top-level sink a test block subscribes) counts in the run that
    /// uses it, and one never used says nothing.
    public struct Place {
        private let sink: String, noun: String, verb: String
        /// Where it counts now: `nowhere` until it is used.
        public private(set) var account = Account.nowhere

        public init(_ sink: String, _ noun: String, _ verb: String) {
            (self.sink, self.noun, self.verb) = (sink, noun, verb)
        }

        /// Subscribed by a run: counted in its ledger from now on, moved
        /// there with its counts if another run's had it.
        public mutating func subscribed(in ledger: CommitLedger) {
            account = account.ledger == nil ? ledger.open(sink, noun, verb) : account.moved(to: ledger)
        }

        /// Written to: counted in `ledger` (the run in progress) if no
        /// subscription placed it yet.
        public mutating func used(in ledger: CommitLedger?) -> Account {
            if account.ledger == nil, let ledger { account = ledger.open(sink, noun, verb) }
            return account
        }
    }

    /// A new sink, `sink` as the script wrote it (`pg.insert("orders")`),
    /// counting what it `verb`s (`row`, `committed`; `line`, `appended`).
    public func open(_ sink: String, _ noun: String, _ verb: String) -> Account {
        state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(sink: sink, noun: noun, verb: verb)
            return Account(ledger: self, entry: state.nextID)
        }
    }

    /// Whether no sink was opened: a run that committed nothing says nothing.
    public var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// Whether a commit sent to a server is still unanswered.
    public var isCommitting: Bool { state.withLock { $0.committing > 0 } }

    /// Whether a sink still has writes to settle, or a commit is unanswered.
    public var isWriting: Bool { state.withLock { $0.committing > 0 || $0.writing > 0 } }

    /// One line per sink: what it committed, once the commits under way
    /// have been answered, or after `seconds` at most (0: as it stands,
    /// for a caller on the run's loop, which must not wait).
    public func lines(waitingUpTo seconds: Double = 3) -> [String] {
        var waited = 0.0
        while isCommitting, waited < seconds {
            usleep(10_000)
            waited += 0.01
        }
        let (entries, unanswered) = state.withLock { state in
            (state.entries.sorted { $0.key < $1.key }.map(\.value), state.committing)
        }
        // Writers made per event (`file.append` inside a closure) of one
        // sink say it once, their counts summed.
        var all: [Entry] = []
        var places: [[String?]: Int] = [:]
        for entry in entries {
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

    /// What the sinks committed, as every command says it: `ending`
    /// (`done`, `stopped by SIGTERM`) and the heading, then a line per sink
    /// indented under it; nil when no sink was opened.
    ///
    ///     stopped by SIGTERM; what the sinks committed:
    ///       pg.copy(into: "orders"): 25500 rows committed
    public func summary(ending: String? = nil, waitingUpTo seconds: Double = 3) -> String? {
        let lines = lines(waitingUpTo: seconds)
        guard !lines.isEmpty else { return nil }
        return Self.summary(lines, ending: ending)
    }

    /// `summary` of lines already read (`lines`), as a report that keeps
    /// them (a test's result) prints them later.
    public static func summary(_ lines: [String], ending: String? = nil) -> String {
        (ending.map { $0 + "; " } ?? "") + "what the sinks committed:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
