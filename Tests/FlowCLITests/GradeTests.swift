import FlowTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `flow grade` and the machine-readable reports of `flow test` on a class
/// of students who each do something a grader must survive
/// (Tests/FlowCLITests/Class: each file says what in its first line).
@Suite struct GradeTests {
    static let classFolder = projectDirectory.appendingPathComponent("Tests/FlowCLITests/Class")
    static var students: String { classFolder.appendingPathComponent("students").path }
    static var key: String { classFolder.appendingPathComponent("key.flow").path }

    static func grade(_ arguments: [String]) throws -> FlowProcess.Result {
        try FlowProcess.run(["grade", "--max-memory", "256MB"] + arguments, in: classFolder, timeout: 600)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    /// Each student's row, keyed by file name.
    static func rows(_ report: [String: Any]) throws -> [String: [String: Any]] {
        let files = try #require(report["files"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: files.map { (URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent, $0) })
    }

    @Test func everyStudentGetsARowAndNobodyBreaksTheReport() throws {
        let result = try Self.grade(["--format", "json", "students"])
        #expect(result.status == 0, "\(result.err)")
        // Standard output is the report alone: what students print is in it, not beside it.
        let rows = try Self.rows(try Self.json(result.out))
        #expect(rows.count == 15)
        func points(_ name: String) -> (Int?, Int?) { (rows[name]?["points"] as? Int, rows[name]?["possiblePoints"] as? Int) }
        #expect(points("alice.flow") == (3, 3))
        #expect(points("bob.flow") == (2, 3))
        #expect(points("carol.flow") == (0, 3) && rows["carol.flow"]?["compiled"] as? Bool == false)
        // A top-level statement that fails counts as a test, as in flow test.
        #expect(points("dave.flow") == (3, 4))
        #expect(points("erin.flow") == (2, 2))
        #expect(points("frank.flow") == (3, 4))
        #expect(points("gina.flow") == (3, 4))
        #expect(points("hank.flow") == (3, 3))
        #expect(points("jill.flow") == (4, 4), "standard input is empty: \(rows["jill.flow"] ?? [:])")
        // Without a key, a file is its own exercise: lena and oscar use a name they never define.
        #expect(points("lena.flow") == (0, 1) && rows["lena.flow"]?["compiled"] as? Bool == false)
        #expect(points("mike.flow") == (0, 1))
        #expect(points("nina.flow") == (0, 0))
        #expect(points("oscar.flow") == (0, 1) && rows["oscar.flow"]?["compiled"] as? Bool == false)
        // Many values, each under the budget: the grader stops the file.
        #expect(rows["ivan.flow"]?["stopped"] as? String == "stopped: over the 256 MB memory limit")
        #expect(points("ivan.flow") == (0, 3))
        // One value grown too large: the budget stops the statement, located.
        #expect(rows["kate.flow"]?["stopped"] is NSNull)
        #expect(points("kate.flow") == (0, 4))
        let kates = try #require(rows["kate.flow"]?["results"] as? [[String: Any]])
        #expect(kates.contains { ($0["details"] as? String)?.contains("kate.flow:2:36: error: memory limit of 128 MB reached while joining two arrays with +") == true },
                "\(kates)")
        #expect(rows["frank.flow"]?["output"] as? String == "I print things" || (rows["frank.flow"]?["results"] as? [[String: Any]] ?? [])
            .contains { ($0["output"] as? String)?.contains("I print things") == true }, "\(rows["frank.flow"] ?? [:])")
        // Earned and possible per test: a failed test earned nothing.
        let bobs = try #require(rows["bob.flow"]?["results"] as? [[String: Any]])
        let total = try #require(bobs.first { $0["name"] as? String == "total" })
        #expect(total["points"] as? Int == 0 && total["possible"] as? Int == 1)
        // The class as a whole.
        let summary = try #require(try Self.json(result.out)["summary"] as? [String: Any])
        #expect(summary["files"] as? Int == 15)
        #expect(!result.err.contains("Fatal error"), "\(result.err)")
    }

    @Test func theKeyDecidesTheTestsThePointsAndTheGivenStreams() throws {
        let result = try Self.grade(["--key", "key.flow", "--format", "csv", "students"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "file,doubled,total,points earned,points possible,note")
        func row(_ name: String) -> String? { lines.first { $0.hasPrefix("students/\(name),") } }
        #expect(row("alice.flow") == "students/alice.flow,2,1,3,3,")
        // Their own wrong test does not count; the key's does.
        #expect(row("bob.flow") == "students/bob.flow,2,1,3,3,")
        // A deleted test is still graded.
        #expect(row("erin.flow") == "students/erin.flow,2,1,3,3,")
        // The given stream is the key's, whatever the student wrote.
        #expect(row("hank.flow") == "students/hank.flow,0,0,0,3,")
        #expect(row("carol.flow") == "students/carol.flow,0,0,0,3,does not compile")
        #expect(lines.count == 16)
    }

    @Test func aNameTheKeyNeedsIsReportedAndTheKeyStaysHidden() throws {
        let folder = temporaryPath("partial")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "let doubled = numbers.map { $0 * 2 }\n".write(toFile: folder + "/sam.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--key", Self.key, "--details", folder])
        #expect(result.status == 0)
        #expect(result.out.contains("sam.flow  1 of 2"), "\(result.out)")
        #expect(result.out.contains("✗ total (test does not compile)\n    not defined: total (the exercise asks your file to define it)"),
                "\(result.out)")
        // The key's code never appears in what students are shown.
        #expect(!result.out.contains("expect(total)"))
    }

    @Test func theKeyIsLawWhateverTheStudentsFileHolds() throws {
        let result = try Self.grade(["--key", "key.flow", "--format", "json", "--details", "students"])
        #expect(result.status == 0, "\(result.err)")
        let rows = try Self.rows(try Self.json(result.out))
        func points(_ name: String) -> (Int?, Int?) { (rows[name]?["points"] as? Int, rows[name]?["possiblePoints"] as? Int) }
        // A header comment holding a blank line is the student's, whole.
        #expect(points("lena.flow") == (3, 3), "\(rows["lena.flow"] ?? [:])")
        // A leftover line that fails is a warning, not a test.
        #expect(points("mike.flow") == (3, 3), "\(rows["mike.flow"] ?? [:])")
        let mikes = rows["mike.flow"]?["warnings"] as? [String] ?? []
        #expect(mikes.contains { $0.contains("mike.flow:5:") && $0.contains("index") }, "\(mikes)")
        // A student's own expect does not replace the key's.
        #expect(points("nina.flow") == (0, 3), "\(rows["nina.flow"] ?? [:])")
        // Nor a student's own cold the key's given input.
        #expect(points("oscar.flow") == (0, 3), "\(rows["oscar.flow"] ?? [:])")
        let oscars = rows["oscar.flow"]?["warnings"] as? [String] ?? []
        #expect(oscars.isEmpty || !oscars.contains { $0.contains("numbers") }, "\(oscars)")
        // A student's own definition of a given name is set aside, and said so.
        let hanks = rows["hank.flow"]?["warnings"] as? [String] ?? []
        #expect(hanks.contains { $0.hasPrefix("students/hank.flow:2:1: warning: 'numbers' is given by the exercise") }, "\(hanks)")
        #expect(hanks.contains { $0 == "warning: your own tests \"doubled\", \"total\" are not graded; the exercise's tests are" }, "\(hanks)")
    }

    @Test func aStudentsLinesAndColumnsStayTheirOwn() throws {
        let folder = temporaryPath("lines")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = """
            #!/usr/bin/env flow
            /* a header

               with a blank line */
            let doubled = numbers.map { $0 * 2 }
            let total = numbers.reduce(0 { $0 + $1 }

            """
        try text.write(toFile: folder + "/paul.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--key", Self.key, "--details", folder])
        #expect(result.status == 0)
        #expect(result.out.contains("paul.flow  0 of 2      0 of 3      does not compile"), "\(result.out)")
        // The error is the student's, at the student's line and column, with the student's line shown.
        #expect(result.out.contains("paul.flow:6:27: error: '(' is never closed"), "\(result.out)")
        #expect(result.out.contains(" 6 | let total = numbers.reduce(0 { $0 + $1 }"), "\(result.out)")
        #expect(!result.out.contains("expect(total)"))
    }

    @Test func aFailedDeclarationFailsTheTestsThatUseItAlone() throws {
        let folder = temporaryPath("failed-declaration")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "let doubled = numbers.map { $0 * 2 }\nlet total = [1, 2, 3][5]\n".write(toFile: folder + "/quinn.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--key", Self.key, "--details", folder])
        #expect(result.status == 0)
        #expect(result.out.contains("quinn.flow  1 of 2      2 of 3"), "\(result.out)")
        #expect(result.out.contains("✗ total\n    quinn.flow:2:13: error: index 5 out of range"), "\(result.out)")
    }

    /// A class folder with the key and a data file inside it, and a
    /// student who tries to read everything.
    static func curiousClass() throws -> String {
        let folder = temporaryPath("curious")
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        try "1\n2\n3\n".write(toFile: folder + "/data/numbers.txt", atomically: true, encoding: .utf8)
        try """
            # KEY-SECRET
            let numbers = file.lines("\(folder)/data/numbers.txt").map { Int($0)! }
            test "total" { expect(total).toBe("(a|)", a: 6) }

            """.write(toFile: folder + "/key.flow", atomically: true, encoding: .utf8)
        try "# ADA-SECRET\nlet total = numbers.reduce(0) { $0 + $1 }\n".write(toFile: folder + "/ada.flow", atomically: true, encoding: .utf8)
        try """
            let total = numbers.reduce(0) { $0 + $1 }
            let classmate = file.read("\(folder)/ada.flow")
            let key = file.read("\(folder)/probe.flow")
            let own = file.read("\(folder)/zoe.flow")
            let data = file.read("\(folder)/data/numbers.txt")

            """.write(toFile: folder + "/zoe.flow", atomically: true, encoding: .utf8)
        try """
            let numbers = file.lines("\(folder)/data/numbers.txt").map { Int($0)! }
            test "total" {
              expect(classmate.map { _ in "read" }).toBe("(a|)", a: "read")
              expect(key.map { _ in "read" }).toBe("(a|)", a: "read")
              expect(own.map { _ in "read" }).toBe("(a|)", a: "read")
              expect(data.map { _ in "read" }).toBe("(a|)", a: "read")
            }

            """.write(toFile: folder + "/probe.flow", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func eachStudentReadsOnlyWhatIsTheirs() throws {
        let folder = try Self.curiousClass()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The probe is a key that asks what zoe's file could read.
        let result = try Self.grade(["--key", folder + "/probe.flow", "--details", "--format", "json", folder + "/zoe.flow"])
        #expect(result.status == 0, "\(result.err)")
        let details = try #require((try Self.rows(try Self.json(result.out))["zoe.flow"]?["results"] as? [[String: Any]])?.first?["details"] as? String)
        // (Paths in the messages are the graded folder's, never the teacher's absolute ones.)
        #expect(details.contains(#"file.read \"ada.flow\": reading outside the student's own file"#), "\(details)")
        #expect(details.contains(#"file.read \"probe.flow\": reading the key is not allowed (flow grade --allow-read="#), "\(details)")
        #expect(!details.contains("zoe.flow") && !details.contains("numbers.txt"), "its own file and the data are readable: \(details)")
        // The key is kept by flow grade's own rule, not a --deny-read the teacher gave: the message names the flag that widens it.
        #expect(details.contains("probe.flow grants it)") && !details.contains("--deny-read"), "\(details)")
        // Nothing of a classmate's file or the key reached the report.
        #expect(!result.out.contains("ADA-SECRET") && !result.out.contains("KEY-SECRET"), "\(result.out)")
        // The real key's data file is readable, and grading works with it.
        let graded = try Self.grade(["--key", folder + "/key.flow", "--format", "csv", folder])
        let table = try Self.csvRows(graded.out)
        #expect(table.first { $0.first == "ada.flow" }?.suffix(3).first == "1", "\(table)")
        // Widening to the folder deliberately reaches classmates, never the key.
        let widened = try Self.grade(["--key", folder + "/probe.flow", "--details", "--allow-read=\(folder)", "--format", "json", folder + "/zoe.flow"])
        let wide = try #require((try Self.rows(try Self.json(widened.out))["zoe.flow"]?["results"] as? [[String: Any]])?.first?["details"] as? String)
        #expect(!wide.contains("ada.flow"), "\(wide)")
        #expect(wide.contains(#"file.read \"probe.flow\": reading the key is not allowed (flow grade --allow-read="#), "\(wide)")
    }

    @Test func linksAndFIFOsNamedLikeScriptsAreNeitherFollowedNorOpened() throws {
        let folder = temporaryPath("links"), outside = temporaryPath("outside.txt")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: outside) }
        try "let secret = 42 // TOP SECRET\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.flow", withDestinationPath: outside)
        #expect(mkfifo(folder + "/pipe.flow", 0o600) == 0)
        try "let total = numbers.reduce(0) { $0 + $1 }\nlet doubled = numbers.map { $0 * 2 }\n".write(toFile: folder + "/ok.flow", atomically: true, encoding: .utf8)
        for format in ["text", "json", "csv"] {
            let result = try Self.grade(["--key", Self.key, "--details", "--format", format, folder])
            #expect(result.status == 0, "\(result.err)")
            #expect(!result.out.contains("SECRET") && !result.err.contains("SECRET"), "\(result.out)")
            #expect(result.out.contains("not graded: a symbolic link, which flow grade does not follow"), "\(result.out)")
            #expect(result.out.contains("not graded: not a regular file"), "\(result.out)")
        }
        let csv = try Self.csvRows(try Self.grade(["--key", Self.key, "--format", "csv", folder]).out)
        #expect(csv.first { $0[0] == "ok.flow" }?[3] == "3", "\(csv)")
    }

    @Test func aTestThatFailsThousandsOfTimesKeepsItsRowSmall() throws {
        let folder = temporaryPath("many-failures")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "test \"many\" { for i in 0..<3000 { expect(just(i)).toBe(\"(a|)\", a: -1) } }\n"
            .write(toFile: folder + "/many.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--format", "json", folder])
        let details = try #require((try Self.rows(try Self.pythonJSON(result.out))["many.flow"]?["results"] as? [[String: Any]])?.first?["details"] as? String)
        #expect(details.utf8.count < 70_000, "\(details.utf8.count) bytes")
        #expect(details.contains(" more bytes of details not shown"), "\(details.suffix(200))")
    }

    /// Runs `flow grade` with `arguments` under a Python watcher that
    /// measures the grader itself, not its children: its peak resident
    /// size (`VmHWM`, read every few milliseconds while it runs) and its
    /// own CPU time in clock ticks (read once it has exited, before it is
    /// reaped). Returns the result with both taken off standard error.
    static func measuredGrade(_ arguments: [String]) throws -> (result: FlowProcess.Result, peak: Int, ticks: Int) {
        let watcher = """
            import os, subprocess, sys, threading, time
            p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out = {}
            readers = [threading.Thread(target=lambda n=n, f=f: out.__setitem__(n, f.read())) for n, f in (("out", p.stdout), ("err", p.stderr))]
            for r in readers: r.start()
            peak = 0
            while True:
                try:
                    for line in open(f"/proc/{p.pid}/status"):
                        if line.startswith("VmHWM:"): peak = max(peak, int(line.split()[1]) * 1024)
                except OSError: pass
                if os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None: break
                time.sleep(0.003)
            fields = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
            ticks = int(fields[11]) + int(fields[12])
            p.wait()
            for r in readers: r.join()
            sys.stdout.buffer.write(out["out"]); sys.stderr.buffer.write(out["err"])
            print(peak, ticks, file=sys.stderr)
            sys.exit(p.returncode)
            """
        var result = try FlowProcess.run(["-c", watcher, FlowProcess.binary.path, "grade"] + arguments,
                                         binary: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 600)
        var lines = result.err.split(separator: "\n").map(String.init)
        let measured = (lines.popLast() ?? "").split(separator: " ").compactMap { Int($0) }
        result.err = lines.joined(separator: "\n")
        return (result, measured.first ?? -1, measured.count > 1 ? measured[1] : -1)
    }

    /// Six students of a hundred tests printing 64 KiB each (39 MB in all,
    /// which the grader held several times over, peaking at 213 MB): the
    /// grader stays within `--max-memory` (128 MB), every row is graded,
    /// each file keeps its share of output (the first test's whole), and
    /// what is not kept is counted.
    @Test func theGraderStaysWithinItsMemoryHoweverMuchStudentsPrint() throws {
        let folder = temporaryPath("printing-class")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tests = (0..<100).map { "test \"t\($0)\" { print(big) }" }.joined(separator: "\n")
        for n in 0..<6 {
            try "let big = Array(repeating: \"x\", count: 65000).joined()\n\(tests)\n"
                .write(toFile: "\(folder)/student\(n).flow", atomically: true, encoding: .utf8)
        }
        let (result, peak, _) = try Self.measuredGrade(["--max-memory", "128MB", "--format", "json", folder])
        #expect(result.status == 0, "\(result.err)")
        #expect(peak > 0 && peak < 128 << 20, "the grader peaked at \(peak >> 20) MB")
        let rows = try Self.rows(try Self.json(result.out))
        #expect(rows.count == 6)
        for (file, row) in rows {
            #expect(row["passed"] as? Int == 100, "\(file): \(row["stopped"] ?? "")")
            let outputs = ((row["results"] as? [[String: Any]]) ?? []).map { $0["output"] as? String ?? "" }
            #expect(outputs.first?.utf8.count == 65000, "\(file)")
            #expect(outputs.last?.hasPrefix("… 65000 more bytes of output not kept (a file's row keeps") == true, "\(file): \(outputs.last ?? "")")
        }
    }

    /// The reports are linear in the number of test names: a class of 40 000
    /// names takes the grader about four times the CPU of one of 10 000, in
    /// each format (it took 14 times as long as that). Measured as the
    /// grader's own CPU time, which the load of the machine barely moves,
    /// against a bound (10) well above linear and well below quadratic (16).
    @Test func reportsAreLinearInTheNumberOfTestNames() throws {
        let small = temporaryPath("names-10k"), large = temporaryPath("names-40k")
        for folder in [small, large] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { for folder in [small, large] { try? FileManager.default.removeItem(atPath: folder) } }
        func write(_ path: String, from first: Int) throws {
            try ((first..<first + 10_000).map { "test \"n\($0)\" { }" }.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write(small + "/a.flow", from: 0)
        for k in 0..<4 { try write(large + "/s\(k).flow", from: k * 10_000) }
        for format in ["text", "csv", "json"] {
            let one = try Self.measuredGrade(["--format", format, small]), four = try Self.measuredGrade(["--format", format, large])
            #expect(one.result.status == 0 && four.result.status == 0, "\(one.result.err)\(four.result.err)")
            #expect(four.result.out.contains("n39999"), "\(format)")
            #expect(one.ticks > 0 && four.ticks < one.ticks * 10, "\(format): 40 000 names took \(four.ticks) ticks, 10 000 took \(one.ticks)")
        }
    }

    @Test func tooLittleMemoryIsRefusedWithAMessage() throws {
        let result = try FlowProcess.run(["grade", "--max-memory", "32MB", "students"], in: Self.classFolder, timeout: 60)
        #expect(result.status == 2)
        #expect(result.err.contains("--max-memory 32MB is less than grading one file needs"), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func noScriptCanForgeTheReport() throws {
        let folder = temporaryPath("forger")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = ["a\\nforged.flow  9 of 9      9 of 9", "\\u{1B}[2J\\u{1B}[31mred", "=HYPERLINK(\\\"http://x\\\")", "@SUM(A1)", "+1", "-1",
                     "points earned", "file", "note,with \\\"quotes\\\""]
        let tests = names.map { "test \"\($0)\" { print(\"\\u{1B}[2J\\n=1+1\") }" }.joined(separator: "\n")
        try (tests + "\n").write(toFile: folder + "/forger.flow", atomically: true, encoding: .utf8)
        let text = try Self.grade(["--details", folder])
        #expect(text.status == 0, "\(text.err)")
        #expect(!text.out.contains("\u{1B}"), "an escape reached the terminal")
        // The only lines that start without indent are the report's own.
        let rows = text.out.split(separator: "\n").filter { $0.contains("9 of 9") }
        #expect(rows.allSatisfy { $0.hasPrefix(" ") || $0.hasPrefix("a\\n") == false && !$0.hasPrefix("forged") }, "\(rows)")
        #expect(!text.out.split(separator: "\n").contains { $0.hasPrefix("forged.flow") }, "\(text.out)")
        let csv = try Self.csvRows(try Self.grade(["--format", "csv", folder]).out)
        let header = try #require(csv.first)
        #expect(Set(header).count == header.count, "a column is duplicated: \(header)")
        #expect(header.filter { $0 == "points earned" }.count == 1 && header.contains("points earned (test)"), "\(header)")
        #expect(csv.allSatisfy { $0.count == header.count })
        for cell in csv.joined() { #expect(!["=", "+", "-", "@"].contains(cell.first.map(String.init) ?? ""), "a formula: \(cell)") }
        let json = try Self.pythonJSON(try Self.grade(["--format", "json", folder]).out)
        let results = try #require((json["files"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(Set(results.compactMap { $0["name"] as? String }).count == names.count)
    }

    @Test(arguments: Array(["none", "score", "where", "why", "answer"].enumerated()))
    func feedbackTellsAsMuchAsTheTeacherChooses(_ level: (offset: Int, element: String)) throws {
        let answers = ["-a-b-c|", "------(a|)", "a = 2, b = 4", "expect(", "next(2)", "next(6)"]
        // Carol's file does not compile, and its error quotes her own copy of the tests: hers to see.
        let students = try FileManager.default.contentsOfDirectory(atPath: Self.students).filter { $0 != "carol.flow" }.map { "students/" + $0 }
        for format in ["text", "json", "csv"] {
            let result = try Self.grade(["--key", "key.flow", "--feedback", level.element, "--format", format] + students)
            #expect(result.status == 0, "\(result.err)")
            let leaked = answers.filter { result.out.contains($0) }
            if level.element == "answer" {
                #expect(format == "csv" || leaked.contains("-a-b-c|"), "\(format): \(result.out)")
            } else {
                #expect(leaked.isEmpty, "\(level.element), \(format) shows the key: \(leaked)")
            }
            if format == "json" {
                let rows = try Self.rows(try Self.pythonJSON(result.out))
                let hanks = rows["hank.flow"]?["results"] as? [[String: Any]] ?? []
                let details = hanks.compactMap { $0["details"] as? String }.filter { !$0.isEmpty }.joined(separator: "\n")
                switch level.element {
                case "none": #expect(hanks.isEmpty && rows["hank.flow"]?["points"] as? Int == 0)
                case "score": #expect(hanks.count == 2 && details.isEmpty)
                case "where": #expect(details.contains("expectation failed: value differs at frame 1") && !details.contains("-1-2-3|"), "\(details)")
                case "why": #expect(details.contains("your lane: -1-2-3|") && details.contains("next(1) is not the value expected"), "\(details)")
                default: #expect(details.contains("expected: -a-b-c|"), "\(details)")
                }
            }
            if format == "csv" {
                let header = try #require(try Self.csvRows(result.out).first)
                #expect(header.contains("doubled") == (level.element != "none"), "\(header)")
            }
        }
    }

    /// `--feedback score` tells each test's points in the text report too,
    /// and nothing of why; `none` each file's total alone.
    @Test func theScoreLevelTellsEachTestsPoints() throws {
        let files = ["students/alice.flow", "students/hank.flow", "students/carol.flow"]
        let score = try Self.grade(["--key", "key.flow", "--feedback", "score"] + files)
        #expect(score.status == 0, "\(score.err)")
        let lines = score.out.split(separator: "\n").map(String.init)
        func after(_ file: String) -> [String] {
            Array(lines.drop { !$0.hasPrefix(file + " ") }.dropFirst().prefix { $0.hasPrefix("  ") })
        }
        #expect(after("students/alice.flow") == ["  ✓ doubled: 2 of 2 points", "  ✓ total: 1 of 1 point"], "\(score.out)")
        #expect(after("students/hank.flow") == ["  ✗ doubled: 0 of 2 points", "  ✗ total: 0 of 1 point"], "\(score.out)")
        #expect(after("students/carol.flow") == ["  ✗ doubled (file does not compile): 0 of 2 points", "  ✗ total (file does not compile): 0 of 1 point"],
                "\(score.out)")
        let none = try Self.grade(["--key", "key.flow", "--feedback", "none"] + files)
        #expect(!none.out.contains("✓") && !none.out.contains("✗"), "\(none.out)")
    }

    @Test func aHintSpeaksOfTheStudentsLane() throws {
        let folder = temporaryPath("late")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "let doubled = numbers.map { $0 * 2 }.delay(1)\nlet total = numbers.reduce(0) { $0 + $1 }\n"
            .write(toFile: folder + "/late.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--key", Self.key, "--details", folder])
        #expect(result.out.contains("hint:      your event is right but 1 frame too late"), "\(result.out)")
        #expect(!result.out.contains("expected lane") && !result.out.contains("-a-b-c|"), "\(result.out)")
    }

    @Test func partialCreditIsGivenPerRightEvent() throws {
        let folder = temporaryPath("partial-credit")
        try FileManager.default.createDirectory(atPath: folder + "/class", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            let numbers = cold("-1-2-3-4|")
            test "doubled" (points: 4) { expect(doubled).toBe("-a-b-c-d|", a: 2, b: 4, c: 6, d: 8, points: 4, partial: .perEvent) }
            test "total" { expect(total).toBe("--------(a|)", a: 10) }

            """.write(toFile: folder + "/key.flow", atomically: true, encoding: .utf8)
        let answers = [
            "right": "numbers.map { $0 * 2 }",              // 5 of 5 events: 4 points
            "onewrong": "numbers.map { $0 == 3 ? 7 : $0 * 2 }", // 4 of 5: 3.2, rounded down
            "short": "numbers.map { $0 * 2 }.take(2)",      // 2 right of 5 (its completion comes early): 1.6
            "extra": "numbers.flatMap { from([$0 * 2, 0]) }", // 5 right, but 9 events: 2.2
            "wrong": "numbers.map { $0 }",                  // only the completion: 0.8
        ]
        for (name, doubled) in answers {
            try "let doubled = \(doubled)\nlet total = numbers.reduce(0) { $0 + $1 }\n"
                .write(toFile: folder + "/class/\(name).flow", atomically: true, encoding: .utf8)
        }
        let result = try Self.grade(["--key", folder + "/key.flow", "--format", "csv", folder + "/class"])
        #expect(result.status == 0, "\(result.err)")
        let table = try Self.csvRows(result.out)
        func doubled(_ name: String) -> String? { table.first { $0[0] == "\(name).flow" }?[1] }
        #expect(doubled("right") == "4" && doubled("onewrong") == "3" && doubled("short") == "1" && doubled("extra") == "2"
                && doubled("wrong") == "0", "\(table)")
        #expect(table.dropFirst().allSatisfy { $0[4] == "5" }, "\(table)")
        // Points an expectation carries are a share of its test's.
        try "test \"t\" { expect(just(1)).toBe(\"(a|)\", a: 1, points: 3, partial: .perEvent) }\n"
            .write(toFile: folder + "/over.flow", atomically: true, encoding: .utf8)
        let over = try FlowProcess.run(["test", folder + "/over.flow"], timeout: 60)
        #expect(over.out.contains("the expectations of test \"t\" carry 3 points, but the test is worth 1"), "\(over.out)")
    }

    @Test func aRosterMakesTheCSVAGradebookImport() throws {
        let roster = temporaryPath("roster.csv")
        defer { try? FileManager.default.removeItem(atPath: roster) }
        try "name,file,id,email\r\n\"Lovelace, Ada\",alice.flow,1001,ada@example.edu\r\nBob,bob,1002,=bob@example.edu\r\nZoe,zoe.flow,1003,zoe@example.edu\r\n"
            .write(toFile: roster, atomically: true, encoding: .utf8)
        let result = try Self.grade(["--key", "key.flow", "--format", "csv", "--roster", roster, "students/alice.flow", "students/bob.flow", "students/hank.flow"])
        #expect(result.status == 0, "\(result.err)")
        let table = try Self.csvRows(result.out)
        #expect(table.first == ["id", "email", "name", "file", "doubled", "total", "points earned", "points possible", "note"], "\(table)")
        // The roster's order, then who is not on it; a student with no file scores 0 of what was possible.
        #expect(table.dropFirst().map(\.[0]) == ["1001", "1002", "1003", ""], "\(table)")
        #expect(table[1] == ["1001", "ada@example.edu", "Lovelace, Ada", "students/alice.flow", "2", "1", "3", "3", ""])
        #expect(table[2][1] == "'=bob@example.edu", "a roster's cell is no formula either")
        #expect(table[3] == ["1003", "zoe@example.edu", "Zoe", "zoe.flow", "", "", "0", "3", "no file"])
        #expect(table[4][3] == "students/hank.flow" && table[4][8] == "not on the roster")
        let text = try Self.grade(["--key", "key.flow", "--roster", roster, "students/alice.flow", "students/bob.flow"])
        #expect(text.out.contains("no file from 1 student on the roster: Zoe (zoe.flow)"), "\(text.out)")
        // A roster that cannot be read is refused before anything is graded.
        try "file,id\n\"alice.flow,1\n".write(toFile: roster, atomically: true, encoding: .utf8)
        let bad = try Self.grade(["--roster", roster, "students"])
        #expect(bad.status == 2 && bad.err.contains("roster.csv:2: a quoted field is never closed"), "\(bad.err)")
        try "name,id\nAda,1\n".write(toFile: roster, atomically: true, encoding: .utf8)
        let noFile = try Self.grade(["--roster", roster, "students"])
        #expect(noFile.status == 2 && noFile.err.contains("the roster has no 'file' column"), "\(noFile.err)")
    }

    @Test func reportsNeverShowTheTeachersAbsolutePaths() throws {
        let folder = temporaryPath("absolute")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "let doubled = numbers.map { $0 * 2 }\nlet total = file.read(\"\(folder)/other.txt\")\n"
            .write(toFile: folder + "/ada.flow", atomically: true, encoding: .utf8)
        try "let doubled = numbers.map { $0 * 2 }\nlet total = numbers.reduce(0 { $0 + $1 }\n".write(toFile: folder + "/bob.flow", atomically: true, encoding: .utf8)
        for format in ["text", "json", "csv"] {
            let result = try Self.grade(["--key", Self.key, "--details", "--format", format, folder])
            #expect(result.status == 0, "\(result.err)")
            #expect(!result.out.contains(folder), "\(format): \(result.out)")
            #expect(result.out.contains("ada.flow") && result.out.contains("bob.flow"), "\(result.out)")
        }
        let text = try Self.grade(["--key", Self.key, "--details", folder])
        #expect(text.out.contains("bob.flow:2:27: error: '(' is never closed"), "\(text.out)")
        #expect(text.out.contains(#"file.read \"other.txt\": reading outside the student's own file"#), "\(text.out)")
    }

    /// A teacher's term folder deep under a long absolute path: the key and
    /// its data at the top, the class below, a data file handed in beside
    /// a student's script, and students who read beside, above and across.
    static func termFolder() throws -> (root: String, term: String) {
        let root = temporaryPath("a-teachers-home-with-a-rather-long-name")
        let term = root + "/courses/reactive-programming-2026/week-3"
        try FileManager.default.createDirectory(atPath: term + "/class", withIntermediateDirectories: true)
        try "1\n2\n3\n".write(toFile: term + "/numbers.txt", atomically: true, encoding: .utf8)
        try "hello".write(toFile: term + "/class/greeting.txt", atomically: true, encoding: .utf8)
        try "SECRET-ABOVE".write(toFile: term + "/secret.txt", atomically: true, encoding: .utf8)
        try """
            let numbers = file.lines("numbers.txt").map { Int($0)! }
            test "total" { expect(total).toBe("(a|)", a: 6) }
            test "greeting" (points: 2) { expect(greeting).toBe("(a|)", a: "hello") }

            """.write(toFile: term + "/key.flow", atomically: true, encoding: .utf8)
        // Zoe reads the file beside her script by its relative name, as `flow run` beside it would.
        try "let total = numbers.reduce(0) { $0 + $1 }\nlet greeting = file.read(\"greeting.txt\")\n"
            .write(toFile: term + "/class/zoe.flow", atomically: true, encoding: .utf8)
        // Ada reads a classmate, Sam what lies above the class, and Bob does not compile.
        try "let total = numbers.reduce(0) { $0 + $1 }\nlet greeting = file.read(\"zoe.flow\")\n"
            .write(toFile: term + "/class/ada.flow", atomically: true, encoding: .utf8)
        try "let total = numbers.reduce(0) { $0 + $1 }\nlet greeting = file.read(\"../secret.txt\")\n"
            .write(toFile: term + "/class/sam.flow", atomically: true, encoding: .utf8)
        try "let total = numbers.reduce(0 { $0 + $1 }\n".write(toFile: term + "/class/bob.flow", atomically: true, encoding: .utf8)
        try "file,id,email,name\nzoe.flow,1,zoe@example.edu,Zoe\nada.flow,2,ada@example.edu,Ada\nnone.flow,3,nobody@example.edu,Nobody\n"
            .write(toFile: term + "/roster.csv", atomically: true, encoding: .utf8)
        return (root, term)
    }

    @Test func eachScriptsRelativePathsAreItsOwnFilesFolder() throws {
        let (root, term) = try Self.termFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Graded from the term folder, and from a folder elsewhere with the key named from there.
        for (folder, prefix) in [(term, ""), (root, "courses/reactive-programming-2026/week-3/")] {
            let result = try FlowProcess.run(["grade", "--max-memory", "256MB", "--key", prefix + "key.flow", "--details",
                                              "--allow-read=\(prefix)class/greeting.txt", "--format", "json", prefix + "class"],
                                             in: URL(fileURLWithPath: folder), timeout: 600)
            #expect(result.status == 0, "\(result.err)")
            let rows = try Self.rows(try Self.json(result.out))
            #expect(rows["zoe.flow"]?["points"] as? Int == 3, "\(rows["zoe.flow"] ?? [:])")
            // The key's relative path is the key's folder's, wherever grading started.
            #expect(rows["ada.flow"]?["points"] as? Int == 1, "\(rows["ada.flow"] ?? [:])")
        }
        // Without the grant, the file beside the script is named as the teacher knows it, with the flag that grants it alone.
        let denied = try FlowProcess.run(["grade", "--max-memory", "256MB", "--key", "key.flow", "--details", "class"],
                                         in: URL(fileURLWithPath: term), timeout: 600)
        #expect(denied.out.contains(#"file.read \"greeting.txt\" (class/greeting.txt): reading outside the student's own file and the exercise's data is not allowed (flow grade --allow-read=class/greeting.txt grants it)"#),
                "\(denied.out)")
    }

    @Test func aDenialIsOneSentenceNamingPathsFromTheGradedFolder() throws {
        let (root, term) = try Self.termFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try FlowProcess.run(["grade", "--max-memory", "256MB", "--key", "key.flow", "--details", "--allow-read=class/greeting.txt", "class"],
                                         in: URL(fileURLWithPath: term), timeout: 600)
        #expect(result.status == 0, "\(result.err)")
        // A classmate: the scope as the teacher widened it, and the flag naming that file alone, never its folder.
        #expect(result.out.contains(#"file.read \"zoe.flow\" (class/zoe.flow): reading outside the student's own file, the exercise's data and class/greeting.txt is not allowed (flow grade --allow-read=class/zoe.flow grants it)"#),
                "\(result.out)")
        // Above the class: named from the graded folder, as the teacher typed it.
        #expect(result.out.contains(#"file.read \"../secret.txt\" (secret.txt): reading outside"#) && result.out.contains("(flow grade --allow-read=secret.txt grants it)"),
                "\(result.out)")
        #expect(!result.out.contains("SECRET-ABOVE"), "\(result.out)")
    }

    @Test func noReportOrMessageHoldsTheTeachersAbsolutePath() throws {
        let (root, term) = try Self.termFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let elsewhere = temporaryPath("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        // Every path given absolute, from a folder that is none of them.
        let common = ["grade", "--max-memory", "256MB", "--key", term + "/key.flow", "--allow-read=\(term)/class/greeting.txt", term + "/class"]
        var runs: [(String, [String])] = []
        for format in ["text", "json", "csv"] {
            for feedback in ["none", "score", "where", "why", "answer"] {
                runs.append(("\(format) \(feedback)", ["--format", format, "--feedback", feedback]))
            }
            runs.append(("\(format) roster", ["--format", format, "--details", "--roster", term + "/roster.csv"]))
        }
        runs.append(("the folder granted", ["--format", "json", "--details", "--allow-read=\(term)/class"]))
        for (name, extra) in runs {
            let output = elsewhere + "/report"
            let result = try FlowProcess.run(common + extra + ["--output", output], in: URL(fileURLWithPath: elsewhere), timeout: 600)
            #expect(result.status == 0, "\(name): \(result.err)")
            let written = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(written.contains("zoe.flow") && written.contains("bob.flow"), "\(name): \(written)")
            for (stream, text) in [("stdout", result.out), ("stderr", result.err), ("the report", written)] {
                #expect(!text.contains(root), "\(name): \(stream) holds the teacher's path: \(text)")
                #expect(!text.contains("reactive-programming-2026"), "\(name): \(stream) holds a folder above the class: \(text)")
            }
            try? FileManager.default.removeItem(atPath: output)
        }
        // The text report's summary and messages, on standard output too.
        let text = try FlowProcess.run(common + ["--details"], in: URL(fileURLWithPath: elsewhere), timeout: 600)
        #expect(text.out.contains("bob.flow:1:27: error: '(' is never closed"), "\(text.out)")
        #expect(text.out.contains(#"file.read \"../secret.txt\" (../secret.txt): reading outside"#), "\(text.out)")
        #expect(!text.out.contains(root) && !text.err.contains(root), "\(text.out)\n\(text.err)")
    }

    @Test func aFileOverTheTimeLimitIsStoppedAlone() throws {
        let folder = temporaryPath("slow")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Each loop is under the iteration guard; together they never end.
        try "test \"slow\" { var n = 0; for i in 0..<999999 { for j in 0..<999999 { n += 1 } } }\n"
            .write(toFile: folder + "/slow.flow", atomically: true, encoding: .utf8)
        try "test \"quick\" { expect(just(1)).toBe(\"(a|)\", a: 1) }\n".write(toFile: folder + "/quick.flow", atomically: true, encoding: .utf8)
        let result = try Self.grade(["--timeout", "2s", folder])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("quick.flow 1 of 1 1 of 1"), "\(result.out)")
        #expect(lines.contains("slow.flow 0 of 1 0 of 1 stopped: over the 2 s limit per file"), "\(result.out)")
    }

    /// Ctrl-C while grading: the rows graded so far are printed, then what was not graded.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalPrintsTheRowsGradedSoFar(_ signal: Int32) throws {
        let folder = temporaryPath("interrupted")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "test \"quick\" { expect(just(1)).toBe(\"(a|)\", a: 1) }\n".write(toFile: folder + "/a.flow", atomically: true, encoding: .utf8)
        try "test \"slow\" { var n = 0; for i in 0..<999999 { for j in 0..<999999 { n += 1 } } }\n"
            .write(toFile: folder + "/b.flow", atomically: true, encoding: .utf8)
        let (process, out, _) = try FlowProcess.start(["grade", "--jobs", "1", "--timeout", "10m", folder])
        // With one job, b.flow's grader starts once a.flow is graded.
        let started = waitFor { Self.processes().contains { $0.contains("grade-file") && $0.contains(folder + "/b.flow") } }
        #expect(started)
        if signal == SIGINT { process.interrupt() } else { process.terminate() }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(text.contains("a.flow"), "\(text)")
        #expect(text.hasSuffix("stopped by \(signal == SIGINT ? "Ctrl-C" : "SIGTERM"): 1 file not graded\n"), "\(text)")
        #expect(!Self.processes().contains { $0.contains("grade-file") && $0.contains(folder + "/b.flow") }, "the child was left running")
    }

    /// A signal before the first student is graded, while the key is read
    /// from a FIFO that never ends (a read that waits for ever): the grader
    /// ends at once, 128 + the signal, having started no child and printed
    /// nothing.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalBeforeTheFirstStudentEndsTheGrader(_ signal: Int32) throws {
        let folder = temporaryPath("interrupted-early")
        try FileManager.default.createDirectory(atPath: folder + "/class", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "test \"quick\" { expect(just(1)).toBe(\"(a|)\", a: 1) }\n".write(toFile: folder + "/class/a.flow", atomically: true, encoding: .utf8)
        #expect(mkfifo(folder + "/key.flow", 0o600) == 0)
        let (process, out, err) = try FlowProcess.start(["grade", "--key", "key.flow", "class"], in: URL(fileURLWithPath: folder))
        // The FIFO opens for writing once the grader has it open to read;
        // held open and never written, the grader's read waits.
        var writer: Int32 = -1
        #expect(waitFor { writer = open(folder + "/key.flow", O_WRONLY | O_NONBLOCK); return writer >= 0 }, "the grader never opened the key")
        defer { if writer >= 0 { close(writer) } }
        kill(process.processIdentifier, signal)
        let ended = waitFor { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        #expect(ended, "the grader did not answer the signal while reading the key")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        #expect(out.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(err.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(!Self.processes().contains { $0.contains("grade-file") && $0.contains(folder) }, "a child was started")
    }

    /// A signal as soon as the first student's child has ended, so between
    /// two students (or as the next one starts): the first row is printed,
    /// the others are counted as not graded, and no child is left running.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalBetweenStudentsPrintsTheRowsSoFar(_ signal: Int32) throws {
        let folder = temporaryPath("interrupted-between")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Long enough for its child to be seen.
        try "test \"counts\" { var n = 0; for i in 0..<200000 { n += 1 }; expect(just(n)).toBe(\"(a|)\", a: 200000) }\n"
            .write(toFile: folder + "/a.flow", atomically: true, encoding: .utf8)
        for name in ["b", "c"] {
            try "test \"quick\" { expect(just(1)).toBe(\"(a|)\", a: 1) }\n".write(toFile: folder + "/\(name).flow", atomically: true, encoding: .utf8)
        }
        let (process, out, _) = try FlowProcess.start(["grade", "--jobs", "1", folder])
        let first = { Self.processes().contains { $0.contains("grade-file") && $0.contains(folder + "/a.flow") } }
        #expect(waitFor(first), "a.flow's child was never seen")
        #expect(waitFor { !first() }, "a.flow's child never ended")
        kill(process.processIdentifier, signal)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        let lines = text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains { $0.hasSuffix("a.flow 1 of 1 1 of 1") }, "\(text)")
        #expect(text.hasSuffix("stopped by \(signal == SIGINT ? "Ctrl-C" : "SIGTERM"): 2 files not graded\n"), "\(text)")
        #expect(!Self.processes().contains { $0.contains("grade-file") && $0.contains(folder) }, "a child was left running")
    }

    /// Grades three students whose failing tests have long names (a report
    /// of about 500 KB) in `folder`, and returns once the report fills its
    /// unread pipe (64 KiB): the report is then being written and the
    /// grader waits to write more.
    static func gradeUntilTheReportFillsItsPipe(_ folder: String) throws -> (process: Process, out: Pipe) {
        let name = String(repeating: "t", count: 30_000)
        for student in ["a", "b", "c"] {
            let tests = (0..<3).map { "test \"\(name)\($0)\" { expect(just(1)).toBe(\"(a|)\", a: 2) }\n" }.joined()
            try tests.write(toFile: folder + "/\(student).flow", atomically: true, encoding: .utf8)
        }
        let (process, out, _) = try FlowProcess.start(["grade", "--details", folder])
        let reader = out.fileHandleForReading.fileDescriptor
        #expect(waitFor {
            var waiting: Int32 = 0
            return ioctl(reader, UInt(FIONREAD), &waiting) == 0 && waiting >= 60_000
        }, "the report never filled its pipe")
        return (process, out)
    }

    /// A signal while the report is written (every student graded, the
    /// report's pipe full and unread): the report stops where it is, says
    /// why, and the grader ends 128 + the signal.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringTheReportCutsItShort(_ signal: Int32) throws {
        let folder = temporaryPath("interrupted-report")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (process, out) = try Self.gradeUntilTheReportFillsItsPipe(folder)
        #expect(!Self.processes().contains { $0.contains("grade-file") && $0.contains(folder) })
        kill(process.processIdentifier, signal)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        #expect(text.hasPrefix("file "), "\(text.prefix(200))")
        #expect(text.utf8.count < 400_000, "the report was not cut: \(text.utf8.count) bytes")
        #expect(text.hasSuffix("\nstopped by \(signal == SIGINT ? "Ctrl-C" : "SIGTERM"): the report was being written\n"), "\(text.suffix(300))")
    }

    /// A signal while the report waits on a reader that never reads (a
    /// pipe nobody drains): the grader does not wait for ever, it ends,
    /// 128 + the signal, after a grace of seconds.
    @Test func aSignalEndsAReportNobodyReads() throws {
        let folder = temporaryPath("interrupted-unread")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (process, out) = try Self.gradeUntilTheReportFillsItsPipe(folder)
        kill(process.processIdentifier, SIGTERM)
        // Nothing is read until it has ended.
        let ended = waitFor { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        #expect(ended, "the grader waited for ever on a report nobody reads")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM)
    }

    /// The command lines of this machine's processes.
    static func processes() -> [String] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return ids.filter { $0.allSatisfy(\.isNumber) }.compactMap { id in
            guard let data = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") else { return nil }
            return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
    }

    @Test func reportsForProgramsParseWhateverTheScriptsPrint() throws {
        let files = ["alice.flow", "frank.flow", "jill.flow"].map { "students/" + $0 }
        let json = try FlowProcess.run(["test", "--format", "json"] + files, in: Self.classFolder, timeout: 300)
        let report = try Self.json(json.out)
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.count == 7)
        let frank = (report["files"] as? [[String: Any]] ?? []).first { ($0["file"] as? String)?.hasSuffix("frank.flow") == true }
        #expect((frank?["output"] as? String ?? tests.compactMap { $0["output"] as? String }.joined()).contains("I print things"), "\(json.out)")

        let junit = try FlowProcess.run(["test", "--format", "junit"] + files, in: Self.classFolder, timeout: 300)
        let parser = XMLParser(data: Data(junit.out.utf8))
        #expect(parser.parse(), "not well-formed XML: \(junit.out)")
        #expect(junit.out.contains("<system-out>I print things\n"), "\(junit.out)")

        let tap = try FlowProcess.run(["test", "--format", "tap"] + files, in: Self.classFolder, timeout: 300)
        for line in tap.out.split(separator: "\n") {
            let fits = line.hasPrefix("ok ") || line.hasPrefix("not ok ") || line.hasPrefix("# ") || line.hasPrefix("  ")
                || line == "TAP version 13" || line.hasPrefix("1..")
            #expect(fits, "not a TAP line: \(line)")
        }
        #expect(tap.out.contains("# I print things"))
    }

    @Test func theReportCanGoToAFile() throws {
        let report = temporaryPath("report.json")
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = try FlowProcess.run(["test", "--format", "json", "--output", report, "students/bob.flow"], in: Self.classFolder, timeout: 300)
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(try Self.json(written)["failed"] as? Int == 1)
    }
}

extension GradeTests {
    /// The README's class report and CSV are what grading the test class prints.
    @Test(arguments: [["students"], ["--format", "csv", "students"]])
    func theReadmeClassReportIsTrue(_ arguments: [String]) throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let command = "$ cd Tests/FlowCLITests/Class && flow grade --key key.flow \(arguments.joined(separator: " "))\n"
        let start = try #require(readme.range(of: command))
        let block = try #require(readme[start.upperBound...].components(separatedBy: "```").first)
        let result = try FlowProcess.run(["grade", "--key", "key.flow"] + arguments, in: Self.classFolder, timeout: 600)
        #expect(result.status == 0)
        #expect(result.out == block, "\n--- README\n\(block)--- flow\n\(result.out)")
    }
}

extension GradeTests {
    /// Runs python3 on `input`: the reports are read back by the readers
    /// a teacher's tools use, not by flow's own.
    static func python(_ program: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 could not read it:\n\(input)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The rows of a CSV as Python's csv module reads them.
    static func csvRows(_ text: String) throws -> [[String]] {
        let json = try python("import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))", input: text)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
    }

    /// A JSON report as Python's json module reads it (strictly: no NaN).
    static func pythonJSON(_ text: String) throws -> [String: Any] {
        let parsed = try python("import json, sys; print(json.dumps(json.load(sys.stdin, parse_constant=lambda c: 1/0)))", input: text)
        return try json(parsed)
    }

    @Test(arguments: [["--key", "key.flow"], []])
    func everyReportAgreesToThePoint(_ key: [String]) throws {
        let text = try Self.grade(key + ["students"]), csv = try Self.grade(key + ["--format", "csv", "students"])
        let json = try Self.grade(key + ["--format", "json", "students"])
        let report = try Self.pythonJSON(json.out)
        let rows = try #require(report["files"] as? [[String: Any]])
        let table = try Self.csvRows(csv.out)
        let header = try #require(table.first)
        let earnedColumn = try #require(header.firstIndex(of: "points earned")), possibleColumn = try #require(header.firstIndex(of: "points possible"))
        #expect(table.count == rows.count + 1)
        var earnedByFile: [String: Int] = [:]
        for (cells, row) in zip(table.dropFirst(), rows) {
            let file = try #require(row["file"] as? String)
            #expect(cells[0] == file)
            // Each row's test columns add up to its total, which is JSON's.
            let perTest = cells[1..<earnedColumn].compactMap { Int($0) }.reduce(0, +)
            #expect(perTest == Int(cells[earnedColumn]), "\(cells)")
            #expect(Int(cells[earnedColumn]) == row["points"] as? Int && Int(cells[possibleColumn]) == row["possiblePoints"] as? Int, "\(cells) \(row)")
            let results = try #require(row["results"] as? [[String: Any]])
            #expect(results.compactMap { $0["points"] as? Int }.reduce(0, +) == row["points"] as? Int)
            #expect(results.compactMap { $0["possible"] as? Int }.reduce(0, +) == row["possiblePoints"] as? Int)
            // On a key, what is possible is the key's whatever the file holds.
            if !key.isEmpty { #expect(row["possiblePoints"] as? Int == 3, "\(row)") }
            // The text row says the same.
            let line = try #require(text.out.split(separator: "\n").first { $0.hasPrefix(file + " ") }, "\(file) in\n\(text.out)")
            #expect(line.contains("  \(row["points"] as? Int ?? -1) of \(row["possiblePoints"] as? Int ?? -1)"), "\(line) \(row)")
            earnedByFile[file] = row["points"] as? Int
        }
        // The class summary is computed over the same points.
        let summary = try #require(report["summary"] as? [String: Any])
        let earned = earnedByFile.values.reduce(0, +), possible = rows.compactMap { $0["possiblePoints"] as? Int }.reduce(0, +)
        #expect(abs((summary["meanPoints"] as? Double ?? -1) - Double(earned) / Double(rows.count)) < 1e-9)
        #expect(text.out.contains("\(rows.count) files: ") && text.out.contains(", \(earned) of \(possible) points"), "\(text.out)")
    }
}
