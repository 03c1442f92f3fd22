import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
import PostgresNIO

/// `pg.queue(table, batch: n) { row in … }`: a table of work shared by any
/// number of processes, as graphile-worker and Que share theirs.
///
/// A worker claims up to `n` rows with `FOR UPDATE SKIP LOCKED` in a
/// transaction of its own, emits them (or what the closure's stream makes
/// of each), and once every row's stream has completed and the run's
/// database sinks have committed what they were given, deletes the rows
/// (or sets the `done:` column) and commits. A worker that fails, is
/// stopped or is killed never commits: the server releases its rows, and
/// another worker claims them. So each row is handled once, or again after
/// a crash, and never lost.
///
/// When no row can be claimed, the worker waits for a notification on the
/// channel named after the table (`NOTIFY orders`, or `pg.notify`), or
/// `every` (5 s) at the longest; with `drain: true` it completes instead.
final class QueueNode: DatabaseNode {
    struct Options: Sendable {
        var table: String
        var batch: Int
        var doneColumn: String?
        var every: TimeSpan
        var drain: Bool
    }

    let options: Options
    let handler: Function?

    init(database: DatabaseRun, address: DatabaseAddress, options: Options, handler: Function?, location: SourceLocation?) {
        self.options = options
        self.handler = handler
        super.init(name: "pg.queue", database: database, address: address, location: location)
    }

    override func start(_ observer: Observer, live: any LiveLoop, pool: DatabasePool) {
        let run = QueueRun(observer: observer, handler: handler, registry: live.runState(for: database) { WriterRegistry() },
                           location: location, live: live)
        observer.onSubscribe(run)
        let handoff = Handoff<QueueEvent>.onLoop(live) { [run] in run.drain() }
        run.handoff = handoff
        let shown = "pg.queue(\(options.table.debugDescription))" + (location.map { " at \($0)" } ?? "")
        run.task = QueueWorker.spawn(options, shown: shown, pool: pool, handoff: handoff)
    }
}

enum QueueEvent: Sendable {
    case batch([PostgresRow], BatchAnswer)
    case end
    case failure(String)
}

enum BatchDecision: Sendable {
    case commit
    case rollback
}

/// The loop's word on a claimed batch, given once. Dropped unanswered (the
/// run ended), it rolls the batch back: the worker never waits forever.
final class BatchAnswer: Sendable {
    private let continuation = NIOLockedValueBox<CheckedContinuation<BatchDecision, Never>?>(nil)

    init(_ continuation: CheckedContinuation<BatchDecision, Never>) {
        self.continuation.withLockedValue { $0 = continuation }
    }

    func give(_ decision: BatchDecision) {
        let waiting = continuation.withLockedValue { value in
            defer { value = nil }
            return value
        }
        waiting?.resume(returning: decision)
    }

    deinit { give(.rollback) }
}

/// One subscription of a queue, on the loop.
final class QueueRun: Disposable {
    private let observer: Observer
    private let handler: Function?
    private let registry: WriterRegistry
    private let location: SourceLocation?
    private let live: any LiveLoop
    private var hold: Disposable?
    var handoff: Handoff<QueueEvent>?
    var task: Task<Void, Never>?
    private var answer: BatchAnswer?
    private var inner: [Disposable] = []
    private var isDone = false

    init(observer: Observer, handler: Function?, registry: WriterRegistry, location: SourceLocation?, live: any LiveLoop) {
        self.observer = observer
        self.handler = handler
        self.registry = registry
        self.location = location
        self.live = live
        hold = live.hold()
    }

    func drain() {
        handoff?.deliver(while: { !isDone }) { event in
            switch event {
            case .batch(let rows, let answer): handle(rows, answer)
            case .end:
                finish()
                observer.onCompleted()
            case .failure(let reason):
                fail(FlowError("pg.queue: \(reason)", at: location))
            }
        }
    }

