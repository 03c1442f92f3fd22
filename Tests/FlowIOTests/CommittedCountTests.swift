import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import FlowTestSupport
import Testing

/// What the sinks committed, however a run ends: a script follows the
/// count as it grows (`onCommit:`), a completed run says it at the log's
/// info level, a stop or a failure always; the count is what the table or
/// the file holds.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct DatabaseCommittedCountTests {
    let url = TestDatabase.url ?? ""

    func script(_ text: String) throws -> String { try scriptFile(text, named: "committed.flow") }

    /// A completed load into each database sink: each `onCommit:` is told
    /// a growing count ending at what the table holds, and the run ends by
    /// saying what each sink committed, as psql ends a COPY with its count;
    /// `--log-level warn` leaves the line out.
    @Test func aCompletedLoadSaysWhatEachSinkCommitted() throws {
        let copied = TestDatabase.uniqueName("copied"), inserted = TestDatabase.uniqueName("inserted"), executed = TestDatabase.uniqueName("executed")
        try TestDatabase.sql("CREATE TABLE \(copied) (id int PRIMARY KEY); CREATE TABLE \(inserted) (id int PRIMARY KEY); CREATE TABLE \(executed) (id int PRIMARY KEY)")
        let path = try script("""
            let ids = range(1, 25000)
            ids.map { (id: $0) }.sink(pg.copy(into: "\(copied)", batch: 1000, onCommit: { rows in print("copy", rows) }))
            ids.take(3000).map { (id: $0) }.sink(pg.insert("\(inserted)", onCommit: { rows in print("insert", rows) }))
            ids.take(1200).sink(pg.execute("INSERT INTO \(executed) VALUES ($1)", onCommit: { rows in print("execute", rows) }))
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run(["run", path], timeout: 120, environment: ["DATABASE_URL": url])
        #expect(result.status == 0, "\(result.err)")
        for (sink, table, rows) in [("copy", copied, 25000), ("insert", inserted, 3000), ("execute", executed, 1200)] {
            #expect(try TestDatabase.sql("SELECT count(*) FROM \(table)") == "\(rows)")
            let told = result.out.split(separator: "\n").filter { $0.hasPrefix(sink + " ") }.compactMap { Int($0.dropFirst(sink.count + 1)) }
            #expect(told.last == rows, "\(sink): \(told)")
            #expect(told == told.sorted() && Set(told).count == told.count, "\(sink): \(told)")
        }
        #expect(result.out.split(separator: "\n").filter { $0.hasPrefix("copy ") }.count >= 25, "a batch of 1000 rows at most each time")
        #expect(result.err.contains("""
            flow: done; what the sinks committed:
              pg.copy(into: "\(copied)"): 25000 rows committed
              pg.insert("\(inserted)"): 3000 rows committed
              pg.execute("INSERT INTO \(executed) VALUES ($1)"): 1200 rows committed
            """), "\(result.err)")
        for table in [copied, inserted, executed] { _ = try TestDatabase.sql("TRUNCATE \(table)") }
        let quiet = try FlowProcess.run(["run", "--log-level", "warn", path], timeout: 120, environment: ["DATABASE_URL": url])
        #expect(quiet.status == 0, "\(quiet.err)")
        #expect(!quiet.err.contains("what the sinks committed"), "\(quiet.err)")
    }

    /// SIGTERM in the middle of a load (a file of three million lines,
    /// read as the commits go): the run stops (exit 143) and says how many
    /// rows the sink committed, which is what the table holds; the script,
    /// told the count after each batch, was told no more.
    @Test func aStopMidLoadSaysWhatTheTableHolds() throws {
        let table = TestDatabase.uniqueName("stopped")
        try TestDatabase.sql("CREATE TABLE \(table) (id text PRIMARY KEY)")
        let lines = temporaryPath("committed-\(UUID().uuidString).txt")
        try (1...3_000_000).map(String.init).joined(separator: "\n").write(toFile: lines, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: lines) }
        let path = try script("""
            file.lines(args[0]).map { (id: $0) }.sink(pg.copy(into: "\(table)", batch: 2000, onCommit: { rows in print(rows) }))
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, out, err) = try FlowProcess.start(["run", path, lines], environment: ["DATABASE_URL": url])
        #expect(waitFor(seconds: 120) { !process.isRunning || (Int((try? TestDatabase.sql("SELECT count(*) FROM \(table)")) ?? "") ?? 0) >= 10000 })
        kill(process.processIdentifier, SIGTERM)
        #expect(waitFor(seconds: 60) { !process.isRunning })
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143, "\(said)")
        // On a loaded machine the loop may be inside a chunk of the file
        // past the half second a stop waits for it, and the process is made
        // to exit: the report is the same either way.
        let count = Int(try TestDatabase.sql("SELECT count(*) FROM \(table)")) ?? -1
        let reported = said.firstMatch(of: /flow: stopped by SIGTERM; what the sinks committed:\n  pg\.copy\(into: "\w+"\): (\d+) rows committed/)
            .flatMap { Int($0.1) }
        #expect(reported == count, "the table holds \(count): \(said)")
        let told = printed.split(separator: "\n").compactMap { Int($0) }
        #expect((told.last ?? 0) <= count && told.count > 0, "told \(told.suffix(3)), the table holds \(count)")
    }

    /// In the REPL, a line's database sink says what it committed once its
    /// last batch is answered, not when its stream ends (which is long
    /// before): the count is what the table holds.
    @Test func aREPLLineSaysWhatItsLoadCommittedOnceItsBatchesAreAnswered() throws {
        let table = TestDatabase.uniqueName("repl")
        try TestDatabase.sql("CREATE TABLE \(table) (id int PRIMARY KEY)")
        let result = try FlowProcess.run(["repl"], stdin: "range(1, 5000).map { (id: $0) }.sink(pg.copy(into: \"\(table)\", batch: 1000))\n",
                                         timeout: 120, environment: ["DATABASE_URL": url])
        #expect(result.status == 0, "\(result.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(table)") == "5000")
        #expect(result.out == "what the sinks committed:\n  pg.copy(into: \"\(table)\"): 5000 rows committed\n", "\(result.out)")
    }
}

