import Foundation
import FlowLanguage
import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
import PostgresNIO

/// Carries what a database task reads onto the loop, a window at a time:
/// the task waits while a window's worth is still being delivered, so a
/// result larger than memory flows at the pace of the script that consumes
/// it (postgres-nio then stops reading the socket, and the server waits).
final class Handoff<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var drainScheduled = false
        var closed = false
        var waiter: CheckedContinuation<Bool, Never>?
        /// The loop delivered a window its consumer had enough of: the task
        /// waits at its next item until `readOn()`, however empty the
        /// window is now.
        var held = false
    }

    private let state = NIOLockedValueBox(State())
    private let window: Int
    private let scheduleDrain: @Sendable () -> Void

    /// `scheduleDrain` asks the loop to call `deliver(while:_:)`.
    private init(window: Int, scheduleDrain: @escaping @Sendable () -> Void) {
        self.window = window
        self.scheduleDrain = scheduleDrain
    }

    /// A handoff whose items `drain` delivers on `live`'s loop (through
    /// `deliver(while:_:)`).
    static func onLoop(_ live: any LiveLoop, window: Int = 256, drain: @escaping () -> Void) -> Handoff {
        let scheduled = live.makeCallback { (_: Bool) in drain() }
        return Handoff(window: window) { scheduled(true) }
    }

    /// Hands one item over; false once the loop side has closed (the
    /// stream was disposed): the task then stops.
    func push(_ item: Item) async -> Bool {
        let (accepted, schedule, waits) = state.withLockedValue { state -> (Bool, Bool, Bool) in
            if state.closed { return (false, false, false) }
            state.items.append(item)
            let schedule = !state.drainScheduled
            state.drainScheduled = true
            return (true, schedule, state.items.count >= window || state.held)
        }
        guard accepted else { return false }
        if schedule { scheduleDrain() }
        guard waits else { return true }
        return await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLockedValue { state in
                if state.closed { return false }
                // A window the loop took meanwhile frees the task, unless
                // its consumer had enough (it read on, window after window,
                // on a loaded machine).
                if state.items.count < window && !state.held { return true }
                state.waiter = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// On the loop: each item handed over so far, while `isOpen`; then the
    /// task may read on, unless `readsOn` says the consumer has enough
    /// (demand): then it waits, once the window is full, for `readOn()`.
    func deliver(while isOpen: () -> Bool, readsOn: () -> Bool = { true }, _ body: (Item) -> Void) {
        for item in take() {
            guard isOpen() else { break }
            body(item)
        }
        if readsOn() {
            delivered()
        } else {
            state.withLockedValue { $0.held = true }
        }
    }

    /// On the loop: the consumer wants more again.
    func readOn() { delivered() }

    private func take() -> [Item] {
        state.withLockedValue { state in
            state.drainScheduled = false
            defer { state.items = [] }
            return state.items
        }
    }

    private func delivered() {
        let waiter = state.withLockedValue { state in
            state.held = false
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: true)
    }

    /// On the loop: the stream is disposed; the task's next push says so.
    func close() {
        let waiter = state.withLockedValue { state in
            state.closed = true
            state.items = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: false)
    }
}

/// Whether a statement is still running on the server, so that disposing
/// its stream cancels it there (once, and never a later statement of the
/// same connection: the connection is given back only after the cancel).
final class ServerStatement: Sendable {
    private enum Phase {
        case starting
        case running(pid: Int32)
        case cancelling(Task<Void, Never>)
        case stopped
        case done
    }

    private let phase = NIOLockedValueBox(Phase.starting)

    /// The statement is about to run on `pid`; false if it was stopped first.
    func begin(pid: Int32) -> Bool {
        phase.withLockedValue { phase in
            if case .starting = phase { phase = .running(pid: pid); return true }
            return false
        }
    }

    /// The statement's task is done with the connection: waits for a
    /// cancel in flight, so it cannot reach the connection's next statement.
    func end() async {
        let cancel = phase.withLockedValue { phase -> Task<Void, Never>? in
            defer { phase = .done }
            if case .cancelling(let task) = phase { return task }
            return nil
        }
        await cancel?.value
    }

    /// Stops the statement; when it is running, asks the server to cancel
    /// it and returns the task that does (nil when there is nothing to cancel).
    func stop(on pool: DatabasePool) -> Task<Void, Never>? {
        phase.withLockedValue { phase in
            switch phase {
            case .starting:
                phase = .stopped
                return nil
            case .running(let pid):
                let task = DatabaseCancels.track { await pool.cancel(pid: pid) }
                phase = .cancelling(task)
                return task
            default:
                return nil
            }
        }
    }
}

/// What a query's task reports.
enum QueryEvent: Sendable {
    case row(PostgresRow)
    case end
    /// `lost`: the connection went away (a restart, a crash).
    case failure(String, lost: Bool)
}

/// `pg.query(sql, params)`: each row as a record, then completion. The
/// statement runs on a connection of the pool; disposing the stream (or
/// its timeout) cancels it on the server.
final class QueryNode: DatabaseNode {
    struct Statement: Sendable {
        var sql: String
        var parameters: [String?]
        var timeout: TimeSpan
        /// Whether `timeout` is the default rather than the script's
        /// `timeout:`: the error then says how to give a longer one.
        var timeoutIsDefault: Bool
        /// `pg.notify`: the statement's rows are not the stream's values.
        var emitsRows = true

        init(sql: String, parameters: [String?], timeout: TimeSpan?, emitsRows: Bool = true) throws {
            self.sql = sql
            self.parameters = parameters
            self.timeout = try timeout ?? Self.defaultTimeout()
            self.timeoutIsDefault = timeout == nil
            self.emitsRows = emitsRows
        }

        /// A statement without `timeout:` is cancelled if its first row (or
        /// its end) has not come after as long as a batch's statement may
        /// run (`RowWriter.statementTimeout`), unless `FLOW_PG_TIMEOUT` gives
        /// another default (`5s`, `10m`). Only the wait for the server is
        /// bounded: once rows come, they are read at the script's pace,
        /// which may rightly take longer.
        static func defaultTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeSpan {
            guard let text = environment[defaultTimeoutVariable] else { return RowWriter.statementTimeout }
            guard let span = duration(text) else {
                throw FlowError("\(defaultTimeoutVariable)=\(text.debugDescription) is not a duration; write one as in a script, as in \(defaultTimeoutVariable)=90s or 10m")
            }
            return span
        }

        static let defaultTimeoutVariable = "FLOW_PG_TIMEOUT"

        /// A duration written as in scripts: `500ms`, `1.5s`, `10m`.
        static func duration(_ text: String) -> TimeSpan? { TimeSpan(written: text) }

        /// What the error says when the statement ran past its timeout.
        var timeoutMessage: String {
            let shown = sql.count > 80 ? String(sql.prefix(77)) + "..." : sql
            let whose = timeoutIsDefault ? "the default timeout of a statement" : "its timeout:"
            let raise = timeoutIsDefault
                ? "give it longer with timeout:, as in timeout: 10m, or set \(Self.defaultTimeoutVariable)=10m for every query"
                : "give it longer with a larger timeout:"
            return "the statement \"\(shown)\" ran longer than \(timeout) (\(whose)) and was cancelled on the server; \(raise)"
        }
    }

    let statement: Statement

    init(name: String, database: DatabaseRun, address: DatabaseAddress, statement: Statement, location: SourceLocation?) {
        self.statement = statement
        super.init(name: name, database: database, address: address, location: location)
    }

    override func start(_ observer: Observer, live: any LiveLoop, pool: DatabasePool) {
        let run = QueryRun(observer: observer, name: operatorName, statement: statement, pool: pool,
                           pressure: database.pressure, location: location, live: live)
        observer.onSubscribe(run)
        run.start()
    }
}

/// One subscription of a query, on the loop. It honours demand: while its
/// consumer has enough, the rows already handed over are delivered and
/// the cursor reads no further than the handoff's window.
final class QueryRun: Disposable, DemandControl {
    private let observer: Observer
    private let name: String
    private let statement: QueryNode.Statement
    private let pool: DatabasePool
    private let location: SourceLocation?
    private let live: any LiveLoop
    private let pressure: WritePressure
    private let server = ServerStatement()
    private var handoff: Handoff<QueryEvent>!
    private var hold: Disposable?
    private var timer: Disposable?
    private var task: Task<Void, Never>?
    private var isDone = false
    private var consumerWantsMore = true
    /// Rows handed to the script so far: a query that fails part-way says
    /// how many it gave, which cannot be taken back.
    private var delivered = 0

    init(observer: Observer, name: String, statement: QueryNode.Statement, pool: DatabasePool, pressure: WritePressure,
         location: SourceLocation?, live: any LiveLoop) {
        self.observer = observer
        self.name = name
        self.statement = statement
        self.pool = pool
        self.pressure = pressure
        self.location = location
        self.live = live
    }

    func start() {
        hold = live.hold()
        let handoff = Handoff<QueryEvent>.onLoop(live) { [self] in drain() }
        self.handoff = handoff
        let statement = self.statement
        timer = live.schedule(after: statement.timeout) { [weak self] in
            self?.fail("\(self?.name ?? "pg.query"): \(statement.timeoutMessage)")
        }
        task = Self.spawn(statement, on: pool, server: server, pressure: pressure, handoff: handoff)
    }

    private static func spawn(_ statement: QueryNode.Statement, on pool: DatabasePool, server: ServerStatement,
                              pressure: WritePressure, handoff: Handoff<QueryEvent>) -> Task<Void, Never> {
        Task { await execute(statement, on: pool, server: server, pressure: pressure, handoff: handoff) }
    }

    private static func execute(_ statement: QueryNode.Statement, on pool: DatabasePool, server: ServerStatement,
                                pressure: WritePressure, handoff: Handoff<QueryEvent>) async {
        var lease: Lease?
        do {
            let leased = try await pool.lease()
            lease = leased
            guard server.begin(pid: leased.pid) else {
                pool.giveBack(leased, reusable: true)
                return
            }
            let query = PostgresQuery(unsafeSQL: statement.sql, binds: DatabaseValues.bindings(statement.parameters))
            let rows = try await leased.connection.query(query, logger: DatabasePool.logger)
            var open = true
            for try await row in rows where statement.emitsRows {
                await pressure.roomToRead()
                guard await handoff.push(.row(row)) else { open = false; break }
            }
            await server.end()
            pool.giveBack(leased, reusable: true)
            if open { _ = await handoff.push(.end) }
        } catch {
            await server.end()
            if let lease { pool.giveBack(lease, reusable: DatabaseFailure.leavesConnectionUsable(error)) }
            _ = await handoff.push(.failure(DatabaseFailure.describe(error, address: pool.address, sql: statement.sql),
                                            lost: DatabaseFailure.isConnectionLoss(error)))
        }
    }

    func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        if wantsMore, !isDone { handoff.readOn() }
    }

    private func drain() {
        handoff.deliver(while: { !isDone }, readsOn: { consumerWantsMore }) { event in
            switch event {
            case .row(let row):
                if statement.timeoutIsDefault, delivered == 0 {
                    timer?.dispose()
                    timer = nil
                }
                let value: Value
                do { value = try DatabaseValues.row(row) } catch {
                    return fail(FlowError.wrap(error).message)
                }
                delivered += 1
                observer.onNext(value)
            case .end:
                finish()
                observer.onCompleted()
            case .failure(let reason, let lost):
                guard statement.emitsRows, lost || delivered > 0 else { return fail("\(name): \(reason)") }
                // A query is not run again: the rows it gave would be given twice.
                let rows = "\(delivered) \(delivered == 1 ? "row was" : "rows were") delivered before it"
                fail("\(name): \(reason); \(rows)" + (lost ? ", and the query is not run again (they would be delivered twice)" : ""))
            }
        }
    }

    private func fail(_ message: String) {
        guard !isDone else { return }
        dispose()
        observer.onError(FlowError(message, at: location))
    }

    private func finish() {
        isDone = true
        timer?.dispose()
        timer = nil
        hold.release()
    }

    /// Stops reading, and cancels the statement on the server if it still
    /// runs; the run lasts until the server has been asked.
    func dispose() {
        guard !isDone else { return }
        handoff.close()
        if let cancelling = server.stop(on: pool) {
            let stillHeld = live.hold()
            let release = live.makeCallback { (_: Bool) in stillHeld.dispose() }
            Task { await cancelling.value; release(true) }
        }
        task?.cancel()
        finish()
    }
}

