import FlowRuntime
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A connection that could not be made: told apart from one lost after it
/// was made, which a message says differently ("cannot connect" against
/// "the connection was lost").
struct ConnectFailure: Error {
    let underlying: Error
}

/// Why a task stopped waiting for the server's answer on its own.
enum ConnectionLost: Error {
    /// The connection closed while a statement waited for its answer.
    case closed
    /// The server gave no answer within the time allowed.
    case noAnswer(TimeSpan)
}

/// Hears, once per connection, that it closed, and tells whoever waits
/// for an answer on it at that moment.
final class ClosingWatch: Sendable {
    private struct State {
        var closed = false
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init(_ connection: PostgresConnection) {
        connection.closeFuture.whenComplete { [self] _ in
            // The library's own error, when it gives one, says more: it is
            // given a moment to arrive first.
            connection.eventLoop.scheduleTask(in: .milliseconds(300)) { self.closed() }
        }
    }

    private func closed() {
        let waiting = state.withLockedValue { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for action in waiting { action() }
    }

    /// Calls `action` when the connection closes (at once if it has); the
    /// key given back forgets it.
    func whenClosed(_ action: @escaping @Sendable () -> Void) -> Int? {
        let key: Int? = state.withLockedValue { state in
            if state.closed { return nil }
            state.next += 1
            state.waiting[state.next] = action
            return state.next
        }
        if key == nil { action() }
        return key
    }

    func forget(_ key: Int?) {
        guard let key else { return }
        _ = state.withLockedValue { $0.waiting.removeValue(forKey: key) }
    }
}

/// A limit on each step of a task on one connection, armed again as each
/// step starts: a server that gives no answer within it has its connection
/// closed, which `answering` reports as no answer. A timer of the
/// connection's event loop, not a task per step: a batch has hundreds.
final class StepDeadline: Sendable {
    let limit: TimeSpan
    private let connection: PostgresConnection
    private let scheduled = NIOLockedValueBox<Scheduled<Void>?>(nil)
    private let passedBox = NIOLockedValueBox(false)

    init(_ limit: TimeSpan, on connection: PostgresConnection) {
        self.limit = limit
        self.connection = connection
    }

    var passed: Bool { passedBox.withLockedValue { $0 } }

    /// A step starts: it has `limit` to be answered.
    func arm() {
        let connection = self.connection, passedBox = self.passedBox
        let next = connection.eventLoop.scheduleTask(in: .nanoseconds(limit.nanoseconds)) {
            passedBox.withLockedValue { $0 = true }
            connection.closeSoon()
        }
        scheduled.withLockedValue { previous in
            previous?.cancel()
            previous = next
        }
    }

    func disarm() { scheduled.withLockedValue { $0?.cancel(); $0 = nil } }
}

extension Lease {
    /// `body`'s result, or an error as soon as the connection closes, or a
    /// step of it (`StepDeadline.arm`) passes `stepLimit` without an answer:
    /// postgres-nio can leave a COPY waiting forever when the server goes
    /// away in the middle of it (the channel's error is caught and nothing
    /// is failed), so a batch never relies on the library alone to hear
    /// that its server is gone. A body still waiting then is left to finish
    /// against a closed channel.
    func answering<T: Sendable>(stepsWithin stepLimit: TimeSpan,
                                _ body: @escaping @Sendable (PostgresConnection, StepDeadline) async throws -> T) async throws -> T {
        let connection = self.connection
        let deadline = StepDeadline(stepLimit, on: connection)
        let once = NIOLockedValueBox<CheckedContinuation<T, Error>?>(nil)
        @Sendable func finish(_ result: Result<T, Error>) {
            let waiting = once.withLockedValue { value in
                defer { value = nil }
                return value
            }
            waiting?.resume(with: result)
        }
        let key = NIOLockedValueBox<Int?>(nil)
        defer {
            deadline.disarm()
            watch.forget(key.withLockedValue { $0 })
        }
        return try await withCheckedThrowingContinuation { continuation in
            once.withLockedValue { $0 = continuation }
            Task {
                do { finish(.success(try await body(connection, deadline))) } catch {
                    finish(.failure(deadline.passed ? ConnectionLost.noAnswer(stepLimit) : error))
                }
            }
            let registered = watch.whenClosed {
                finish(.failure(deadline.passed ? ConnectionLost.noAnswer(stepLimit) : ConnectionLost.closed))
            }
            key.withLockedValue { $0 = registered }
        }
    }

