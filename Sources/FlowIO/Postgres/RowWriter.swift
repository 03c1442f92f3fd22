import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
import PostgresNIO

/// One value ready to be written, in a form that can leave the loop: its
/// fields as text (nil is NULL). A string or an array is also kept as JSON,
/// for a json column.
struct EncodedRow: Sendable {
    struct Field: Sendable {
        var name: String
        var text: String?
        /// An array's JSON, for a json column (its text is PostgreSQL's array syntax).
        var json: String?
        /// Whether the value was text, which a json column takes as a JSON
        /// string: encoded only for such a column, not for every field.
        var isText = false

        /// What the field sends to a column of `kind`.
        func text(for kind: ColumnKind?) throws -> String? {
            guard kind == .json else { return text }
            if let json { return json }
            if isText, let text { return try JSON.string(.string(text)) }
            return text
        }
    }

    var fields: [Field]
}

/// `stream.sink(pg.insert(table))` and `stream.sink(pg.execute(sql))`: each
/// value written as a row, in batches (up to 500 rows, or what arrived in
/// 100 ms), one transaction each, one batch at a time and in order.
///
/// If the stream fails or is stopped, the batch not yet committed is rolled
/// back and the note says how many rows were committed before it; if the
/// server refuses a batch, the stream ends with that error.
///
/// `onCommit:` is called on the loop after each batch's COMMIT is answered,
/// with the rows committed so far: a script follows a load as it is made
/// durable (what a stop or the end of the run prints, as it grows).
///
/// Demand: once two batches' rows wait, the writer tells its stream it has
/// enough, and that it wants more once fewer than a batch wait; a source
/// that honours demand (a file, a query) then reads at the pace of the
/// commits. A source that cannot stop makes it a holder `--max-memory` names.
final class RowWriter: Function, StreamConsumer, ValueHolder {
    enum Target: Sendable {
        case insert(table: String)
        case execute(sql: String)
        /// `pg.copy(into:columns:)`: COPY FROM STDIN, `columns` naming the
        /// table's columns in the order of a positional value's fields.
        case copy(table: String, columns: [String]?)
    }

    override var streamConsumer: StreamConsumer? { self }

    static let batchSize = 500
    /// The rows of one COPY transaction unless `batch:` says otherwise.
    static let copyBatchSize = 10_000
    /// A batch of `pg.insert` at least this large, whose rows all have the
    /// same fields, is sent with COPY instead of INSERT.
    static let copyThreshold = 64
    static let batchDelay = TimeSpan.milliseconds(Int64(100))

    private let target: Target
    private let shown: String
    private let database: DatabaseRun
    private let pool: DatabasePool
    private let context: OperatorContext
    private var live: (any LiveLoop)?
    private var pending: [EncodedRow] = []
    private var inFlight: (rows: Int, control: BatchControl)?
    private var committed = 0
    private var timer: Disposable?
    private var hold: Disposable?
    /// The ledger told the writer has writes under way, for as long as it holds the loop.
    private var writingIn: CommitLedger.Account?
    private var subscription: Disposable?
    /// The table's columns, once read from the catalog.
    private let columns = TableColumns()
    private var ending: StreamEnding?
    private var failure: FlowError?
    private var whenSettled: [(Bool) -> Void] = []
    /// Its line in the report a stop prints.
    private var ledgerPlace: CommitLedger.Place
    /// The most rows in one transaction.
    private let batchLimit: Int
    /// Whether the stream was told the writer has enough.
    private var demandOff = false
    private var isRegisteredHolder = false
    /// The script's `onCommit:` closure, told the running count.
    private let onCommit: Function?

