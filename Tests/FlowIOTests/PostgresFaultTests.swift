import Foundation
import FlowTestSupport
import Testing

/// The database cannot hang a run: a server restarted under a sink, a
/// deadlock between a queue and a sink of the same run, a stop while a
/// statement waits for a lock, a row larger than the memory budget.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct PostgresFaultTests {
    let url = TestDatabase.url ?? ""

    func script(_ text: String) throws -> String {
        let path = temporaryPath("pg-fault-\(UUID().uuidString).flow")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
            let (process, out, err) = try FlowProcess.start(["run", path, table], environment: ["DATABASE_URL": database.url])
            // Mid-run: once some rows are in.
            _ = waitFor { !process.isRunning || (Int((try? database.sql("SELECT count(*) FROM \(table)")) ?? "") ?? 0) > 0 }
            try database.halt()
            try database.resume()
            let ended = waitFor(seconds: 120) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(ended, "round \(round): the run did not end within 120 s after the restart")
            let count = Int(try database.sql("SELECT count(*) FROM \(table)")) ?? -1
            if process.terminationStatus == 0 {
                resumed += 1
                #expect(count == rows, "round \(round): \(count) rows of \(rows)")
            } else {
                #expect(process.terminationStatus == 1, "round \(round): \(said)")
                #expect(said.contains(":1:"), "round \(round): not located: \(said)")
                let reported = said.firstMatch(of: /(\d+) rows? (was|were) committed before it/).flatMap { Int($0.1) } ?? -1
                #expect(reported == count, "round \(round): the table holds \(count): \(said)")
            }
        }
        // Restarts take well under the 30 s a batch waits for the server.
        #expect(resumed >= 15, "only \(resumed) of 20 runs resumed")
    }

    /// The server goes away while a query's rows wait for the script to
    /// take them (the server blocked writing to flow): postgres-nio stopped
    /// the process (SIGILL, "How can we receive a body part, after a
    /// channelReadComplete...") when NIO read the connection's end unasked.
    /// Now the query fails with a located error, twenty times of twenty
    /// (it cannot resume: the rows it gave cannot be taken back, and a
    /// query run again would give them twice).
    @Test func aServerGoingAwayUnderAStreamingQueryIsALocatedError() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        let marker = "streamed_\(UUID().uuidString.prefix(8).lowercased())"
        let path = try script(#"pg.query("SELECT generate_series(1, 1000000000) AS n, '\#(marker)' AS m").map { $0.n }.filter { $0 % 100000 == 0 }"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let blocked = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%\(marker)%' AND wait_event = 'ClientWrite' AND pid <> pg_backend_pid()"
        for round in 1...20 {
            let (process, out, err) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": database.url])
            #expect(waitFor { (try? database.sql(blocked)) == "1" }, "round \(round)")
            try database.halt()
            try database.resume()
            let ended = waitFor(seconds: 120) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(ended, "round \(round): the run did not end")
            #expect(process.terminationStatus == 1, "round \(round): \(said)")
            #expect(said.contains(":1:4: error: pg.query: the connection to postgres://flow@127.0.0.1:"), "round \(round): \(said)")
            #expect(!said.contains("Fatal error"), "round \(round): \(said)")
        }
    }

    /// The server is killed and started again under `pg.queue` feeding a
    /// sink, twenty times: each run ends (the queue's own located error,
    /// or its sink's, which says what it committed), and no job is lost:
    /// every one is still queued or handled (the batch in flight at the
    /// restart may be both, as a queue delivers at least once).
    @Test func aServerRestartedUnderAQueueEndsTheRunAndLosesNoJob() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        for round in 1...20 {
            let jobs = "jobs_\(round)", handledTable = "handled_\(round)"
            _ = try database.sql("CREATE TABLE \(jobs) (id int PRIMARY KEY); INSERT INTO \(jobs) SELECT generate_series(1, 100000); CREATE TABLE \(handledTable) (id int)")
            let queue = try script(#"pg.queue("\#(jobs)", batch: 100, drain: true).map { (id: $0.id) }.sink(pg.insert("\#(handledTable)"))"#)
            defer { try? FileManager.default.removeItem(atPath: queue) }
            let (process, out, err) = try FlowProcess.start(["run", queue], environment: ["DATABASE_URL": database.url])
            _ = waitFor { !process.isRunning || (Int((try? database.sql("SELECT count(*) FROM \(handledTable)")) ?? "") ?? 0) > 0 }
            try database.halt()
            try database.resume()
            let ended = waitFor(seconds: 120) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(ended, "round \(round): the queue did not end after the restart: \(said)")
            #expect([0, 1].contains(process.terminationStatus), "round \(round): \(said)")
            if process.terminationStatus == 1 {
                #expect(said.contains(":1:4: error: pg.queue:") || said.contains(": error: pg.insert(\"\(handledTable)\"):"), "round \(round): \(said)")
            }
            let left = Int(try database.sql("SELECT count(*) FROM \(jobs)")) ?? -1
            let handled = Int(try database.sql("SELECT count(DISTINCT id) FROM \(handledTable)")) ?? -1
            #expect((100_000...100_100).contains(left + handled), "round \(round): \(left) queued, \(handled) handled")
        }
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
}
