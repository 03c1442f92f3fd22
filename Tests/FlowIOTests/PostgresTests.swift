import Foundation
import FlowTestSupport
import Testing

/// The `pg` module against a real PostgreSQL (see TestDatabase): scripts run
/// by the built `flow`, the database read and prepared with psql.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct PostgresTests {
    let url = TestDatabase.url ?? ""

    func flow(_ script: String, _ arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 120) throws -> FlowProcess.Result {
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var variables = ["DATABASE_URL": url]
        variables.merge(environment) { $1 }
        return try FlowProcess.run(["run", path] + arguments, timeout: timeout, environment: variables)
    }

    @Test func valuesRoundTripThroughATable() throws {
        let table = TestDatabase.uniqueName("kinds")
        try TestDatabase.sql("""
            CREATE TABLE \(table) (id int PRIMARY KEY, big bigint, ratio float8, price numeric(10,2), name text, ok bool,
              meta jsonb, tags text[], scores int[], at timestamptz, missing text)
            """)
        let written = try flow("""
            just((id: 1, big: 9000000000, ratio: 0.25, price: 12.5, name: "Ada \\"L\\"", ok: true,
                  meta: ["k": [1, 2], "s": "x"], tags: ["a b", "c"], scores: [3, 4], at: "2026-11-26T10:00:00Z", missing: nil))
              .sink(pg.insert("\(table)"))
            """)
        #expect(written.status == 0, "\(written.err)")
        let read = try flow(#"pg.query("SELECT * FROM \#(table)").sink { print($0) }"#)
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out == """
            (id: 1, big: 9000000000, ratio: 0.25, price: 12.5, name: "Ada \\"L\\"", ok: true, meta: ["k": [1, 2], "s": "x"], \
            tags: ["a b", "c"], scores: [3, 4], at: "2026-11-26T10:00:00.000Z", missing: nil)

            """)
        // Parameters are bound, never interpolated into the SQL.
        let bound = try flow(#"pg.query("SELECT name FROM \#(table) WHERE name = $1 OR id = ANY($2)", ["x' OR '1'='1", [1]]).sink { print($0.name) }"#)
        #expect(bound.out == "Ada \"L\"\n", "\(bound.err)")
    }

    @Test func aTableLargerThanMemoryStreamsInBoundedMemory() throws {
        // A set-returning function in the select list streams its rows.
        let script = { (rows: Int) in
            #"pg.query("SELECT generate_series(1, \#(rows)) AS n, repeat('x', 1000) AS pad").reduce(0) { total, row in total + 1 }"#
        }
        func peakKilobytes(_ rows: Int) throws -> (Int, String) {
            let path = temporaryPath("pg-\(UUID().uuidString).flow")
            try script(rows).write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try FlowProcess.run(["-f", "%M", FlowProcess.defaultBinary.path, "run", path],
                                             binary: URL(fileURLWithPath: "/usr/bin/time"), timeout: 600, environment: ["DATABASE_URL": url])
            let peak = result.err.split(separator: "\n").last.flatMap { Int($0) } ?? 0
            return (peak, result.out)
        }
        let (small, smallOut) = try peakKilobytes(1_000)
        let (large, largeOut) = try peakKilobytes(1_000_000)
        #expect(smallOut.contains("1000"))
        #expect(largeOut.contains("1000000"))
        // A gigabyte of rows held at once would be far above this.
        #expect(large - small < 100_000, "peak \(large) KB for 1M rows against \(small) KB for 1000")
    }

    @Test func disposingAQueryCancelsItOnTheServer() throws {
        let marker = TestDatabase.uniqueName("endless")
        let result = try flow(#"pg.query("SELECT generate_series(1, 1000000000000) AS n, '\#(marker)' AS m").map { $0.n }.take(3)"#)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("3"))
        let running = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND state = 'active' AND pid <> pg_backend_pid()"
        #expect(waitFor { (try? TestDatabase.sql(running)) == "0" })
    }

    @Test func aQueryTimeoutCancelsTheStatement() throws {
        let marker = TestDatabase.uniqueName("sleepy")
        let result = try flow(#"pg.query("SELECT pg_sleep(600), '\#(marker)'", timeout: 500ms)"#)
        #expect(result.status == 1)
        #expect(result.err.contains("ran longer than 500ms (its timeout:) and was cancelled on the server; give it longer with a larger timeout:"), "\(result.err)")
        let running = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND state = 'active' AND pid <> pg_backend_pid()"
        #expect(waitFor { (try? TestDatabase.sql(running)) == "0" })
    }

    /// Ctrl-C stops the run at once, and the statement it was waiting for
    /// is cancelled on the server before the process exits.
    @Test func ctrlCCancelsTheRunningStatementOnTheServer() throws {
        let marker = TestDatabase.uniqueName("interrupted")
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        try #"pg.query("SELECT pg_sleep(600), '\#(marker)'")"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, out, err) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": url])
        let running = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND state = 'active' AND pid <> pg_backend_pid()"
        #expect(waitFor { (try? TestDatabase.sql(running)) == "1" })
        kill(process.processIdentifier, SIGINT)
        _ = out.fileHandleForReading.readDataToEndOfFile()
        _ = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(waitFor { (try? TestDatabase.sql(running)) == "0" })
    }

    @Test func errorsAreLocatedAndSayWhatWentWrong() throws {
        let syntax = try flow(#"let rows = pg.query("SELECT 1 FORM nowhere")"# + "\nrows")
        #expect(syntax.status == 1)
        #expect(syntax.err.contains(":1:15: error: pg.query: syntax error at or near \"nowhere\" (at character 15 of the SQL"), "\(syntax.err)")
        let refused = try flow(#"pg.query("SELECT 1", url: "postgres://flow@127.0.0.1:1/x")"#)
        #expect(refused.err.contains("cannot connect to postgres://flow@127.0.0.1:1/x: connection refused"), "\(refused.err)")
        let wrongPassword = url.replacingOccurrences(of: "flow:flow@", with: "flow:wrong@")
        let denied = try flow(#"pg.query("SELECT 1", url: "\#(wrongPassword)")"#)
        #expect(denied.err.contains("password authentication failed"), "\(denied.err)")
        let notARow = try flow(#"just(5).sink(pg.insert("anything"))"#)
        #expect(notARow.err.contains("pg.insert(\"anything\") writes records or dictionaries"), "\(notARow.err)")
        let conversion = try flow(#"pg.query("SELECT interval '1 day' AS span")"#)
        #expect(conversion.err.contains("cast it in the SQL, as in span::text"), "\(conversion.err)")
    }

    /// The test server offers TLS (a self-signed certificate): sslmode=require
    /// encrypts without checking it.
    @Test func aURLThatAsksForTLSGetsIt() throws {
        let tls = url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let result = try flow(#"pg.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", url: "\#(tls)")"#)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "(ssl: true)\n")
        let plain = try flow(#"pg.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")"#)
        #expect(plain.out == "(ssl: false)\n", "\(plain.err)")
    }

    @Test func theDatabaseHostIsNetworkAccessUnderPermissions() throws {
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        try #"pg.query("SELECT 1 AS one")"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let denied = try FlowProcess.run(["run", "--deny-net=127.0.0.1", path], timeout: 120, environment: ["DATABASE_URL": url])
        #expect(denied.status == 1)
        #expect(denied.err.contains("the network access to 127.0.0.1 is denied by flow run --deny-net"), "\(denied.err)")
    }

    @Test func notificationsArriveAndTheListenerReconnects() throws {
        let channel = TestDatabase.uniqueName("news")
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        try #"pg.listen("\#(channel)").map { $0.payload }.filter { $0 != "before" }.take(2)"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, out, err) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": url])
        let listening = "SELECT pid FROM pg_stat_activity WHERE query ILIKE 'LISTEN%\(channel)%'"
        #expect(waitFor { !((try? TestDatabase.sql(listening)) ?? "").isEmpty })
        // The connection drops: the listener says so and listens again.
        try TestDatabase.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%\(channel)%'")
        #expect(waitFor {
            if process.isRunning { _ = try? TestDatabase.sql("NOTIFY \(channel), 'after'") }
            return !process.isRunning
        })
        process.waitUntilExit()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(printed == "after\nafter\n")
        #expect(said.contains("pg.listen(\"\(channel)\"):"), "\(said)")
        #expect(said.contains("listening again"), "\(said)")
    }

    @Test func aFailedStreamRollsItsBatchBack() throws {
        let table = TestDatabase.uniqueName("partial")
        try TestDatabase.sql("CREATE TABLE \(table) (id int PRIMARY KEY)")
        let result = try flow("""
            range(1, 1200).map { (id: $0) }.concat(error("the feed broke")).sink(pg.insert("\(table)"))
            """)
        #expect(result.status == 1)
        #expect(result.err.contains("the feed broke"), "\(result.err)")
        let count = Int(try TestDatabase.sql("SELECT count(*) FROM \(table)")) ?? -1
        // Whole batches only, and the note says how many rows were kept; a
        // batch whose COMMIT was already on its way when the stream failed
        // is said to be, and is either in the table or not.
        #expect(count % 500 == 0)
        let reported = result.err.firstMatch(of: /(\d+) rows? (was|were) committed/).flatMap { Int($0.1) } ?? -1
        let committing = result.err.contains("a batch was being committed")
        #expect(reported == count || (committing && count == reported + 500), "the table holds \(count): \(result.err)")
    }

    @Test func aRefusedBatchEndsTheStreamAndSaysWhatWasKept() throws {
        let table = TestDatabase.uniqueName("unique")
        try TestDatabase.sql("CREATE TABLE \(table) (id int PRIMARY KEY)")
        let result = try flow(#"from([1, 2, 2]).map { (id: $0) }.sink(pg.insert("\#(table)"))"#)
        #expect(result.status == 1)
        #expect(result.err.contains("duplicate key value violates unique constraint"), "\(result.err)")
        #expect(result.err.contains("the batch of 3 rows was rolled back, 0 rows were committed before it"), "\(result.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(table)") == "0")
    }

    @Test func executeRunsAStatementPerValue() throws {
        let table = TestDatabase.uniqueName("counts")
        try TestDatabase.sql("CREATE TABLE \(table) (name text PRIMARY KEY, n int)")
        let result = try flow("""
            from(["a", "b", "a"]).sink(pg.execute("INSERT INTO \(table) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET n = \(table).n + 1"))
            """)
        #expect(result.status == 0, "\(result.err)")
        #expect(try TestDatabase.sql("SELECT string_agg(name || '=' || n, ',' ORDER BY name) FROM \(table)") == "a=2,b=1")
    }

    @Test func fourWorkersShareAQueueAndAKilledOneLosesNothing() throws {
        let jobs = TestDatabase.uniqueName("jobs"), handled = TestDatabase.uniqueName("handled")
        try TestDatabase.sql("""
            CREATE TABLE \(jobs) (id int PRIMARY KEY); CREATE TABLE \(handled) (id int, worker text);
            INSERT INTO \(jobs) SELECT generate_series(1, 100000)
            """)
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        try """
            pg.queue("\(jobs)", batch: 100, drain: true) { job in just((id: job.id, worker: args[0])) }
              .sink(pg.insert("\(handled)"))
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let workers = try (1...4).map { try FlowProcess.start(["run", path, "w\($0)"], environment: ["DATABASE_URL": url]) }
        // Kill one in the middle of its work.
        #expect(waitFor { (Int((try? TestDatabase.sql("SELECT count(*) FROM \(handled) WHERE worker = 'w1'")) ?? "") ?? 0) >= 1000 })
        kill(workers[0].process.processIdentifier, SIGKILL)
        for worker in workers {
            _ = worker.out.fileHandleForReading.readDataToEndOfFile()
            _ = worker.err.fileHandleForReading.readDataToEndOfFile()
            worker.process.waitUntilExit()
        }
        for worker in workers.dropFirst() { #expect(worker.process.terminationStatus == 0) }
        // One more worker takes what the killed one left, if the others had finished first.
        let last = try FlowProcess.run(["run", path, "w5"], timeout: 300, environment: ["DATABASE_URL": url])
        #expect(last.status == 0, "\(last.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(jobs)") == "0")
        #expect(try TestDatabase.sql("SELECT count(DISTINCT id) FROM \(handled) WHERE id BETWEEN 1 AND 100000") == "100000")
        let duplicates = Int(try TestDatabase.sql("SELECT count(*) - count(DISTINCT id) FROM \(handled)")) ?? -1
        // Only the killed worker's batch in flight can have been handled twice.
        #expect((0...100).contains(duplicates), "\(duplicates) rows handled twice")
        let others = Int(try TestDatabase.sql("SELECT count(DISTINCT worker) FROM \(handled) WHERE worker <> 'w1'")) ?? 0
        #expect(others >= 2)
    }

    /// A batch whose results the sink could not commit stays queued.
    @Test func aQueueKeepsItsBatchWhenTheSinkFails() throws {
        let jobs = TestDatabase.uniqueName("jobs"), results = TestDatabase.uniqueName("results")
        try TestDatabase.sql("""
            CREATE TABLE \(jobs) (id int PRIMARY KEY); CREATE TABLE \(results) (id int PRIMARY KEY);
            INSERT INTO \(jobs) VALUES (1), (2)
            """)
        let result = try flow(#"pg.queue("\#(jobs)", drain: true) { job in just((id: 7)) }.sink(pg.insert("\#(results)"))"#)
        #expect(result.status == 1)
        #expect(result.err.contains("duplicate key value violates unique constraint"), "\(result.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(jobs)") == "2")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(results)") == "0")
    }

    @Test func aQueueWaitsForNotificationsWhenEmpty() throws {
        let jobs = TestDatabase.uniqueName("inbox")
        try TestDatabase.sql("CREATE TABLE \(jobs) (id int PRIMARY KEY)")
        let path = temporaryPath("pg-\(UUID().uuidString).flow")
        // Polling only once a minute: a job found sooner was heard of by NOTIFY.
        try #"pg.queue("\#(jobs)", every: 60s).map { $0.id }.take(1)"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, out, _) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": url])
        let listening = "SELECT pid FROM pg_stat_activity WHERE query ILIKE 'LISTEN%\(jobs)%'"
        #expect(waitFor { !((try? TestDatabase.sql(listening)) ?? "").isEmpty })
        let started = Date()
        try TestDatabase.sql("INSERT INTO \(jobs) VALUES (7); NOTIFY \(jobs)")
        #expect(waitFor { !process.isRunning })
        process.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "7\n")
        #expect(Date().timeIntervalSince(started) < 60)
        // take(1) stopped the queue before its batch was committed: the job
        // stays for the next worker, as after a crash.
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(jobs)") == "1")
    }

    /// examples/orders.flow: orders announced by NOTIFY are priced over HTTP
    /// (the test server's discount service) and summed up into a table.
    @Test func theOrdersExampleWorksThroughAnnouncedOrders() throws {
        try TestDatabase.sql("""
            DROP TABLE IF EXISTS orders, summaries;
            CREATE TABLE orders (id int PRIMARY KEY, customer text, amount int);
            CREATE TABLE summaries (order_id int, customer text, total int)
            """)
        let server = try TestServer()
        defer { server.shutdown() }
        let example = projectDirectory.appendingPathComponent("examples/orders.flow").path
        let (process, out, err) = try FlowProcess.start(["run", example, "http://127.0.0.1:\(server.port)"], environment: ["DATABASE_URL": url])
        #expect(waitFor { !((try? TestDatabase.sql("SELECT pid FROM pg_stat_activity WHERE query ILIKE 'LISTEN%orders%'")) ?? "").isEmpty })
        try TestDatabase.sql("INSERT INTO orders VALUES (1, 'ada', 200), (2, 'bob', 80), (3, 'ada', 50); NOTIFY orders")
        #expect(waitFor { (try? TestDatabase.sql("SELECT count(*) FROM summaries")) == "3" })
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        _ = out.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect([0, 130].contains(process.terminationStatus), "\(said)")
        #expect(try TestDatabase.sql("SELECT string_agg(order_id || ':' || customer || ':' || total, ',' ORDER BY order_id) FROM summaries")
                == "1:ada:180,2:bob:80,3:ada:45")
        #expect(try TestDatabase.sql("SELECT count(*) FROM orders") == "0")
    }
}