    init(target: Target, database: DatabaseRun, address: DatabaseAddress, context: OperatorContext, batch: Int? = nil,
         onCommit: Function? = nil) throws {
        self.target = target
        self.onCommit = onCommit
        let name: String
        switch target {
        case .insert(let table): name = "pg.insert"; shown = "pg.insert(\(table.debugDescription))"
        case .execute: name = "pg.execute"; shown = "pg.execute"
        case .copy(let table, _): name = "pg.copy"; shown = "pg.copy(into: \(table.debugDescription))"
        }
        if case .copy = target { batchLimit = batch ?? Self.copyBatchSize } else { batchLimit = batch ?? Self.batchSize }
        self.database = database
        self.context = context
        // Two pg.execute sinks of a run are told apart by their statements.
        var named = shown
        if case .execute(let sql) = target {
            let line = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
            named = "pg.execute(\((line.count > 60 ? line.prefix(59) + "…" : line).debugDescription))"
        }
        ledgerPlace = CommitLedger.Place(named, "row", "committed")
        pool = try database.pool(for: address, by: name)
        super.init(name: name, parameterCount: 1, location: context.location)
    }

    func attach(to subscription: Disposable) { self.subscription = subscription }
    func count(in ledger: CommitLedger) { ledgerPlace.subscribed(in: ledger) }

    override func call(_ args: [Value]) throws -> Value { try call(args.count == 1 ? args[0] : .tuple(Tuple(args))) }

    override func call(_ value: Value) throws -> Value {
        if let failure { throw failure }
        if live == nil {
            guard let scheduler = context.scheduler else { throw FlowError("\(shown) has no run to write in", at: location) }
            live = try DatabaseRun.liveLoop(scheduler, for: shown)
            if let live { live.runState(for: database) { WriterRegistry() }.add(self) }
        }
        pending.append(try encode(value))
        database.pressure.add(1)
        if pending.count >= batchLimit {
            if pending.count >= 2 * batchLimit { haveEnough() }
            flush()
        } else if inFlight == nil {
            flushLater()
        }
        return .null
    }

    private func haveEnough() {
        if !demandOff {
            demandOff = true
            subscription?.passDemand(false)
        }
        if !isRegisteredHolder, pending.count >= HeldValues.registrationThreshold, let live {
            isRegisteredHolder = true
            HeldValues.of(live).register(self)
        }
    }

    var heldValueCount: Int { pending.count }
    var heldValueDescription: (stage: String, what: String) { (shown, "rows not yet written") }
    var heldValueLocation: SourceLocation? { location }

    /// What arrived is sent within `batchDelay`, however few rows it is.
    private func flushLater() {
        guard timer == nil, let live else { return }
        timer = live.schedule(after: Self.batchDelay) { [weak self] in
            self?.timer = nil
            self?.flush()
        }
    }

    private func encode(_ value: Value) throws -> EncodedRow {
        func field(_ name: String, _ value: Value) throws -> EncodedRow.Field {
            let text = try DatabaseValues.parameter(value)
            var json: String?
            if case .array = value { json = try DatabaseValues.parameter(value, for: .json) }
            return EncodedRow.Field(name: name, text: text, json: json, isText: { if case .string = value { true } else { false } }())
        }
        do {
            switch target {
            case .insert:
                guard let named = DatabaseValues.namedFields(value) else {
                    throw FlowError("\(shown) writes records or dictionaries, as (id: 1, name: \"Ada\"); got \(value.typeName) \(value.literal)")
                }
                return EncodedRow(fields: try named.map { try field($0.0, $0.1) })
            case .execute:
                return EncodedRow(fields: try DatabaseValues.positionalFields(value).map { try field("", $0) })
            case .copy(_, let columns):
                if let named = DatabaseValues.namedFields(value) { return EncodedRow(fields: try named.map { try field($0.0, $0.1) }) }
                guard let columns else {
                    throw FlowError("\(shown) writes records or dictionaries, or with columns: [...] arrays of fields in that order; got \(value.typeName) \(value.literal)")
                }
                let fields = try DatabaseValues.positionalFields(value)
                guard fields.count == columns.count else {
                    throw FlowError("\(shown): a value of \(fields.count) fields for \(columns.count) columns: \(value.literal)")
                }
                return EncodedRow(fields: try zip(columns, fields).map { try field($0, $1) })
            }
        } catch {
            throw FlowError.wrap(error).located(at: location)
        }
    }