/// What a listener's task reports.
enum ListenEvent: Sendable {
    case notification(channel: String, payload: String)
    case failure(String)
}

/// `pg.listen(channel)`: each notification on the channel as `(channel:,
/// payload:)`, for as long as the stream is subscribed. The listener has a
/// connection of its own; when it is lost, it says so on standard error
/// and connects again (notifications sent meanwhile are not seen: a queue
/// that must not miss work polls as well, as `pg.queue` does).
final class ListenNode: DatabaseNode {
    let channel: String

    init(database: DatabaseRun, address: DatabaseAddress, channel: String, location: SourceLocation?) {
        self.channel = channel
        super.init(name: "pg.listen", database: database, address: address, location: location)
    }

    override func start(_ observer: Observer, live: any LiveLoop, pool: DatabasePool) {
        let listening = Listening(observer: observer, location: location, live: live)
        observer.onSubscribe(listening)
        let handoff = Handoff<ListenEvent>.onLoop(live) { [listening] in listening.drain() }
        listening.handoff = handoff
        let channel = self.channel
        listening.task = Task { await ChannelListener.keepListening(to: channel, at: pool.address) { await handoff.push($0) } }
    }
}

final class Listening: Disposable {
    private let observer: Observer
    private let location: SourceLocation?
    private var hold: Disposable?
    var handoff: Handoff<ListenEvent>?
    var task: Task<Void, Never>?
    private var isDone = false

