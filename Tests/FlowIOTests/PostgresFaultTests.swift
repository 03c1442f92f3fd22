import Foundation
import FlowTestSupport
import Testing

/// The database cannot hang a run: a server restarted under a sink, a
/// deadlock between a queue and a sink of the same run, a stop while a
/// statement waits for a lock, a row larger than the memory budget.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct PostgresFaultTests {
    let url = TestDatabase.url ?? ""

    func script(_ text: String) throws -> String { try scriptFile(text, named: "pg-fault.flow") }

    /// What a run said when the server was restarted under it.
    struct RestartedRun {
        /// Whether the run came to the point the restart was waiting for.
        var reachedTheRestart: Bool
        var ended: Bool
        var status: Int32
        var out: String
        var err: String
        /// The threads' stacks of a run that did not end, taken before it was killed.
        var stacks = ""
    }

    /// Runs `flow run ARGUMENTS` against `database`; once `underWay` holds
    /// (or the run has ended), kills the server as a crash would and starts
    /// it again, then waits up to 120 s for the run to end (killed if it
    /// has not).
    func restartTheServer(_ database: ThrowawayDatabase, under arguments: [String], once underWay: () -> Bool) throws -> RestartedRun {
        let (process, out, err) = try FlowProcess.start(["run"] + arguments, environment: ["DATABASE_URL": database.url])
        let reached = waitFor { !process.isRunning || underWay() }
        try database.halt()
        try database.resume()
        let ended = waitFor(seconds: 120) { !process.isRunning }
        var stacks = ""
        if !ended {
            stacks = FlowProcess.threadBacktraces(of: process.processIdentifier)
            kill(process.processIdentifier, SIGKILL)
        }
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return RestartedRun(reachedTheRestart: reached, ended: ended, status: process.terminationStatus, out: printed, err: said, stacks: stacks)
    }

    /// The server is killed (as a crash would) and started again while
    /// `pg.insert` writes, twenty times: each run ends, and either resumes
    /// and writes every row exactly once (the table's key would refuse a
    /// second time), or fails with a located error saying what was committed,
    /// which the table then holds.
    @Test func aServerRestartedMidRunNeverHangsTheRun() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        let rows = 40_000
        let path = try script(#"range(1, \#(rows)).map { (id: $0) }.sink(pg.insert(args[0]))"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var resumed = 0
        for round in 1...20 {
            let table = "restarted_\(round)"
            _ = try database.sql("CREATE TABLE \(table) (id int PRIMARY KEY)")
            // Mid-run: once some rows are in.
            let run = try restartTheServer(database, under: [path, table]) {
                (Int((try? database.sql("SELECT count(*) FROM \(table)")) ?? "") ?? 0) > 0
            }
            guard run.ended else {
                // Issue 36, open: about one restart in several hundred leaves
                // the run idle for ever (every thread waiting, a continuation
                // never resumed, nothing printed). Recorded with the run's
                // threads; every other round is held to all of the below.
                withKnownIssue("a run can hang after the server restarts (issue 36)", isIntermittent: true) {
                    Issue.record("round \(round): the run did not end within 120 s after the restart; its threads:\n\(run.stacks)")
                }
                continue
            }
            let count = Int(try database.sql("SELECT count(*) FROM \(table)")) ?? -1
            if run.status == 0 {
                resumed += 1
                #expect(count == rows, "round \(round): \(count) rows of \(rows)")
            } else {
                #expect(run.status == 1, "round \(round): \(run.err)")
                #expect(run.err.contains(":1:"), "round \(round): not located: \(run.err)")
                let reported = run.err.firstMatch(of: /(\d+) rows? (was|were) committed before it/).flatMap { Int($0.1) } ?? -1
                #expect(reported == count, "round \(round): the table holds \(count): \(run.err)")
            }
        }
        // Restarts take well under the 30 s a batch waits for the server.
        #expect(resumed >= 15, "only \(resumed) of 20 runs resumed")
    }

    /// The server goes away while a query's rows wait for the script to
    /// take them (the server blocked writing to flow): postgres-nio stopped
    /// the process (SIGILL, "How can we receive a body part, after a
    /// channelReadComplete...") when NIO read the connection's end unasked.
    /// Now the query fails with a located error, twenty times of twenty,
    /// saying how many rows it had delivered (it cannot resume: the rows it
    /// gave cannot be taken back, and a query run again would give them
    /// twice). The script printed every 100 000th row it was given, so the
    /// count lies between the last it printed and the next.
    @Test func aServerGoingAwayUnderAStreamingQueryIsALocatedError() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        let marker = "streamed_\(UUID().uuidString.prefix(8).lowercased())"
        let path = try script(#"pg.query("SELECT generate_series(1, 1000000000) AS n, '\#(marker)' AS m").map { $0.n }.filter { $0 % 100000 == 0 }"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let blocked = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND wait_event = 'ClientWrite' AND pid <> pg_backend_pid()"
        for round in 1...20 {
            let run = try restartTheServer(database, under: [path]) { (try? database.sql(blocked)) == "1" }
            #expect(run.reachedTheRestart, "round \(round)")
            #expect(run.ended, "round \(round): the run did not end; its threads:\n\(run.stacks)")
            #expect(run.status == 1, "round \(round): \(run.err)")
            #expect(run.err.contains(":1:4: error: pg.query: the connection to postgres://flow@127.0.0.1:"), "round \(round): \(run.err)")
            #expect(!run.err.contains("Fatal error"), "round \(round): \(run.err)")
            let delivered = run.err.firstMatch(of: /; (\d+) rows? (was|were) delivered before it, and the query is not run again/).flatMap { Int($0.1) }
            let lastPrinted = run.out.split(separator: "\n").last.flatMap { Int($0) } ?? 0
            #expect(delivered.map { (lastPrinted..<lastPrinted + 100_000).contains($0) } == true,
                    "round \(round): printed up to \(lastPrinted): \(run.err)")
        }
    }

    /// The server is killed and started again under `pg.queue` feeding a
    /// sink, twenty times: each run ends (the queue's own located error,
    /// or its sink's, which says what it committed), and no job is lost:
    /// every one is still queued or handled (the batch in flight at the
    /// restart may be both, as a queue delivers at least once). The
    /// queue's error says how many jobs it committed as done, which are
    /// the jobs gone from the table; the sink's, how many rows it
    /// committed, which are the rows the table of results holds.
    @Test func aServerRestartedUnderAQueueEndsTheRunAndLosesNoJob() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        let total = 100_000
        var queueFailures = 0
        for round in 1...20 {
            let jobs = "jobs_\(round)", handledTable = "handled_\(round)"
            _ = try database.sql("CREATE TABLE \(jobs) (id int PRIMARY KEY); INSERT INTO \(jobs) SELECT generate_series(1, \(total)); CREATE TABLE \(handledTable) (id int)")
            let queue = try script(#"pg.queue("\#(jobs)", batch: 100, drain: true).map { (id: $0.id) }.sink(pg.insert("\#(handledTable)"))"#)
            defer { try? FileManager.default.removeItem(atPath: queue) }
            let run = try restartTheServer(database, under: [queue]) {
                (Int((try? database.sql("SELECT count(*) FROM \(handledTable)")) ?? "") ?? 0) > 0
            }
            #expect(run.ended, "round \(round): the queue did not end after the restart: \(run.err); its threads:\n\(run.stacks)")
            #expect([0, 1].contains(run.status), "round \(round): \(run.err)")
            let left = Int(try database.sql("SELECT count(*) FROM \(jobs)")) ?? -1
            let handled = Int(try database.sql("SELECT count(DISTINCT id) FROM \(handledTable)")) ?? -1
            let written = Int(try database.sql("SELECT count(*) FROM \(handledTable)")) ?? -1
            #expect((total...total + 100).contains(left + handled), "round \(round): \(left) queued, \(handled) handled")
            guard run.status == 1 else { continue }
            let queueFailed = run.err.contains(":1:4: error: pg.queue:")
            #expect(queueFailed || run.err.contains(": error: pg.insert(\"\(handledTable)\"):"), "round \(round): \(run.err)")
            if queueFailed {
                queueFailures += 1
                let done = run.err.firstMatch(of: /; (\d+) jobs? (was|were) committed as done before it/).flatMap { Int($0.1) }
                #expect(done != nil, "round \(round): the queue did not say what it committed: \(run.err)")
                if let done {
                    // A batch whose COMMIT went unanswered may be done too.
                    let unsure = run.err.contains("is not known") ? 100 : 0
                    #expect((done...done + unsure).contains(total - left), "round \(round): \(total - left) jobs done, \(done) reported: \(run.err)")
                }
            }
            if let committed = run.err.firstMatch(of: /pg\.insert\("\w+"\): .*?(\d+) rows? (was|were) committed/).flatMap({ Int($0.1) }) {
                // A batch whose COMMIT was under way when the stream ended may be in the table too.
                let unsure = run.err.contains("and a batch was being committed") ? 100 : 0
                #expect((committed...committed + unsure).contains(written), "round \(round): the table of results holds \(written): \(run.err)")
            }
        }
        // Most restarts end the queue with its own error.
        #expect(queueFailures > 0, "the queue never failed with its own error")
    }

    /// `pg.queue` keeps its claimed rows locked until the sinks commit; a
    /// sink updating those rows waits for the queue, which waits for it.
    /// PostgreSQL cannot see the cycle (it passes through flow): flow asks
    /// the server what the statement waits for, and says so.
    @Test func aSinkWaitingForItsOwnQueuesClaimIsADeadlockNamingBoth() throws {
        let jobs = TestDatabase.uniqueName("claimed")
        try TestDatabase.sql("CREATE TABLE \(jobs) (id int PRIMARY KEY, seen bool DEFAULT false); INSERT INTO \(jobs) (id) VALUES (1), (2), (3)")
        let text = #"pg.queue("\#(jobs)", drain: true).map { $0.id }.sink(pg.execute("UPDATE \#(jobs) SET seen = true WHERE id = $1"))"#
        let path = try script(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The sink's column: the `execute` of `pg.execute`.
        let column = text.distance(from: text.startIndex, to: text.range(of: "pg.execute")!.lowerBound) + 4
        let result = try FlowProcess.run(["run", path], timeout: 120, environment: ["DATABASE_URL": url])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains(":1:\(column): error: pg.execute: deadlock: the statement \"UPDATE \(jobs) SET seen = true WHERE id = $1\" "
                                    + "waits for rows that pg.queue(\"\(jobs)\") at \(path):1:4 has claimed"), "\(result.err)")
        #expect(result.err.contains("the batch of 3 rows was rolled back, 0 rows were committed before it"), "\(result.err)")
        // Nothing was lost: the jobs are still queued, none marked.
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(jobs) WHERE NOT seen") == "3")
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'UPDATE \(jobs)%' AND state = 'active'"
        #expect(waitFor { (try? TestDatabase.sql(waiting)) == "0" })
    }

    /// Ctrl-C while a batch waits for a lock another session holds: the run
    /// ends at once, says what was committed, and the statement is
    /// cancelled on the server rather than left waiting.
    @Test func ctrlCStopsABatchWaitingForALock() throws {
        let table = TestDatabase.uniqueName("locked")
        try TestDatabase.sql("CREATE TABLE \(table) (id int PRIMARY KEY)")
        let holder = try FlowProcess.start(["-X", "-q", "-d", url, "-c", "BEGIN; LOCK TABLE \(table); SELECT pg_sleep(300)"],
                                           binary: URL(fileURLWithPath: "/usr/bin/psql"))
        defer {
            kill(holder.process.processIdentifier, SIGKILL)
            _ = try? TestDatabase.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'BEGIN; LOCK TABLE \(table)%'")
        }
        let path = try script(#"range(1, 10).map { (id: $0) }.sink(pg.insert("\#(table)"))"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'INSERT INTO \(table)%' AND wait_event_type = 'Lock'"
        #expect(waitFor { (try? TestDatabase.sql("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = '\(table)' AND l.granted")) == "1" })
        let (process, out, err) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": url])
        #expect(waitFor { (try? TestDatabase.sql(waiting)) == "1" })
        kill(process.processIdentifier, SIGINT)
        #expect(waitFor(seconds: 30) { !process.isRunning })
        _ = out.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(said)")
        #expect(said.contains("flow: stopped by Ctrl-C; what the sinks committed:\n  pg.insert(\"\(table)\"): 0 rows committed"), "\(said)")
        #expect(try TestDatabase.sql(waiting) == "0")
    }

    /// A value larger than the memory budget is refused from the size the
    /// server announces, before it is gathered: a located error, also in a
    /// 2 GB address space, where it ended in SIGILL inside NIO.
    @Test func aRowLargerThanTheMemoryBudgetIsALocatedError() throws {
        let path = try script(#"pg.query("SELECT repeat(repeat('x', 1000000), 300) AS big", url: args[0]).map { $0.big.count }"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let budget = try FlowProcess.run(["run", "--max-memory", "256MB", path, url], timeout: 120)
        #expect(budget.status == 1)
        #expect(budget.err.contains(":1:4: error: pg.query: memory limit of 256 MB reached while reading a row of 286 MB from the database; "
                                    + "select less of it"), "\(budget.err)")
        let tls = url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let encrypted = try FlowProcess.run(["run", "--max-memory", "256MB", path, tls], timeout: 120)
        #expect(encrypted.err.contains("reading a row of 286 MB from the database"), "\(encrypted.err)")
        let bigger = try script(#"pg.query("SELECT repeat(repeat('x', 1000000), 900) AS big", url: args[0]).map { $0.big.count }"#)
        defer { try? FileManager.default.removeItem(atPath: bigger) }
        let limited = try FlowProcess.runLimited(["run", bigger, url], megabytes: 2048, timeout: 120)
        #expect(!limited.crashed, "\(limited.err)")
        #expect(limited.status == 1, "\(limited.err)")
        #expect(limited.err.contains(":1:4: error: pg.query:") && limited.err.contains("reading a row of 858 MB from the database"), "\(limited.err)")
        // A row within the budget is read as before.
        let fits = try script(#"pg.query("SELECT repeat('x', 3000000) AS big", url: args[0]).map { $0.big.count }"#)
        defer { try? FileManager.default.removeItem(atPath: fits) }
        let read = try FlowProcess.run(["run", "--max-memory", "256MB", fits, url], timeout: 120)
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out == "3000000\n")
    }

    /// A query without `timeout:` cannot wait for ever: past the default
    /// (here made short with FLOW_PG_TIMEOUT, 60 s otherwise) it is a
    /// located error naming the statement and the timeout and how to give
    /// a longer one, and the statement is cancelled on the server. Rows
    /// that do come are read at the script's pace, past the default.
    @Test func aQueryWithoutATimeoutHasTheDefaultOne() throws {
        let marker = TestDatabase.uniqueName("unbounded")
        let text = #"pg.query("SELECT pg_sleep(600), '\#(marker)'")"#
        let path = try script(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run(["run", path], timeout: 120, environment: ["DATABASE_URL": url, "FLOW_PG_TIMEOUT": "1500ms"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("pg-fault.flow:1:4: error: pg.query: the statement \"SELECT pg_sleep(600), '\(marker)'\" ran longer than 1.5s "
                                    + "(the default timeout of a statement) and was cancelled on the server; give it longer with timeout:, "
                                    + "as in timeout: 10m, or set FLOW_PG_TIMEOUT=10m for every query"), "\(result.err)")
        let running = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND state = 'active' AND pid <> pg_backend_pid()"
        #expect(waitFor { (try? TestDatabase.sql(running)) == "0" })

        // The script's own timeout: is longer than the default, and is kept.
        let longer = try script(#"pg.query("SELECT 7 AS n FROM pg_sleep(3)", timeout: 1m).sink { print($0.n) }"#)
        let patient = try FlowProcess.run(["run", longer], timeout: 120, environment: ["DATABASE_URL": url, "FLOW_PG_TIMEOUT": "1500ms"])
        #expect(patient.status == 0, "\(patient.err)")
        #expect(patient.out == "7\n", "\(patient.err)")

        // Once rows come, the default no longer bounds the stream.
        let slow = try script(#"pg.query("SELECT generate_series(1, 4) AS n").concatMap { n in of(n.n).delay(1s) }.count().sink { print($0) }"#)
        let paced = try FlowProcess.run(["run", slow], timeout: 120, environment: ["DATABASE_URL": url, "FLOW_PG_TIMEOUT": "1500ms"])
        #expect(paced.status == 0, "\(paced.err)")
        #expect(paced.out == "4\n", "\(paced.err)")

        let wrong = try FlowProcess.run(["run", path], timeout: 120, environment: ["DATABASE_URL": url, "FLOW_PG_TIMEOUT": "soon"])
        #expect(wrong.status == 1, "\(wrong.err)")
        #expect(wrong.err.contains(":1:4: error: FLOW_PG_TIMEOUT=\"soon\" is not a duration"), "\(wrong.err)")
    }
}