    /// Sends the next batch, unless one is being written.
    private func flush() {
        guard inFlight == nil, !pending.isEmpty, failure == nil, let live else { return settleIfIdle() }
        timer?.dispose()
        timer = nil
        let rows = Array(pending.prefix(batchLimit))
        pending.removeFirst(rows.count)
        if demandOff && pending.count < batchLimit && ending == nil && failure == nil {
            demandOff = false
            subscription?.passDemand(true)
        }
        let control = BatchControl()
        inFlight = (rows.count, control)
        if hold == nil {
            hold = live.hold()
            writingIn = ledgerPlace.used(in: context.commitLedger)
            writingIn?.beginWriting()
        }
        let answer = live.makeCallback { [self] (outcome: BatchOutcome) in finished(outcome, rows: rows.count) }
        Self.spawn(rows, target: target, pool: pool, columns: columns, control: control,
                   ledgerEntry: ledgerPlace.used(in: context.commitLedger), then: answer)
    }

    private static func spawn(_ rows: [EncodedRow], target: Target, pool: DatabasePool, columns: TableColumns,
                              control: BatchControl, ledgerEntry: CommitLedger.Account, then answer: @escaping @Sendable (BatchOutcome) -> Void) {
        let key = DatabaseCancels.writing(control, on: pool)
        Task {
            let outcome = await write(rows, target: target, pool: pool, columns: columns, control: control, ledgerEntry: ledgerEntry)
            DatabaseCancels.written(key)
            answer(outcome)
        }
    }

    private func finished(_ outcome: BatchOutcome, rows: Int) {
        inFlight = nil
        database.pressure.remove(rows)
        switch outcome {
        case .committed:
            committed += rows
            if let onCommit {
                do { _ = try onCommit.call(.int(committed)) } catch {
                    return fail(FlowError.wrap(error).located(at: onCommit.location ?? location))
                }
            }
            let mustSend = pending.count >= batchLimit || ending == .completed || !whenSettled.isEmpty
            if mustSend { flush() } else if !pending.isEmpty { flushLater() }
        case .rolledBack:
            break
        case .failed(let reason), .unknown(let reason):
            let batch = "the batch of \(rows) \(rows == 1 ? "row" : "rows")"
            let fate: String
            if case .unknown = outcome {
                fate = "whether \(batch) was committed is not known (the server took its COMMIT and gave no answer)"
            } else {
                fate = "\(batch) was rolled back"
            }
            return fail(FlowError("\(shown): \(reason); \(fate), \(committedText) before it", at: location))
        }
        settleIfIdle()
    }

    /// Ends the writer with `error`: nothing more is written.
    private func fail(_ error: FlowError) {
        database.pressure.remove(pending.count)
        pending = []
        failure = error
        if ending == nil {
            // The stream still runs: end it, then say why.
            subscription?.dispose()
        }
        context.reportLate(error)
        settleIfIdle()
    }

    private var committedText: String { "\(committed) \(committed == 1 ? "row was" : "rows were") committed" }

    private func settleIfIdle() {
        guard inFlight == nil, pending.isEmpty || failure != nil else { return }
        timer?.dispose()
        timer = nil
        let waiting = whenSettled
        whenSettled = []
        for action in waiting { action(failure == nil) }
        if ending != nil || failure != nil {
            hold.release()
            writingIn?.endWriting()
            writingIn = nil
        }
    }

    /// Writes everything received so far now, then calls `action` with
    /// whether all of it was committed (a queue deletes its batch only
    /// after the results are).
    func settle(_ action: @escaping (Bool) -> Void) {
        whenSettled.append(action)
        if inFlight == nil { flush() }
    }