    init(observer: Observer, location: SourceLocation?, live: any LiveLoop) {
        self.observer = observer
        self.location = location
        hold = live.hold()
    }

    func drain() {
        handoff?.deliver(while: { !isDone }) { event in
            switch event {
            case .notification(let channel, let payload):
                observer.onNext(.record(["channel": .string(channel), "payload": .string(payload)]))
            case .failure(let reason):
                dispose()
                observer.onError(FlowError("pg.listen: \(reason)", at: location))
            }
        }
    }

    func dispose() {
        guard !isDone else { return }
        isDone = true
        handoff?.close()
        task?.cancel()
        hold.release()
    }
}

/// Listens on a channel for as long as the task runs, reconnecting when
/// the connection is lost. A first connection that fails is the stream's
/// error (a wrong address or password will not mend itself); a lost one is
/// retried, 0.1 s after the loss, then doubling up to 5 s.
enum ChannelListener {
    /// `deliver` returns false when no one listens any more.
    static func keepListening(to channel: String, at address: DatabaseAddress,
                              deliver: @escaping @Sendable (ListenEvent) async -> Bool) async {
        var everConnected = false
        var delay = 0.1
        let shown = "pg.listen(\(channel.debugDescription))"
        while !Task.isCancelled {
            var reason = "the connection ended"
            do {
                let lease = try await DatabasePool.connect(to: address)
                let connection = lease.connection
                defer { connection.closeSoon() }
                try await withTaskCancellationHandler {
                    try await connection.listen(on: channel) { notifications in
                        if everConnected { StandardStreams.err("flow: \(shown): listening again") }
                        everConnected = true
                        delay = 0.1
                        for try await notification in notifications {
                            guard await deliver(.notification(channel: channel, payload: notification.payload)) else { return }
                        }
                    }
                } onCancel: {
                    connection.closeSoon()
                }
            } catch {
                reason = DatabaseFailure.describe(error, address: address)
                if !everConnected && !Task.isCancelled {
                    _ = await deliver(.failure(reason))
                    return
                }
            }
            if Task.isCancelled { return }
            StandardStreams.err("flow: \(shown): \(reason); connecting again in \(delay < 1 ? "\(Int(delay * 1000))ms" : "\(Int(delay))s")")
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            delay = min(delay * 2, 5)
        }
    }
}