/// The file sinks under the same rule as the database's.
@Suite struct FileCommittedCountTests {
    /// `file.append` commits each line as it writes it, `file.write` all of
    /// them when the file is put in place: `onCommit:` is told so, and the
    /// completed run says what each committed; a failed run says it too.
    @Test func theFileSinksSayWhatTheyCommitted() throws {
        let folder = temporaryPath("committed-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/job.flow"
        try """
            of("a", "b", "c").sink(file.append("out.log", onCommit: { lines in print("appended", lines) }))
            of(1, 2, 3).sink(file.write("out.txt", onCommit: { lines in print("written", lines) }))
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try FlowProcess.run(["run", "--live", "job.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: "\n").filter { $0.hasPrefix("appended ") } == ["appended 1", "appended 2", "appended 3"], "\(result.out)")
        #expect(result.out.split(separator: "\n").filter { $0.hasPrefix("written ") } == ["written 3"], "\(result.out)")
        #expect(result.err.contains("""
            flow: done; what the sinks committed:
              file.append("out.log"): 3 lines appended (6 bytes)
              file.write("out.txt"): 3 lines written (6 bytes), out.txt replaced
            """), "\(result.err)")
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "1\n2\n3\n")

        try """
            concat(of("x", "y"), error("disk gone")).sink(file.append("failed.log"))
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let failed = try FlowProcess.run(["run", "--live", "--log-level", "off", "job.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(failed.status == 1, "\(failed.err)")
        #expect(failed.err.contains("flow: failed; what the sinks committed:\n  file.append(\"failed.log\"): 2 lines appended (4 bytes)"), "\(failed.err)")
    }
}

/// `flow test` says what each test's sinks committed with the test, in
/// every format, where the format allows it: text under the test's line,
/// TAP comment lines, a JSON `committed` array, JUnit's `<system-err>`;
/// the statements outside the tests before them (JSON's `files`, the
/// suite's `<system-err>`). A test whose sinks committed nothing says nothing.
@Suite struct TestCommandCommittedCountTests {
    static let script = """
        let log = file.append("shared.log")
        of("top").sink(log)
        test "writes a report" {
          of(1, 2, 3).sink(file.write("report.txt"))
          expect(cold("-a|")).toBe("-a|")
        }
        test "appends and fails" {
          of("x", "y").sink(file.append("events.log"))
          expect(cold("-a|")).toBe("-b|")
        }
        test "writes nothing" {
          expect(cold("-a|")).toBe("-a|")
        }
        """

    func folder() throws -> String {
        let folder = temporaryPath("committed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.script.write(toFile: folder + "/jobs.flow", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func theTextReportSaysItUnderEachTest() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try FlowProcess.run(["test", "jobs.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.hasPrefix("""
            jobs.flow, outside its tests; what the sinks committed:
              file.append("shared.log"): 1 line appended (4 bytes)
            ✓ jobs.flow: writes a report
              what the sinks committed:
                file.write("report.txt"): 3 lines written (6 bytes), report.txt replaced
            ✗ jobs.flow: appends and fails
            """), "\(result.out)")
        #expect(result.out.contains("""
              what the sinks committed:
                file.append("events.log"): 2 lines appended (4 bytes)
            ✓ jobs.flow: writes nothing
            2 passed, 1 failed
            """), "\(result.out)")
        #expect(try String(contentsOfFile: folder + "/report.txt", encoding: .utf8) == "1\n2\n3\n")
    }

    /// TAP: comment lines, which a TAP reader shows and skips, after each
    /// test's entry (its YAML block kept right after its `not ok` line).
    @Test func tapSaysItInCommentLines() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try FlowProcess.run(["test", "--format", "tap", "jobs.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 1, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "TAP version 13")
        #expect(lines.last == "1..3")
        #expect(result.out.contains("""
            # jobs.flow, outside its tests; what the sinks committed:
            #   file.append("shared.log"): 1 line appended (4 bytes)
            ok 1 - jobs.flow: writes a report
            # what the sinks committed:
            #   file.write("report.txt"): 3 lines written (6 bytes), report.txt replaced
            not ok 2 - jobs.flow: appends and fails
              ---
            """), "\(result.out)")
        #expect(result.out.contains("""
              ...
            # what the sinks committed:
            #   file.append("events.log"): 2 lines appended (4 bytes)
            ok 3 - jobs.flow: writes nothing
            1..3
            """), "\(result.out)")
        // Every line is a test line, the plan, the version, a comment or
        // inside a YAML block: nothing a TAP reader would misread.
        for line in lines {
            #expect(line.hasPrefix("ok ") || line.hasPrefix("not ok ") || line.hasPrefix("# ") || line.hasPrefix("  ")
                    || line == "TAP version 13" || line == "1..3", "\(line)")
        }
    }

    @Test func jsonGivesEachTestItsCommittedLines() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try FlowProcess.run(["test", "--format", "json", "jobs.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 1, "\(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["writes a report", "appends and fails", "writes nothing"])
        #expect(tests.map { $0["committed"] as? [String] } == [
            [#"file.write("report.txt"): 3 lines written (6 bytes), report.txt replaced"#],
            [#"file.append("events.log"): 2 lines appended (4 bytes)"#],
            [],
        ])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.first?["committed"] as? [String] == [#"file.append("shared.log"): 1 line appended (4 bytes)"#], "\(files)")
    }

    @Test func junitSaysItInSystemErr() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try FlowProcess.run(["test", "--format", "junit", "jobs.flow"], in: URL(fileURLWithPath: folder), timeout: 60)
        #expect(result.status == 1, "\(result.err)")
        let parser = XMLParser(data: Data(result.out.utf8))
        #expect(parser.parse(), "not well-formed XML: \(result.out)")
        #expect(result.out.contains("""
                <testcase classname="jobs.flow" name="writes a report">
                  <system-err>what the sinks committed:
              file.write(&quot;report.txt&quot;): 3 lines written (6 bytes), report.txt replaced</system-err>
                </testcase>
            """), "\(result.out)")
        #expect(result.out.contains("""
                  <system-err>what the sinks committed:
              file.append(&quot;events.log&quot;): 2 lines appended (4 bytes)</system-err>
                </testcase>
                <testcase classname="jobs.flow" name="writes nothing"/>
                <system-err>what the sinks committed:
              file.append(&quot;shared.log&quot;): 1 line appended (4 bytes)</system-err>
              </testsuite>
            """), "\(result.out)")
    }
}