    func finish(_ ending: StreamEnding) -> String? {
        guard self.ending == nil else { return nil }
        self.ending = ending
        if ending == .completed {
            flush()
            return nil
        }
        // Failed or stopped: nothing more is written.
        let dropped = pending.count
        database.pressure.remove(dropped)
        pending = []
        timer?.dispose()
        timer = nil
        var lost = dropped
        var stillCommitting = false
        if let (rows, control) = inFlight {
            if control.abandon() {
                lost += rows
                // A statement waiting on the server (for a lock, say) is
                // stopped there too, as a query's is.
                control.cancelOnServer(pool)
            } else {
                stillCommitting = true
            }
        }
        settleIfIdle()
        guard failure == nil, lost > 0 || stillCommitting else { return nil }
        let why = ending == .failed ? "its stream failed" : "its stream was stopped"
        let last = lost > 0 ? "the last \(lost) \(lost == 1 ? "row was" : "rows were") not written" : "nothing was lost"
        return "\(shown): \(why): \(last); \(committedText)" + (stillCommitting ? ", and a batch was being committed" : "")
    }

    /// How long the server may spend on one statement of a batch
    /// (PostgreSQL's `statement_timeout`, set for the batch's transaction).
    static let statementTimeout = TimeSpan.seconds(60)
    /// How much longer the client waits for any answer before it gives the
    /// connection up: a server that stopped answering at all.
    static let answerGrace = TimeSpan.seconds(10)
    /// After the connection is lost (a restart, a crash), how long a batch
    /// keeps trying to reach the server again before the stream fails.
    static let reconnectWindow = TimeSpan.seconds(30)

    /// One batch in one transaction, committed unless abandoned meanwhile.
    /// A connection lost before the COMMIT was sent rolled the transaction
    /// back on the server: the batch is written again on a new connection.
    /// One lost after it, before its answer, is asked about on the new
    /// connection (`txid_status`, PostgreSQL's way of learning whether a
    /// transaction committed when the connection was lost during COMMIT).
    private static func write(_ rows: [EncodedRow], target: Target, pool: DatabasePool, columns: TableColumns,
                              control: BatchControl, ledgerEntry: CommitLedger.Account) async -> BatchOutcome {
        let sql: String?
        if case .execute(let text) = target { sql = text } else { sql = nil }
        let unanswered = NIOLockedValueBox<Int64?>(nil)
        var lostAt: ContinuousClock.Instant?
        var delay = 0.1
        while true {
            if control.isAbandoned { return .rolledBack }
            do {
                if let transaction = unanswered.withLockedValue({ $0 }) {
                    switch try await status(of: transaction, pool: pool) {
                    case "committed":
                        ledgerEntry.add(rows.count)
                        return .committed
                    case "in progress":
                        throw ConnectionLost.closed
                    default:
                        // Not kept: the batch is written again.
                        unanswered.withLockedValue { $0 = nil }
                    }
                }
                return try await attempt(rows, target: target, pool: pool, columns: columns, control: control,
                                         ledgerEntry: ledgerEntry, unanswered: unanswered)
            } catch where DatabaseFailure.isConnectionLoss(error) && (pool.wasReached || !(error is ConnectFailure)) {
                let now = ContinuousClock.now
                let since = lostAt ?? now
                lostAt = since
                if now - since > .nanoseconds(reconnectWindow.nanoseconds) {
                    let reason = DatabaseFailure.describe(error, address: pool.address, sql: sql)
                        + ", and the server could not be reached again within \(reconnectWindow)"
                    return unanswered.withLockedValue({ $0 }) == nil ? .failed(reason) : .unknown(reason)
                }
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay = min(delay * 2, 2)
            } catch let deadlock as DeadlockFound {
                let statement = sql.map { "the statement \($0.debugDescription)" } ?? "its statement"
                return .failed("deadlock: \(statement) waits for rows that \(deadlock.holder) has claimed, and the queue keeps its claim "
                               + "until this sink has committed, so neither could go on; the statement was cancelled. Mark a handled job "
                               + "with the queue's done: column, or write to another table")
            } catch {
                if control.isAbandoned { return .rolledBack }
                return .failed(DatabaseFailure.describe(error, address: pool.address, sql: sql))
            }
        }
    }

