import Foundation
import FlowTestSupport
import Testing

/// `flow run --dry-run`: what a job would reach, judged before anything
/// runs, through the real command: each problem a located error with its
/// fix and exit 1, nothing written, connected to or shown of a secret.
@Suite struct DryRunTests {
    /// A folder of the test's own with a script in it; `run` runs `flow`
    /// with "SCRIPT" standing for the script's path.
    final class Job {
        let folder = temporaryPath("dry-run")
        var script: String { folder + "/job.flow" }

        init(_ text: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.write(toFile: script, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> FlowProcess.Result {
            try FlowProcess.run(arguments.map { $0 == "SCRIPT" ? script : $0 }, in: URL(fileURLWithPath: folder),
                                timeout: waitingDeadline, environment: environment)
        }
    }

    /// The errors' own lines, without the script's lines they quote (where
    /// the script itself may hold a password).
    static func messages(_ said: String) -> String {
        said.split(separator: "\n").filter { !$0.hasPrefix(" ") }.joined(separator: "\n")
    }

    static let reachingEverything = """
        let input = args.first ?? "orders.csv"
        let out = env["FLOW_DRY_OUT"] ?? "out"
        let api = "http://127.0.0.1:9/api"
        csv.read(input, header: true)
          .map { row in row["id"] ?? "" }
          .concatMap { id in http.post(api, body: ["id": id]) }
          .map { $0.body }
          .sink(file.write("\\(out)/ids.txt"))
        pg.query("SELECT 1", url: "postgres://loader:hunter2@127.0.0.1:5432/shop").sink { print($0) }

        """

    /// Everything there and granted: one line per check, exit 0, and the
    /// run has not happened (no file written, no request, no query).
    @Test func aJobWithEverythingInPlaceIsReadyAndNothingRuns() throws {
        let job = try Job(Self.reachingEverything)
        try "id\n1\n".write(toFile: job.folder + "/orders.csv", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: job.folder + "/reports", withIntermediateDirectories: true)
        let result = try job.run(["run", "--dry-run", "--allow-env=FLOW_DRY_OUT", "--allow-read=\(job.folder)", "--allow-write=\(job.folder)",
                                  "--allow-net=127.0.0.1", "SCRIPT"],
                                 environment: ["FLOW_DRY_OUT": job.folder + "/reports"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(job.script): a dry run: nothing was run, written or connected to", "\(result.out)")
        #expect(lines.contains(#"  ok 2:11  env["FLOW_DRY_OUT"]: set, and granted"#), "\(result.out)")
        #expect(lines.contains(#"  ok 4:10  csv.read "orders.csv": readable, and granted"#), "\(result.out)")
        #expect(lines.contains(#"  ok 6:32  http.post "http://127.0.0.1:9/api": the URL is well formed and its host granted"#), "\(result.out)")
        #expect(lines.contains("  ok 8:20  file.write \"\(job.folder)/reports/ids.txt\": its folder is writable, and granted"), "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("  ok 9:27  pg.query postgres://loader") && $0.hasSuffix("@127.0.0.1:5432/shop: the address is well formed and its host granted") },
                "\(result.out)")
        #expect(lines.last == "\(job.script): ready to run: 5 checked", "\(result.out)")
        #expect(!result.out.contains("hunter2"))
        #expect(!FileManager.default.fileExists(atPath: job.folder + "/reports/ids.txt"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: job.folder + "/reports")) ?? ["?"]).isEmpty, "no partial file either")
    }

    /// Each thing missing or not granted is a located error with the
    /// source line, a caret and the fix; the run would fail, so exit 1.
    @Test func eachProblemIsALocatedErrorWithItsFix() throws {
        let job = try Job(Self.reachingEverything)
        let result = try job.run(["run", "--dry-run", "--allow-read=\(job.folder)/data", "--allow-write=\(job.folder)/reports",
                                  "--allow-net=example.org", "SCRIPT", "/etc/hostname"],
                                 environment: ["FLOW_DRY_OUT": job.folder + "/missing"])
        #expect(result.status == 1, "\(result)")
        let said = result.err
        #expect(said.contains("\(job.script):2:11: error: env[\"FLOW_DRY_OUT\"]: reading the environment is not allowed\n"
                              + " 2 | let out = env[\"FLOW_DRY_OUT\"] ?? \"out\"\n"
                              + "   |           ^~~~~~~~~~~~~~~~~~~\n"
                              + "   = help: flow run --allow-env=FLOW_DRY_OUT grants it"), "\(said)")
        #expect(said.contains("\(job.script):4:10: error: csv.read \"/etc/hostname\": reading outside \(job.folder)/data is not allowed"), "\(said)")
        #expect(said.contains("= help: flow run --allow-read=/etc grants it"), "\(said)")
        #expect(said.contains("\(job.script):6:32: error: http.post \"http://127.0.0.1:9/api\": requesting hosts other than example.org is not allowed"),
                "\(said)")
        #expect(said.contains("= help: flow run --allow-net=127.0.0.1 grants it"), "\(said)")
        #expect(said.contains("\(job.script):9:27: error: pg.query postgres://loader"), "\(said)")
        // The run would fail at the denied variable: the folder it names is not known.
        #expect(result.out.contains("  ?  8:20  file.write: the path is decided as the script runs; not checked"), "\(result.out)")
        #expect(said.contains("4 problems (0 checked, 1 decided as the script runs): the run would fail"), "\(said)")
        #expect(!Self.messages(said).contains("hunter2") && !result.out.contains("hunter2"), "\(said)")
    }