    private func handle(_ rows: [PostgresRow], _ answer: BatchAnswer) {
        self.answer = answer
        var values: [Value] = []
        do {
            for row in rows {
                guard case .tuple(var record) = try DatabaseValues.row(row) else { continue }
                // The first column is the claim's row address, not the row's.
                record.elements.removeFirst()
                record.labels?.removeFirst()
                values.append(.tuple(Tuple(record.elements, labels: record.labels)))
            }
        } catch {
            return fail(FlowError.wrap(error).located(at: location))
        }
        guard let handler else {
            for value in values where !isDone { observer.onNext(value) }
            return batchHandled()
        }
        var remaining = values.count
        inner = []
        for value in values where !isDone {
            let made: Value
            do { made = try handler.call(value) } catch { return fail(FlowError.wrap(error).located(at: location)) }
            guard case .stream(let stream) = made else {
                return fail(FlowError("pg.queue's closure returns a stream for each row (as http.post(...) or just(row)); it returned \(made.typeName) \(made.literal)",
                                      at: handler.location ?? location))
            }
            let observer = RowWorkObserver(
                next: { [weak self] in self?.observer.onNext($0) },
                failed: { [weak self] in self?.fail($0) },
                completed: { [weak self] in
                    remaining -= 1
                    if remaining == 0 { self?.batchHandled() }
                })
            stream.subscribe(observer, on: live)
            inner.append(observer)
        }
    }

    /// Every row's work is done: once the run's sinks have committed it, the
    /// batch is deleted.
    private func batchHandled() {
        guard !isDone else { return }
        inner = []
        registry.settle { [weak self] committed in
            guard let self, !self.isDone else { return }
            // A sink that failed has said why; its rows' jobs stay queued.
            guard committed else { return self.dispose() }
            self.answer?.give(.commit)
            self.answer = nil
        }
    }

    private func fail(_ error: FlowError) {
        guard !isDone else { return }
        dispose()
        observer.onError(error)
    }

    private func finish() {
        isDone = true
        hold.release()
    }

    func dispose() {
        guard !isDone else { return }
        finish()
        answer?.give(.rollback)
        answer = nil
        for work in inner { work.dispose() }
        inner = []
        handoff?.close()
        task?.cancel()
    }
}

/// Forwards one row's stream to the queue's subscriber.
final class RowWorkObserver: Observer, Disposable {
    private let next: (Value) -> Void
    private let failed: (FlowError) -> Void
    private let completed: () -> Void
    private var upstream: Disposable?
    private var isDone = false

    init(next: @escaping (Value) -> Void, failed: @escaping (FlowError) -> Void, completed: @escaping () -> Void) {
        self.next = next
        self.failed = failed
        self.completed = completed
    }

    func onSubscribe(_ subscription: Disposable) { if isDone { subscription.dispose() } else { upstream = subscription } }
    func onNext(_ value: Value) { if !isDone { next(value) } }

    func onError(_ error: FlowError) {
        guard !isDone else { return }
        isDone = true
        failed(error)
    }

    func onCompleted() {
        guard !isDone else { return }
        isDone = true
        completed()
    }

    func dispose() {
        isDone = true
        upstream?.dispose()
        upstream = nil
    }
}

/// The database side of a queue: claims, waits, deletes.
enum QueueWorker {
    /// `shown` names the queue in a sink's deadlock error.
    static func spawn(_ options: QueueNode.Options, shown: String, pool: DatabasePool, handoff: Handoff<QueueEvent>) -> Task<Void, Never> {
        Task { await work(options, shown: shown, pool: pool, handoff: handoff) }
    }

