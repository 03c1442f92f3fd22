import FlowLanguage
import FlowLive
import FlowRuntime

extension IOModules {
    /// `pg`: PostgreSQL as sources and sinks, and a work queue shared by
    /// processes. Every function takes `url:` (`postgres://user:pass@host/db`);
    /// without it, `DATABASE_URL` or libpq's `PG*` variables say where.
    public static func postgres(_ access: Access) -> BuiltinModule {
        let database = DatabaseRun(access: access)
        let url = labelled("url", .string, optional: true)
        let timeout = labelled("timeout", .duration, optional: true).positive()
        let onCommit = labelled("onCommit", .function, optional: true)
        return BuiltinModule(name: "pg", summary: "PostgreSQL: queries and notifications as streams, tables as sinks, a queue shared by processes", functions: [
            function("query", .creation,
                     "each row of the result as a record (row.name), then completion; params bind $1, $2, …; read as fast as the script consumes",
                     [arg("sql", .string), optionalArg("params", .value), url, timeout]) { args in
                let sql = try args.string(0, default: "")
                let parameters = try args.value(1).map { try DatabaseValues.positionalFields($0).map { try DatabaseValues.parameter($0) } } ?? []
                let statement: QueryNode.Statement
                do {
                    statement = try QueryNode.Statement(sql: sql, parameters: parameters, timeout: try args.optionalDuration(3))
                } catch { throw FlowError.wrap(error).located(at: args.context.location) }
                return .stream(QueryNode(name: "pg.query", database: database, address: try database.address(args.optionalString(2)),
                                         statement: statement, location: args.context.location))
            },
            function("listen", .creation,
                     "each notification on the channel as (channel:, payload:), while subscribed; reconnects when the connection drops",
                     [arg("channel", .string), url]) { args in
                let channel = try args.string(0, default: "")
                // LISTEN names its channel as an identifier, in double quotes:
                // one the name holds would end it (postgres-nio's listenFailed).
                if channel.isEmpty || channel.contains("\"") || channel.contains("\0") {
                    throw FlowError("pg.listen(\(channel.debugDescription)): a channel is named without double quotes or NUL "
                                    + "(\(channel.isEmpty ? "this one is empty" : "PostgreSQL's LISTEN could not name this one")); "
                                    + "use letters, digits and _, as in pg.listen(\"orders\")", at: args.context.location)
                }
                return .stream(ListenNode(database: database, address: try database.address(args.optionalString(1)),
                                          channel: channel, location: args.context.location))
            },
            function("notify", .creation, "sends a notification on the channel, then completion",
                     [arg("channel", .string), optionalArg("payload", .string), url]) { args in
                let parameters: [String?] = [try args.string(0, default: ""), try args.string(1, default: "")]
                let statement: QueryNode.Statement
                do {
                    statement = try QueryNode.Statement(sql: "SELECT pg_notify($1, $2)", parameters: parameters, timeout: nil, emitsRows: false)
                } catch { throw FlowError.wrap(error).located(at: args.context.location) }
                return .stream(QueryNode(name: "pg.notify", database: database, address: try database.address(args.optionalString(2)),
                                         statement: statement, location: args.context.location))
            },
            function("insert", .utility,
                     "for sink: writes each value (a record or dictionary) as a row of the table, in batches of up to 500, one transaction each (sent with COPY when 64 or more rows have the same fields); if the stream fails, the batch not yet committed is rolled back; onCommit: { rows in } is told the rows committed so far after each batch",
                     [arg("table", .string), url, onCommit]) { args in
                .function(try RowWriter(target: .insert(table: try args.string(0, default: "")), database: database,
                                        address: try database.address(args.optionalString(1)), context: args.context,
                                        onCommit: try args.optionalFunction(2)))
            },
            function("copy", .utility,
                     "for sink: writes each value as a row with PostgreSQL's COPY FROM STDIN, in transactions of up to batch: rows (10000), each committed before the next; a record or dictionary by column name, or with columns: an array of fields in that order; onCommit: { rows in } is told the rows committed so far after each batch",
                     [labelled("into", .string), labelled("columns", .value, optional: true), labelled("batch", .int, optional: true).positive(), url,
                      onCommit]) { args in
                let columns = try args.value(1).map { try $0.asArray().map { try $0.asString() } }
                if let columns, columns.isEmpty { throw FlowError("pg.copy's columns: names at least one column") }
                return .function(try RowWriter(target: .copy(table: try args.string(0, default: ""), columns: columns), database: database,
                                               address: try database.address(args.optionalString(3)), context: args.context,
                                               batch: try args.optionalInt(2), onCommit: try args.optionalFunction(4)))
            },
            function("execute", .utility,
                     "for sink: runs the statement for each value, whose fields (or the value itself) bind $1, $2, …; batched in transactions as insert; onCommit: { rows in } is told the values committed so far after each batch",
                     [arg("sql", .string), url, onCommit]) { args in
                .function(try RowWriter(target: .execute(sql: try args.string(0, default: "")), database: database,
                                        address: try database.address(args.optionalString(1)), context: args.context,
                                        onCommit: try args.optionalFunction(2)))
            },
            function("queue", .creation,
                     "claims up to batch rows at a time (FOR UPDATE SKIP LOCKED), emits each (or the stream the closure makes of it), and deletes them, or sets the done: column, once handled and the run's sinks committed; waits for NOTIFY on the table's name, or every: (5s); drain: true completes when no row is left",
                     [arg("table", .string), labelled("batch", .int, optional: true).positive(), labelled("done", .string, optional: true),
                      labelled("every", .duration, optional: true).positive(), labelled("drain", .bool, optional: true), url,
                      optionalArg("work", .function)]) { args in
                let options = QueueNode.Options(table: try args.string(0, default: ""), batch: try args.optionalInt(1) ?? 10,
                                                doneColumn: try args.optionalString(2), every: try args.optionalDuration(3) ?? .seconds(5),
                                                drain: try args.bool(4, default: false))
                return .stream(QueueNode(database: database, address: try database.address(args.optionalString(5)), options: options,
                                         handler: args.value(6) == nil ? nil : try args.function(6), location: args.context.location))
            },
        ], examples: [
            "query": #"pg.query("SELECT id, total FROM orders WHERE total > $1", [100])"#,
            "listen": #"pg.listen("orders").map { $0.payload }"#,
            "notify": #"pg.notify("orders", "42")"#,
            "insert": #"orders.map { (id: $0.id, total: $0.total) }.sink(pg.insert("summaries"))"#,
            "copy": #"csv.read("orders.csv", header: true).sink(pg.copy(into: "orders"))"#,
            "execute": #"ids.sink(pg.execute("UPDATE orders SET seen = true WHERE id = $1"))"#,
            "queue": #"pg.queue("jobs", batch: 20) { job in http.post(job.url) }"#,
        ])
    }
}

extension Arguments {
    func optionalString(_ i: Int) throws -> String? {
        value(i) == nil ? nil : try string(i, default: "")
    }
}