    /// A variable the script needs and the environment lacks, a file not
    /// there, a folder not there, a database URL that does not parse.
    @Test func whatIsMissingOrMalformedIsNamed() throws {
        let job = try Job("""
            guard let token = env["FLOW_DRY_TOKEN"] else { exit(3) }
            file.lines("nowhere.txt").sink(file.append("no/such/folder/log.txt"))
            pg.execute("DELETE FROM jobs", url: "postgres://u:hunter2@127.0.0.1:99999/db").sink { _ in }
            pg.notify("jobs", "\\(token)").sink { _ in }

            """)
        let result = try job.run(["run", "--dry-run", "--allow-env=FLOW_DRY_TOKEN", "SCRIPT"],
                                 environment: ["DATABASE_URL": "mysql://u:hunter2@db/x"])
        #expect(result.status == 1, "\(result)")
        let said = result.err
        #expect(said.contains(":1:19: error: env[\"FLOW_DRY_TOKEN\"]: the environment variable FLOW_DRY_TOKEN is not set"), "\(said)")
        #expect(said.contains(":2:12: error: cannot read nowhere.txt: No such file or directory"), "\(said)")
        #expect(said.contains(":2:44: error: cannot write no/such/folder/log.txt: No such file or directory"), "\(said)")
        #expect(said.contains(":3:37: error: pg.execute: the port in"), "\(said)")
        #expect(said.contains(":4:1: error: pg.notify: DATABASE_URL:"), "\(said)")
        #expect(said.contains("= help: set DATABASE_URL (postgres://user:password@host:5432/database) or give url:"), "\(said)")
        #expect(!Self.messages(said).contains("hunter2") && !result.out.contains("hunter2"), "\(said)")
    }

    /// The script's arguments decide its paths as they will in the run; a
    /// path only a running stream decides is listed as not checked.
    @Test func argumentsDecidePathsAndRunTimeValuesAreLeftToTheRun() throws {
        let job = try Job("""
            let day = args.count > 1 ? args[1] : "today"
            csv.read(args.first ?? "orders.csv")
              .concatMap { row in file.read("\\(row[0]).json") }
              .sink(file.write("report-\\(day).txt"))

            """)
        try "a\n".write(toFile: job.folder + "/other.csv", atomically: true, encoding: .utf8)
        let named = try job.run(["run", "--dry-run", "SCRIPT", "other.csv", "monday"])
        #expect(named.status == 0, "\(named)")
        #expect(named.out.contains(#"  ok 2:10  csv.read "other.csv": readable, and granted"#), "\(named.out)")
        #expect(named.out.contains(#"  ?  3:33  file.read: the path is decided as the script runs; not checked"#), "\(named.out)")
        #expect(named.out.contains(#"  ok 4:20  file.write "report-monday.txt": its folder is writable, and granted"#), "\(named.out)")
        #expect(named.out.hasSuffix("ready to run: 2 checked, 1 decided as the script runs\n"), "\(named.out)")

        let unnamed = try job.run(["run", "--dry-run", "SCRIPT"])
        #expect(unnamed.status == 1)
        #expect(unnamed.err.contains(":2:10: error: cannot read orders.csv: No such file or directory"), "\(unnamed.err)")
    }