    /// One statement's rows, answered within `limit` or the connection closed.
    func rows(of query: PostgresQuery, within limit: TimeSpan) async throws -> [PostgresRow] {
        try await answering(stepsWithin: limit) { connection, deadline in
            deadline.arm()
            return try await connection.query(query, logger: DatabasePool.logger).collect()
        }
    }
}

extension DatabaseFailure {
    /// Whether `error` says the connection, not the statement, failed: the
    /// server went away (a restart, a crash, a lost network), so the same
    /// work may succeed on a new connection once it is back.
    static func isConnectionLoss(_ error: Error) -> Bool {
        if error is ConnectFailure || error is ConnectionLost { return true }
        if let transaction = error as? PostgresTransactionError,
           let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError {
            return isConnectionLoss(inner)
        }
        guard let psql = error as? PSQLError else { return false }
        // A row refused by the memory budget ends the connection, and would
        // be refused again.
        if psql.underlying is FlowError { return false }
        switch psql.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return true
        case .server:
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
            // (the server is starting), and class 08, connection exceptions.
            let state = psql.serverInfo?[.sqlState] ?? ""
            return ["57P01", "57P02", "57P03"].contains(state) || state.hasPrefix("08")
        default:
            return false
        }
    }
}

/// Transactions this process keeps open while it waits for its own sinks:
/// a queue's claimed batch, held until what the run made of it is
/// committed. A sink's statement waiting for one of them waits for itself.
enum HeldClaims {
    private static let holders = NIOLockedValueBox<[Int32: String]>([:])

    static func hold(_ pid: Int32, by holder: String) { holders.withLockedValue { $0[pid] = holder } }
    static func release(_ pid: Int32) { _ = holders.withLockedValue { $0.removeValue(forKey: pid) } }
    static var isEmpty: Bool { holders.withLockedValue { $0.isEmpty } }
    static func holder(of pid: Int32) -> String? { holders.withLockedValue { $0[pid] } }
}

/// Watches a sink's statement that is slow to answer: when the server
/// says it waits for a lock a claim of this same process holds, it can
/// never be granted (PostgreSQL's own deadlock detector cannot see a
/// cycle that passes through the client), so the statement is cancelled
/// and the watch says which claim it waited for.
enum BlockingWatch {
    /// How long a statement runs before the server is asked what it waits for.
    static let firstLook = TimeSpan.seconds(1)

    static func start(lease: Lease, pool: DatabasePool) -> Task<String?, Never>? {
        guard !HeldClaims.isEmpty else { return nil }
        let pid = lease.pid
        return Task {
            var watcher: Lease?
            defer { watcher?.connection.closeSoon() }
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(firstLook.nanoseconds))
                if Task.isCancelled { return nil }
                do {
                    if watcher == nil { watcher = try await DatabasePool.connect(to: pool.address) }
                    guard let watcher else { return nil }
                    var bindings = PostgresBindings()
                    bindings.append(pid)
                    let query = PostgresQuery(unsafeSQL: "SELECT unnest(pg_blocking_pids($1))", binds: bindings)
                    let rows = try await watcher.rows(of: query, within: .seconds(10))
                    for row in rows {
                        if let holder = HeldClaims.holder(of: try row.decode(Int32.self)) {
                            await pool.cancel(pid: pid)
                            return holder
                        }
                    }
                } catch {
                    return nil
                }
            }
            return nil
        }
    }
}