    /// One try at writing the batch.
    private static func attempt(_ rows: [EncodedRow], target: Target, pool: DatabasePool, columns: TableColumns,
                                control: BatchControl, ledgerEntry: CommitLedger.Account, unanswered: NIOLockedValueBox<Int64?>) async throws -> BatchOutcome {
        try await pool.withConnection { lease in
            try await lease.answering(stepsWithin: statementTimeout + answerGrace) { connection, deadline in
                try await attempt(rows, target: target, on: lease, connection: connection, deadline: deadline, pool: pool,
                                  columns: columns, control: control, ledgerEntry: ledgerEntry, unanswered: unanswered)
            }
        }
    }

    private static func attempt(_ rows: [EncodedRow], target: Target, on lease: Lease, connection: PostgresConnection,
                                deadline: StepDeadline, pool: DatabasePool, columns: TableColumns, control: BatchControl,
                                ledgerEntry: CommitLedger.Account, unanswered: NIOLockedValueBox<Int64?>) async throws -> BatchOutcome {
        let logger = DatabasePool.logger
        func step(_ query: PostgresQuery) async throws -> [PostgresRow] {
            deadline.arm()
            return try await connection.query(query, logger: logger).collect()
        }
        var statements: [PostgresQuery] = []
        var copy: (table: String, columns: [String], data: [ByteBuffer])?
        switch target {
        case .insert(let table):
            deadline.arm()
            let known = try await columns.read(table, on: connection)
            if rows.count >= copyThreshold, let data = try copyData(rows, into: known, columns: nil) {
                copy = (known.name, data.columns, data.chunks)
            } else {
                statements = try insertStatements(rows, into: known)
            }
        case .copy(let table, let names):
            deadline.arm()
            let known = try await columns.read(table, on: connection)
            guard let data = try copyData(rows, into: known, columns: names) else {
                throw FlowError("COPY needs a table named by a plain identifier (lower-case letters, digits, _) on the search path, not \(known.name)")
            }
            copy = (known.name, data.columns, data.chunks)
        case .execute(let sql):
            statements = rows.map { row in
                PostgresQuery(unsafeSQL: sql, binds: DatabaseValues.bindings(row.fields.map(\.text)))
            }
        }
        _ = try await step("BEGIN")
        let opened = try await step(PostgresQuery(unsafeSQL:
            "SELECT txid_current(), set_config('statement_timeout', '\(statementTimeout.nanoseconds / 1_000_000)ms', true)"))
        let transaction = try opened.first?.makeRandomAccess()[0].decode(Int64.self)
        control.running(on: lease.pid)
        let watch = BlockingWatch.start(lease: lease, pool: pool)
        do {
            for statement in statements { _ = try await step(statement) }
            if let copy {
                deadline.arm()
                try await connection.copyFrom(table: copy.table, columns: copy.columns, logger: logger) { writer in
                    for chunk in copy.data {
                        deadline.arm()
                        try await writer.write(chunk)
                    }
                }
            }
            watch?.cancel()
        } catch {
            watch?.cancel()
            if !DatabaseFailure.isConnectionLoss(error) && !deadline.passed {
                _ = try? await step("ROLLBACK")
            }
            if let holder = await watch?.value {
                throw DeadlockFound(holder: holder)
            }
            throw error
        }
        guard control.commit() else {
            _ = try await step("ROLLBACK")
            return .rolledBack
        }
        unanswered.withLockedValue { $0 = transaction }
        // Counted where the server's answer arrives, not on the loop: a
        // stop reports what was committed even while the loop is stopping.
        ledgerEntry.beginCommit()
        defer { ledgerEntry.endCommit() }
        _ = try await step("COMMIT")
        unanswered.withLockedValue { $0 = nil }
        ledgerEntry.add(rows.count)
        return .committed
    }

    /// What the server says of a transaction whose COMMIT went unanswered:
    /// `committed`, `aborted`, `in progress`, or nothing (too old to know).
    /// A server that crashed before it made the transaction's id durable
    /// has handed out fewer ids since it came back, and calls this one "in
    /// the future": it never committed.
    static func status(of transaction: Int64, pool: DatabasePool) async throws -> String {
        try await pool.withConnection { lease in
            var bindings = PostgresBindings()
            bindings.append(transaction)
            let query = PostgresQuery(unsafeSQL: "SELECT coalesce(txid_status($1), 'unknown')", binds: bindings)
            do {
                let rows = try await lease.rows(of: query, within: answerGrace)
                return try rows.first?.decode(String.self) ?? "unknown"
            } catch {
                if let status = status(whenRefused: error) { return status }
                throw error
            }
        }
    }