    private static func work(_ options: QueueNode.Options, shown: String, pool: DatabasePool, handoff: Handoff<QueueEvent>) async {
        let wakeup = Wakeup()
        let channel = options.table.split(separator: ".").last.map(String.init) ?? options.table
        let listener = Task {
            await ChannelListener.keepListening(to: channel, at: pool.address) { event in
                if case .notification = event { wakeup.signal() }
                return !Task.isCancelled
            }
        }
        defer { listener.cancel() }
        var claimSQL = ""
        var finishSQL = ""
        // Each statement waits for its answer while the connection is open,
        // and for as long as a sink's would.
        let limit = RowWriter.statementTimeout + RowWriter.answerGrace
        // What a failure says was committed: a reconnect does not resume
        // a queue (its claim is gone with its connection), so its error
        // tells what is done and what is left for the next worker.
        var jobsDone = 0
        var inHand = 0
        var commitSent = false
        while !Task.isCancelled {
            var lease: Lease?
            var inTransaction = false
            do {
                let leased = try await pool.lease()
                lease = leased
                let connection = leased.connection
                if claimSQL.isEmpty {
                    (claimSQL, finishSQL) = try await statements(for: options, on: connection)
                }
                _ = try await leased.rows(of: "BEGIN", within: limit)
                inTransaction = true
                let rows = try await leased.rows(of: PostgresQuery(unsafeSQL: claimSQL), within: limit)
                if rows.isEmpty {
                    _ = try await leased.rows(of: "COMMIT", within: limit)
                    inTransaction = false
                    pool.giveBack(leased, reusable: true)
                    lease = nil
                    if options.drain {
                        _ = await handoff.push(.end)
                        return
                    }
                    await wakeup.wait(upTo: options.every)
                    continue
                }
                var addresses: [String] = []
                for row in rows {
                    addresses.append(try row.makeRandomAccess()[0].decode(String.self))
                }
                inHand = rows.count
                HeldClaims.hold(leased.pid, by: shown)
                let decision = await withCheckedContinuation { continuation in
                    let answer = BatchAnswer(continuation)
                    Task { if !(await handoff.push(.batch(rows, answer))) { answer.give(.rollback) } }
                }
                HeldClaims.release(leased.pid)
                guard decision == .commit else {
                    _ = try? await leased.rows(of: "ROLLBACK", within: limit)
                    pool.giveBack(leased, reusable: true)
                    return
                }
                var bindings = PostgresBindings()
                bindings.append(UntypedText("{" + addresses.map { "\"\($0)\"" }.joined(separator: ",") + "}"))
                _ = try await leased.rows(of: PostgresQuery(unsafeSQL: finishSQL, binds: bindings), within: limit)
                commitSent = true
                _ = try await leased.rows(of: "COMMIT", within: limit)
                commitSent = false
                inTransaction = false
                jobsDone += inHand
                inHand = 0
                pool.giveBack(leased, reusable: true)
            } catch {
                if let lease {
                    if inTransaction { _ = try? await lease.rows(of: "ROLLBACK", within: RowWriter.answerGrace) }
                    pool.giveBack(lease, reusable: false)
                }
                if Task.isCancelled { return }
                let reason = DatabaseFailure.describe(error, address: pool.address)
                _ = await handoff.push(.failure(reason + "; " + committedText(done: jobsDone, inHand: inHand, commitSent: commitSent)))
                return
            }
        }
    }

    /// What a failed queue had committed, and what became of its batch.
    static func committedText(done: Int, inHand: Int, commitSent: Bool) -> String {
        let jobs = { (n: Int) in "\(n) \(n == 1 ? "job" : "jobs")" }
        var text = "\(jobs(done)) \(done == 1 ? "was" : "were") committed as done before it"
        if inHand > 0 {
            text += commitSent
                ? "; whether the batch of \(jobs(inHand)) being finished was committed is not known (the server took its COMMIT and gave no answer): those are done or still queued"
                : ", and the batch of \(jobs(inHand)) in hand was not: it stays queued for the next worker"
        }
        return text
    }

    /// The claim and the finish, for the table as the server names it.
    private static func statements(for options: QueueNode.Options, on connection: PostgresConnection) async throws -> (String, String) {
        var bindings = PostgresBindings()
        bindings.append(UntypedText(options.table))
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT $1::regclass::text", binds: bindings),
                                              logger: DatabasePool.logger).collect()
        let table = try rows.first?.decode(String.self) ?? options.table
        let filter = options.doneColumn.map { " WHERE \(RowWriter.quoted($0)) IS NOT TRUE" } ?? ""
        let claim = "SELECT ctid::text AS \"flow claim\", * FROM \(table)\(filter) LIMIT \(options.batch) FOR UPDATE SKIP LOCKED"
        let finish = options.doneColumn.map { "UPDATE \(table) SET \(RowWriter.quoted($0)) = true WHERE ctid = ANY($1::tid[])" }
            ?? "DELETE FROM \(table) WHERE ctid = ANY($1::tid[])"
        return (claim, finish)
    }
}

/// Wakes a waiting worker: a notification, or the longest wait passing.
final class Wakeup: Sendable {
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    func signal() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else { state.signalled = true; return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(upTo limit: TimeSpan) async {
        let timeout = Task { [self] in
            try? await Task.sleep(nanoseconds: UInt64(max(0, limit.nanoseconds)))
            signal()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state in
                    if state.signalled { state.signalled = false; return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
        timeout.cancel()
        state.withLockedValue { $0.signalled = false }
    }
}
