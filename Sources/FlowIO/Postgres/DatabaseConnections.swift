import FlowRuntime
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One connection lent to one task, with the server process behind it (its
/// pid), which a cancel names.
struct Lease: Sendable {
    let connection: PostgresConnection
    let pid: Int32
    let watch: ClosingWatch

    init(connection: PostgresConnection, pid: Int32) {
        self.connection = connection
        self.pid = pid
        watch = ClosingWatch(connection)
    }
}

/// The connections to one database, shared by every run of the process: at
/// most `limit` open, idle ones kept for the next lease. postgres-nio's own
/// `PostgresClient` retries a refused connection until the caller gives up;
/// a script wants to hear at once that the server is not there, so the pool
/// here connects on demand and reports a failure to the one who asked.
final class DatabasePool: Sendable {
    static let limit = 10

    let address: DatabaseAddress

    private struct State {
        var idle: [Lease] = []
        var open = 0
        var nextWaiter = 0
        /// Tasks waiting for a connection: given a lease, or nil to open one.
        var waiters: [(id: Int, continuation: CheckedContinuation<Lease?, Error>)] = []
    }

    private let state = NIOLockedValueBox(State())
    private let reached = NIOLockedValueBox(false)
    /// Whether a connection was ever made: a server that cannot be reached
    /// afterwards went away (a restart), one never reached is misnamed.
    var wasReached: Bool { reached.withLockedValue { $0 } }
    private static let pools = NIOLockedValueBox<[DatabaseAddress: DatabasePool]>([:])
    private static let nextConnectionID = NIOLockedValueBox(0)
    static let logger = Logger(label: "flow.pg", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(address: DatabaseAddress) { self.address = address }

    static func shared(for address: DatabaseAddress) -> DatabasePool {
        pools.withLockedValue { pools in
            if let pool = pools[address] { return pool }
            let pool = DatabasePool(address: address)
            pools[address] = pool
            return pool
        }
    }

    /// A connection of the pool: an idle one, a new one while fewer than
    /// `limit` are open, else the next one given back.
    func lease() async throws -> Lease {
        enum Next { case use(Lease), connect, wait }
        let next: Next = state.withLockedValue { state in
            while let lease = state.idle.popLast() {
                if !lease.connection.isClosed { return .use(lease) }
                state.open -= 1
            }
            if state.open < Self.limit {
                state.open += 1
                return .connect
            }
            return .wait
        }
        switch next {
        case .use(let lease): return lease
        case .connect: return try await connectCounted()
        case .wait:
            let id = state.withLockedValue { state in state.nextWaiter += 1; return state.nextWaiter }
            let given: Lease? = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let cancelled = state.withLockedValue { state in
                        if Task.isCancelled { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let waiter = state.withLockedValue { state -> CheckedContinuation<Lease?, Error>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
            }
            if let given { return given }
            return try await connectCounted()
        }
    }

    /// Opens a connection whose slot is already counted; frees the slot if
    /// it cannot.
    private func connectCounted() async throws -> Lease {
        do {
            let lease = try await Self.connect(to: address)
            reached.withLockedValue { $0 = true }
            return lease
        } catch {
            slotFreed()
            throw error
        }
    }

    /// A connection outside the pool's count: a listener's, which stays
    /// open as long as it listens, and a cancel's.
    static func connect(to address: DatabaseAddress) async throws -> Lease {
        let configuration = try address.configuration()
        let id = nextConnectionID.withLockedValue { $0 += 1; return $0 }
        let connection: PostgresConnection
        do {
            let channel = try await ClientBootstrap(group: PostgresConnection.defaultEventLoopGroup)
                .connectTimeout(configuration.options.connectTimeout)
                .connect(host: address.judgedAddress ?? address.host, port: address.port).get()
            do {
                connection = try await PostgresConnection.connect(on: channel.eventLoop, configuration: try address.configuration(on: channel),
                                                                  id: id, logger: logger)
            } catch {
                channel.close(promise: nil)
                throw error
            }
            try await channel.eventLoop.submit {
                let sizes = ServerMessageGuard()
                if let tls = try? channel.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self) {
                    try channel.pipeline.syncOperations.addHandler(sizes, position: .after(tls))
                } else {
                    try channel.pipeline.syncOperations.addHandler(sizes, position: .first)
                }
            }.get()
        } catch {
            let refusal = error is FlowError || (error is PSQLError && !DatabaseFailure.isConnectionLoss(error))
            throw refusal ? error : ConnectFailure(underlying: error)
        }
        do {
            let rows = try await connection.query("SELECT pg_backend_pid()", logger: logger)
            var pid: Int32 = 0
            for try await row in rows { pid = try row.decode(Int32.self) }
            return Lease(connection: connection, pid: pid)
        } catch {
            try? await connection.close()
            throw DatabaseFailure.isConnectionLoss(error) ? ConnectFailure(underlying: error) : error
        }
    }

    /// Gives a connection back: to a waiting task, to the idle list, or,
    /// when it is not `reusable` (its state is unknown after an error), closed.
    func giveBack(_ lease: Lease, reusable: Bool) {
        let keep = reusable && !lease.connection.isClosed
        if !keep { lease.connection.closeSoon() }
        let waiter: (CheckedContinuation<Lease?, Error>, Lease?)? = state.withLockedValue { state in
            if !state.waiters.isEmpty {
                return (state.waiters.removeFirst().continuation, keep ? lease : nil)
            }
            if keep { state.idle.append(lease) } else { state.open -= 1 }
            return nil
        }
        if let (continuation, given) = waiter { continuation.resume(returning: given) }
    }

    private func slotFreed() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Lease?, Error>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.open -= 1
            return nil
        }
        waiter?.resume(returning: nil)
    }

    /// Runs `body` with a leased connection, given back afterwards; after
    /// an error the connection is closed rather than reused.
    func withConnection<T: Sendable>(_ body: (Lease) async throws -> T) async throws -> T {
        let lease = try await lease()
        do {
            let result = try await body(lease)
            giveBack(lease, reusable: true)
            return result
        } catch {
            giveBack(lease, reusable: DatabaseFailure.leavesConnectionUsable(error))
            throw error
        }
    }

    /// Asks the server to stop what `pid` is running, from a connection of
    /// its own: the one running it is busy reading the result.
    func cancel(pid: Int32) async {
        guard let lease = try? await Self.connect(to: address) else { return }
        var bindings = PostgresBindings()
        bindings.append(pid)
        _ = try? await lease.connection.query(PostgresQuery(unsafeSQL: "SELECT pg_cancel_backend($1)", binds: bindings),
                                              logger: Self.logger).collect()
        try? await lease.connection.close()
    }
}

/// Cancels a server is still asked to make when the run stops: the process
/// waits for them (briefly) before it exits, so a stopped script leaves no
/// query running on the server.
public enum DatabaseCancels {
    private static let pending = NIOLockedValueBox<[Int: Task<Void, Never>]>([:])
    private static let nextID = NIOLockedValueBox(0)

    static func track(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = nextID.withLockedValue { $0 += 1; return $0 }
        let task = Task {
            await work()
            _ = pending.withLockedValue { $0.removeValue(forKey: id) }
        }
        pending.withLockedValue { $0[id] = task }
        return task
    }

    /// The batches being written, which a stopped run abandons.
    private static let batches = NIOLockedValueBox<[Int: (BatchControl, DatabasePool)]>([:])

    static func writing(_ control: BatchControl, on pool: DatabasePool) -> Int {
        let id = nextID.withLockedValue { $0 += 1; return $0 }
        batches.withLockedValue { $0[id] = (control, pool) }
        return id
    }

    static func written(_ key: Int) { _ = batches.withLockedValue { $0.removeValue(forKey: key) } }

    /// A run was stopped (Ctrl-C, SIGTERM): every batch not yet committing
    /// is abandoned (its transaction rolled back) and the statement it
    /// waits for cancelled on the server; `settle` then waits for the cancels.
    public static func abandonBatches() {
        let writing = batches.withLockedValue { Array($0.values) }
        for (control, pool) in writing where control.abandon() { control.cancelOnServer(pool) }
    }

    /// Waits until every cancel has been sent, or `seconds` have passed.
    public static func settle(within seconds: Double = 3) {
        let tasks = pending.withLockedValue { Array($0.values) }
        guard !tasks.isEmpty else { return }
        let done = NIOLockedValueBox(false)
        let condition = ConditionLock(value: 0)
        Task {
            for task in tasks { await task.value }
            done.withLockedValue { $0 = true }
            condition.lock()
            condition.unlock(withValue: 1)
        }
        if condition.lock(whenValue: 1, timeoutSeconds: seconds) { condition.unlock() }
    }
}

/// What a failure of the database means for a script: one line, in the
/// user's terms, never postgres-nio's internal description.
enum DatabaseFailure {
    static func describe(_ error: Error, address: DatabaseAddress, sql: String? = nil) -> String {
        if let failure = error as? FlowError { return failure.message }
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError {
                return describe(inner, address: address, sql: sql)
            }
        }
        if let connecting = error as? ConnectFailure {
            if let psql = connecting.underlying as? PSQLError, psql.code == .server {
                return describe(psql, address: address, sql: sql)
            }
            return "cannot connect to \(address.shown): \(lossReason(connecting.underlying, address: address) ?? "the server closed the connection")"
        }
        switch error as? ConnectionLost {
        case .closed: return "the server closed the connection to \(address.shown)"
        case .noAnswer(let wait): return "\(address.shown) sent no answer within \(wait); the connection was closed"
        case nil: break
        }
        if error is CancellationError { return "cancelled" }
        if let decoding = error as? PostgresDecodingError {
            return "the column \(decoding.columnName) (type \(decoding.postgresType)) does not convert; cast it in the SQL, as in \(decoding.columnName)::text"
        }
        guard let psql = error as? PSQLError else { return "\(error)" }
        switch psql.code {
        case .server:
            let info = psql.serverInfo
            let state = info?[.sqlState] ?? ""
            var message = info?[.message] ?? "the server refused the request"
            if state == "28P01" || state == "28000" {
                return "cannot connect to \(address.shown): \(message)"
            }
            if state == "3D000" { return "cannot connect to \(address.shown): \(message)" }
            if state == "57014" { return "the query was cancelled on the server" }
            if let position = info?[.position].flatMap(Int.init), let sql {
                message += " (at character \(position) of the SQL: \(excerpt(of: sql, at: position)))"
            }
            if let detail = info?[.detail] { message += "; \(detail)" }
            if let hint = info?[.hint] { message += "; hint: \(hint)" }
            return message
        case .connectionError, .serverClosedConnection, .uncleanShutdown:
            if let refusal = psql.underlying as? FlowError { return refusal.message }
            return "the connection to \(address.shown) was lost: \(lossReason(psql, address: address) ?? "the server closed it")"
        case .sslUnsupported:
            return "cannot connect to \(address.shown): the server does not offer TLS, which sslmode requires"
        case .authMechanismRequiresPassword:
            return "cannot connect to \(address.shown): the server asks for a password; put it in the URL or PGPASSWORD"
        case .queryCancelled:
            return "the query was cancelled"
        case .tooManyParameters:
            return "too many parameters for one statement (at most 65535)"
        default:
            return "\(psql.code)" + (psql.underlying.map { ": \($0)" } ?? "")
        }
    }

    /// Why a connection failed or was lost, in a few words; nil when the
    /// library does not say.
    static func lossReason(_ error: Error, address: DatabaseAddress) -> String? {
        var underlying = error
        if let psql = error as? PSQLError {
            guard let inner = psql.underlying else {
                return psql.code == .connectionError ? nil : "the server closed the connection"
            }
            underlying = inner
        }
        if let refusal = underlying as? FlowError { return refusal.message }
        let text = "\(underlying)"
        if text.contains("refused") || text.contains("ECONNREFUSED") {
            return "connection refused (is the server running, on that port?)"
        }
        if text.lowercased().contains("timed out") || text.contains("connectTimeout") {
            return "no answer within \(address.connectTimeout)"
        }
        if text.contains("reset by peer") { return "the server reset the connection" }
        if let io = underlying as? IOError { return io.description }
        return text
    }

    /// Whether a connection can take the next query after this error: a
    /// server's refusal of one statement leaves it usable.
    static func leavesConnectionUsable(_ error: Error) -> Bool {
        if let psql = error as? PSQLError { return psql.code == .server }
        return false
    }

    /// The SQL around a server's error position (1-based, in characters).
    static func excerpt(of sql: String, at position: Int) -> String {
        let characters = Array(sql)
        let index = min(max(position - 1, 0), characters.count)
        let end = min(characters.count, index + 20)
        let text = String(characters[index..<end]).split(separator: "\n").first.map(String.init) ?? ""
        return "\"\(text)\(end < characters.count ? "…" : "")\""
    }
}

extension PostgresConnection {
    /// Closes without waiting (the future's own form, not the async one).
    /// The connection is kept until it has closed (postgres-nio checks,
    /// in debug builds, that none is dropped open).
    func closeSoon() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}