    /// What a refusal of `txid_status` says of the transaction: invalid_parameter_value
    /// (22023) is its one error, "transaction ID ... is in the future" (in
    /// the server's language): an id the server never made durable, so the
    /// transaction never committed. nil for any other error.
    static func status(whenRefused error: Error) -> String? {
        guard let refusal = error as? PSQLError, refusal.serverInfo?[.sqlState] == "22023" else { return nil }
        return "aborted"
    }

    /// Multi-row inserts: the batch's columns are every field any of its
    /// values has, in order of appearance; a value without one gets the
    /// column's default. Split so no statement binds more than 65535 parameters.
    private static func insertStatements(_ rows: [EncodedRow], into table: TableColumns.Known) throws -> [PostgresQuery] {
        var names: [String] = []
        var seen: Set<String> = []
        for row in rows {
            for field in row.fields where seen.insert(field.name).inserted {
                guard table.kinds[field.name] != nil else {
                    throw FlowError("the table \(table.name) has no column \(field.name.debugDescription) (its columns: \(table.order.joined(separator: ", ")))")
                }
                names.append(field.name)
            }
        }
        let perStatement = max(1, min(rows.count, 65535 / max(1, names.count)))
        let columnList = names.map(quoted).joined(separator: ", ")
        var statements: [PostgresQuery] = []
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + perStatement)]
            start += chunk.count
            var texts: [String?] = []
            var tuples: [String] = []
            for row in chunk {
                let byName = Dictionary(row.fields.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
                let slots = try names.map { name -> String in
                    guard let field = byName[name] else { return "DEFAULT" }
                    texts.append(try field.text(for: table.kinds[name]))
                    return "$\(texts.count)"
                }
                tuples.append("(" + slots.joined(separator: ", ") + ")")
            }
            let sql = "INSERT INTO \(table.name) (\(columnList)) VALUES " + tuples.joined(separator: ", ")
            statements.append(PostgresQuery(unsafeSQL: sql, binds: DatabaseValues.bindings(texts)))
        }
        return statements
    }

    /// A batch as COPY's text format (a line per row, fields between tabs,
    /// `\\N` for NULL, backslash escapes), in chunks of about 1 MiB; nil
    /// where COPY cannot take it: a table not named by a plain identifier
    /// (postgres-nio quotes the name whole), or, without `columns`, rows
    /// whose fields differ (COPY has no DEFAULT for one row).
    private static func copyData(_ rows: [EncodedRow], into table: TableColumns.Known, columns: [String]?) throws -> (columns: [String], chunks: [ByteBuffer])? {
        guard table.name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (97...122).contains($0) || (48...57).contains($0) }),
              let first = rows.first else { return nil }
        let names = columns ?? first.fields.map(\.name)
        if columns == nil {
            guard rows.allSatisfy({ $0.fields.count == names.count && zip($0.fields, names).allSatisfy { $0.name == $1 } }) else { return nil }
        }
        for name in names where table.kinds[name] == nil || name.contains("\"") {
            throw FlowError("the table \(table.name) has no column \(name.debugDescription) (its columns: \(table.order.joined(separator: ", ")))")
        }
        var chunks: [ByteBuffer] = []
        var buffer = ByteBuffer()
        buffer.reserveCapacity(1 << 20)
        for row in rows {
            let byName = columns == nil ? nil : Dictionary(row.fields.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
            for (i, name) in names.enumerated() {
                if i > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                let field = byName.map { $0[name] } ?? row.fields[i]
                guard let field, let text = try field.text(for: table.kinds[name]) else {
                    buffer.writeStaticString("\\N")
                    continue
                }
                // Most fields need no escape: written whole.
                guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
                    buffer.writeString(text)
                    continue
                }
                for byte in text.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                    case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                    case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                    case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                    default: buffer.writeInteger(byte)
                    }
                }
            }
            buffer.writeInteger(UInt8(ascii: "\n"))
            if buffer.readableBytes >= 1 << 20 {
                chunks.append(buffer)
                buffer = ByteBuffer()
                buffer.reserveCapacity(1 << 20)
            }
        }
        if buffer.readableBytes > 0 { chunks.append(buffer) }
        return (names, chunks)
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A sink's statement waited for a claim of the same run.
struct DeadlockFound: Error {
    let holder: String
}

