import Foundation
import FlowTestSupport
import NIOConcurrencyHelpers
import Testing

/// The jobs of examples/ops/, each run as cron or systemd would run it,
/// against local servers: the test HTTP server on 127.0.0.1 and the test
/// PostgreSQL. (The other examples run in virtual time in ExampleTests.)
@Suite(.serialized) struct OperationsExampleTests {
    static let folder = projectDirectory.appendingPathComponent("examples/ops")

    static func example(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Every job in the folder has a test here.
    @Test func everyJobIsTested() {
        let tested: Set = ["poll-api.flow", "tail-alert.flow", "load-csv.flow", "nightly-report.flow", "queue-worker.flow",
                          "notify-forward.flow"]
        #expect(Set(flowFiles(in: Self.folder)) == tested)
    }

    /// Two requests of every three fail: each poll is retried until it is
    /// answered, and each answer printed, in order.
    @Test func pollingAFlakyAPIRetriesEachPoll() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let result = try FlowProcess.run(["run", Self.example("poll-api.flow"), "\(server.base)/flaky", "3"], timeout: 120)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "poll 0: answer 1\npoll 1: answer 2\npoll 2: answer 3\n", "\(result.out)")
        #expect(result.err.contains("WARN") && result.err.contains("poll 0 failed, retrying"), "\(result.err)")
        #expect(server.flakyCount.withLockedValue { $0 } == 9)
    }

    /// A poll never answered: the job gives up after its retries and exits 4.
    @Test func pollingGivesUpWithItsOwnExitStatus() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let result = try FlowProcess.run(["run", Self.example("poll-api.flow"), "\(server.base)/status/503", "2"], timeout: 120)
        #expect(result.status == 4, "\(result.err)")
        #expect(result.err.contains("giving up") && result.err.contains("HTTP 503"), "\(result.err)")
        #expect(server.requests.withLockedValue { $0.filter { $0 == "/status/503" }.count } == 4)
    }

    /// The log is renamed away mid-run (logrotate's default) while lines
    /// are still written: every ERROR line is posted, once, in order.
    @Test func tailingARotatingLogAlertsOnEveryError() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let folder = temporaryPath("ops-tail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/app.log"
        FileManager.default.createFile(atPath: log, contents: Data("ERROR before the job started\n".utf8))
        let (process, _, err) = try FlowProcess.start(["run", "--log-level", "debug", Self.example("tail-alert.flow"), log, "\(server.base)/alert", "6"])
        // The job follows once it holds the log open.
        let descriptors = "/proc/\(process.processIdentifier)/fd"
        try waitUntil {
            ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == log
            }
        }
        func write(_ text: String, to path: String) {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try? handle.close()
        }
        write("INFO up\nERROR one\nERROR two\n", to: log)
        try waitUntil { server.alerts.withLockedValue { $0.count } >= 2 }
        // Renamed away; the writer still has the old file and writes two more.
        try FileManager.default.moveItem(atPath: log, toPath: log + ".1")
        write("ERROR three\nINFO ok\nERROR four\n", to: log + ".1")
        FileManager.default.createFile(atPath: log, contents: Data("ERROR five\nERROR six\nERROR seven\n".utf8))
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let texts = server.alerts.withLockedValue { $0 }.compactMap { body -> String? in
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) .flatMap { ($0 as? [String: Any])?["text"] as? String }
        }
        #expect(texts == ["ERROR one", "ERROR two", "ERROR three", "ERROR four", "ERROR five", "ERROR six"], "\(texts) \(said)")
        #expect(said.contains("alerting stopped"), "\(said)")
    }

    /// The nightly report: configured by its argument, the environment and
    /// a JSON file; unconfigured, it exits 3 and says why.
    @Test func theNightlyReportReadsArgumentsEnvironmentAndConfig() throws {
        let folder = temporaryPath("ops-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "day,amount,customer\n2026-11-27,120.5,ada\n2026-11-27,20,bob\n2026-11-26,500,cy\n2026-11-27,100,\"dee, jr\"\n"
            .write(toFile: folder + "/orders.csv", atomically: true, encoding: .utf8)
        try #"{"large": 100}"#.write(toFile: folder + "/config.json", atomically: true, encoding: .utf8)
        let arguments = [Self.example("nightly-report.flow"), "2026-11-27", folder + "/orders.csv", folder + "/config.json"]
        let done = try FlowProcess.run(["run", "--allow-env=REPORT_DIR"] + arguments, timeout: 120, environment: ["REPORT_DIR": folder])
        #expect(done.status == 0, "\(done.err)")
        let report = try String(contentsOfFile: folder + "/report-2026-11-27.txt", encoding: .utf8)
        #expect(report == "2026-11-27: 3 orders, 240.5 in total, 2 of at least 100.0\n")
        #expect(done.err.contains("INFO  2026-11-27: 3 orders"), "\(done.err)")
        let unconfigured = try FlowProcess.run(["run", "--allow-env=REPORT_DIR", Self.example("nightly-report.flow")], timeout: 120)
        #expect(unconfigured.status == 3, "\(unconfigured.err)")
        #expect(unconfigured.err.contains("usage: nightly-report.flow"), "\(unconfigured.err)")
        let denied = try FlowProcess.run(["run"] + arguments, timeout: 120, environment: ["REPORT_DIR": folder])
        #expect(denied.status == 1 && denied.err.contains("--allow-env=REPORT_DIR"), "\(denied.err)")
    }

    /// A CSV export with quotes, commas, a line break in a field and empty
    /// fields arrives in the table exactly.
    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func loadingACSVIntoPostgreSQL() throws {
        let table = TestDatabase.uniqueName("ops_orders")
        try TestDatabase.sql("CREATE TABLE \(table) (id int, customer text, amount numeric, note text)")
        let csv = temporaryPath("ops-orders-\(UUID().uuidString).csv")
        var text = "id,customer,amount,note\n"
        for i in 1...2500 { text += "\(i),\"Smith, \(i % 7)\",\(i).25,\(i % 5 == 0 ? "" : "\"said \"\"hi\"\"\nthen left\"")\n" }
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let result = try FlowProcess.run(["run", Self.example("load-csv.flow"), csv, table], timeout: 300,
                                         environment: ["DATABASE_URL": TestDatabase.url ?? ""])
        #expect(result.status == 0, "\(result.err)")
        #expect(try TestDatabase.sql("SELECT count(*), sum(amount), count(*) FILTER (WHERE note = E'said \"hi\"\\nthen left'), count(*) FILTER (WHERE note IS NULL) FROM \(table)")
                == "2500|3126875.00|2000|500")
    }

    /// Three workers drain a queue of jobs; one is killed with SIGKILL
    /// midway and another started: every job is done, none is lost, and
    /// at most the killed worker's batch is done twice.
    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func aQueueOverThreeWorkersSurvivesAKilledOne() throws {
        let jobs = TestDatabase.uniqueName("ops_jobs"), results = TestDatabase.uniqueName("ops_results")
        try TestDatabase.sql("CREATE TABLE \(jobs) (id int PRIMARY KEY, payload text); CREATE TABLE \(results) (job_id int, result text);"
                             + "INSERT INTO \(jobs) SELECT n, 'job ' || n FROM generate_series(1, 3000) n")
        let environment = ["DATABASE_URL": TestDatabase.url ?? ""]
        let arguments = ["run", Self.example("queue-worker.flow"), jobs, results]
        var workers = try (0..<3).map { _ in try FlowProcess.start(arguments, environment: environment) }
        try waitUntil { (Int((try? TestDatabase.sql("SELECT count(*) FROM \(results)")) ?? "0") ?? 0) >= 300 }
        kill(workers[0].process.processIdentifier, SIGKILL)
        workers[0].process.waitUntilExit()
        workers.append(try FlowProcess.start(arguments, environment: environment))
        for worker in workers.dropFirst() {
            let said = String(decoding: worker.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            worker.process.waitUntilExit()
            #expect(worker.process.terminationStatus == 0, "\(said)")
        }
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(jobs)") == "0")
        let counts = try TestDatabase.sql("SELECT count(DISTINCT job_id), count(*) - count(DISTINCT job_id), count(*) FILTER (WHERE result <> upper('job ' || job_id)) FROM \(results)")
            .split(separator: "|").map { Int($0) ?? -1 }
        #expect(counts[0] == 3000 && counts[2] == 0, "\(counts)")
        #expect(counts[1] <= 50, "\(counts[1]) jobs done twice")
    }

    /// NOTIFY forwarded to a webhook while PostgreSQL is stopped as a crash
    /// stops it and started again: the job says it lost the connection,
    /// connects again by itself, and every notification sent before the
    /// stop and after it listens again is posted, once, in order.
    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func notificationsAreForwardedAcrossADatabaseRestart() throws {
        let database = try ThrowawayDatabase.start().get()
        defer { database.remove() }
        let server = try TestServer()
        defer { server.shutdown() }
        let channel = TestDatabase.uniqueName("orders")
        let (process, _, err) = try FlowProcess.start(["run", "--log-level", "debug", Self.example("notify-forward.flow"), channel, "\(server.base)/alert", "6"],
                                                      environment: ["DATABASE_URL": database.url])
        defer { if process.isRunning { process.terminate() } }
        let said = NIOLockedValueBox("")
        let reader = Thread {
            while case let chunk = err.fileHandleForReading.availableData, !chunk.isEmpty {
                said.withLockedValue { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        reader.start()
        let listening = "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle' AND query ILIKE 'LISTEN%\(channel)%'"
        func send(_ payloads: [String]) throws {
            for payload in payloads { try database.sql("SELECT pg_notify('\(channel)', '\(payload)')") }
        }
        try waitUntil { (try? database.sql(listening)) == "1" }
        try send(["one", "two", "three"])
        try waitUntil { server.alerts.withLockedValue { $0.count } == 3 }

        try database.halt()
        try waitUntil { said.withLockedValue { $0.contains("connecting again") } }
        try database.resume()
        try waitUntil { said.withLockedValue { $0.contains("listening again") } && (try? database.sql(listening)) == "1" }
        try send(["four", "five", "six"])

        try waitUntil { !process.isRunning }
        reader.cancel()
        process.waitUntilExit()
        let stderr = said.withLockedValue { $0 }
        #expect(process.terminationStatus == 0, "\(stderr)")
        let forwarded = server.alerts.withLockedValue { $0 }.compactMap { body -> [String]? in
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]).map { [$0["channel"] ?? "", $0["payload"] ?? ""] }
        }
        #expect(forwarded == ["one", "two", "three", "four", "five", "six"].map { [channel, $0] }, "\(forwarded) \(stderr)")
        #expect(stderr.contains("pg.listen(\"\(channel)\"):") && stderr.contains("forwarding done"), "\(stderr)")
    }
}