    /// The contract's other statuses: a script that does not compile is 3,
    /// a dry run asked to draw is bad usage, 2.
    @Test func exitStatusesAreTheCommandLines() throws {
        let broken = try Job("let = 3\n")
        let result = try broken.run(["run", "--dry-run", "SCRIPT"])
        #expect(result.status == 3, "\(result)")
        #expect(result.err.contains("job.flow:1:"), "\(result.err)")
        let drawing = try Job("just(1)\n")
        let usage = try drawing.run(["run", "--dry-run", "--svg", "out.svg", "SCRIPT"])
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.err.contains("--dry-run runs nothing"), "\(usage.err)")
        let quiet = try drawing.run(["run", "--dry-run", "SCRIPT"])
        #expect(quiet.status == 0 && quiet.out.hasSuffix("ready to run: it reaches no environment variable, file, database or host\n"), "\(quiet)")
    }

    /// The nightly report of examples/ops, as its cron line would start it.
    @Test func theNightlyReportIsCheckedAsItsCronLineRunsIt() throws {
        let job = try Job("")
        try "day,amount\n".write(toFile: job.folder + "/orders.csv", atomically: true, encoding: .utf8)
        try "{}".write(toFile: job.folder + "/config.json", atomically: true, encoding: .utf8)
        let example = projectDirectory.appendingPathComponent("examples/ops/nightly-report.flow").path
        let ready = try job.run(["run", "--dry-run", "--allow-env=REPORT_DIR", example, "2026-11-27", "orders.csv", "config.json"],
                                environment: ["REPORT_DIR": job.folder])
        #expect(ready.status == 0, "\(ready)")
        #expect(ready.out.contains("file.write \"\(job.folder)/report-2026-11-27.txt\": its folder is writable, and granted"), "\(ready.out)")
        let unset = try job.run(["run", "--dry-run", "--allow-env=REPORT_DIR", example, "2026-11-27", "orders.csv", "config.json"])
        #expect(unset.status == 1)
        #expect(unset.err.contains("nightly-report.flow:10:37: error: env[\"REPORT_DIR\"]: the environment variable REPORT_DIR is not set"), "\(unset.err)")
    }

    /// The README's dry run is what flow prints for the nightly report.
    @Test func theReadmesDryRunIsWhatFlowPrints() throws {
        let job = try Job("")
        try FileManager.default.copyItem(atPath: projectDirectory.appendingPathComponent("examples/ops/nightly-report.flow").path,
                                         toPath: job.folder + "/nightly-report.flow")
        try FileManager.default.createDirectory(atPath: job.folder + "/reports", withIntermediateDirectories: true)
        try "day,amount\n".write(toFile: job.folder + "/orders.csv", atomically: true, encoding: .utf8)
        try "{}".write(toFile: job.folder + "/config.json", atomically: true, encoding: .utf8)
        let command = "flow run --dry-run --allow-env=REPORT_DIR nightly-report.flow 2026-11-27 orders.csv config.json"
        let result = try job.run(Array(command.split(separator: " ").dropFirst().map(String.init)), environment: ["REPORT_DIR": "reports"])
        #expect(result.status == 0, "\(result)")
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("$ REPORT_DIR=reports \(command)\n" + result.out + "```"), "\(result.out)")
    }
}