enum BatchOutcome: Sendable {
    case committed
    case rolledBack
    case failed(String)
    /// The COMMIT was sent and never answered, and the server could not be
    /// asked afterwards.
    case unknown(String)
}

/// Decides, once, between the writer's commit and the stream's end: a
/// batch abandoned before its COMMIT was sent is rolled back.
final class BatchControl: Sendable {
    private enum Phase { case writing, committing, abandoned }
    private let phase = NIOLockedValueBox(Phase.writing)
    /// The server process running the batch, which a stop asks to cancel.
    private let backend = NIOLockedValueBox<Int32?>(nil)

    var isAbandoned: Bool { phase.withLockedValue { $0 == .abandoned } }

    func running(on pid: Int32) { backend.withLockedValue { $0 = pid } }

    /// Once abandoned: asks the server to stop the statement the batch may
    /// be waiting for (a lock, say), as a stopped query's is.
    func cancelOnServer(_ pool: DatabasePool) {
        guard isAbandoned, let pid = backend.withLockedValue({ $0 }) else { return }
        _ = DatabaseCancels.track { await pool.cancel(pid: pid) }
    }

    func commit() -> Bool {
        phase.withLockedValue { phase in
            guard phase == .writing else { return false }
            phase = .committing
            return true
        }
    }

    func abandon() -> Bool {
        phase.withLockedValue { phase in
            guard phase == .writing else { return false }
            phase = .abandoned
            return true
        }
    }
}

/// A table's name as the server spells it and its columns' kinds, read from
/// the catalog once per writer.
final class TableColumns: Sendable {
    struct Known: Sendable {
        var name: String
        var order: [String]
        var kinds: [String: ColumnKind]
    }

    private let known = NIOLockedValueBox<Known?>(nil)

    func read(_ table: String, on connection: PostgresConnection) async throws -> Known {
        if let known = known.withLockedValue({ $0 }) { return known }
        var bindings = PostgresBindings()
        bindings.append(UntypedText(table))
        let sql = """
            SELECT $1::regclass::text, a.attname::text, t.typname::text, t.typcategory::text
            FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """
        var result = Known(name: table, order: [], kinds: [:])
        for try await (name, column, type, category) in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings),
                                                                                  logger: DatabasePool.logger)
            .decode((String, String, String, String).self) {
            result.name = name
            result.order.append(column)
            result.kinds[column] = type == "json" || type == "jsonb" ? .json : (category == "A" ? .array : .unknown)
        }
        let found = result
        known.withLockedValue { $0 = found }
        return found
    }
}

/// The database writers of one run, so that a queue can wait until what
/// its batch produced is committed.
final class WriterRegistry {
    private var writers: [WeakWriter] = []

    private struct WeakWriter { weak var writer: RowWriter? }

    func add(_ writer: RowWriter) {
        writers.removeAll { $0.writer == nil }
        writers.append(WeakWriter(writer: writer))
    }

    /// Calls `action` once every writer has written what it was given,
    /// with whether all of it was committed.
    func settle(_ action: @escaping (Bool) -> Void) {
        let live = writers.compactMap(\.writer)
        guard !live.isEmpty else { return action(true) }
        var remaining = live.count
        var allCommitted = true
        for writer in live {
            writer.settle { committed in
                remaining -= 1
                allCommitted = allCommitted && committed
                if remaining == 0 { action(allCommitted) }
            }
        }
    }
}
