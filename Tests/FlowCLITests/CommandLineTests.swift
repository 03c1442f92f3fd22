import Foundation
import FlowRuntime
import FlowTestSupport
import Testing

/// The `flow` executable, run as a user runs it.
@Suite struct CommandLineTests {
    static func flow(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> FlowProcess.Result {
        try FlowProcess.run(arguments, stdin: stdin, in: directory ?? projectDirectory)
    }

    static func script(_ text: String) throws -> String { try scriptFile(text) }

    @Test func runsAScriptAndItsSubscriptions() throws {
        let path = try Self.script("range(1, 3).map { $0 * 10 }.sink { print($0) }\n")
        let result = try Self.flow([path])
        #expect(result.status == 0)
        #expect(result.out == "10\n20\n30\n")
        #expect(try Self.flow(["run", path]).out == "10\n20\n30\n")
        #expect(try Self.flow(["run", "--virtual", path]).out == "10\n20\n30\n")
    }

    @Test func liveTimeIsRealAndTheScriptEndsWhenIdle() throws {
        let path = try Self.script("interval(20ms).take(3).print(\"tick\")\n")
        let start = Date()
        let result = try Self.flow([path])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0)
        #expect(result.out.contains("tick: receive value: (2)"))
        #expect(result.out.hasSuffix("tick: receive finished\n"))
        // At least the three ticks' time; the upper bound only catches a run
        // that does not end when idle, however loaded the machine.
        #expect(elapsed >= 0.06 && elapsed < 120)
    }

    /// A memory limit below what a run needs is refused before anything
    /// runs, by every command that takes one, as a usage error (exit 2)
    /// naming the option, the least it takes and what to write; accepted,
    /// it stopped `flow run` at its first statement. The least is enough
    /// for a live run whose whole process is watched.
    @Test func tooLittleMemoryIsRefusedByEveryCommand() throws {
        let path = try Self.script("interval(10ms).take(3).sink { print($0) }\n")
        for command in [["run"], ["run", "--virtual"], ["test"], ["repl"], ["serve"], ["slides", "--out", temporaryPath("never-made")]] {
            let result = try FlowProcess.run(command + ["--max-memory", "16MB"] + (command == ["repl"] ? [] : [path]),
                                             stdin: "", in: projectDirectory, timeout: 60)
            #expect(result.status == 2, "\(command): \(result.err)")
            #expect(result.err.contains("--max-memory 16MB is less than running a script needs: flow itself takes about 30 MB; "
                                        + "write --max-memory 64MB or more, such as 512MB or 1GB"), "\(command): \(result.err)")
            #expect(result.out.isEmpty, "\(command): \(result.out)")
        }
        let unreadable = try Self.flow(["run", "--max-memory", "lots", path])
        #expect(unreadable.status == 2)
        #expect(unreadable.err.contains("--max-memory takes a size such as 512MB or 1GB (at least 64MB), not 'lots'"), "\(unreadable.err)")
        let least = try Self.flow(["run", "--max-memory", "64MB", path])
        #expect(least.status == 0, "\(least.err)")
        #expect(least.out == "0\n1\n2\n")
    }

    @Test func standardInputAndShebang() throws {
        let source = "#!/usr/bin/env flow\njust(\"piped\").sink { print($0) }\n"
        #expect(try Self.flow(["-"], stdin: source).out == "piped\n")
        #expect(try Self.flow([], stdin: source).out == "piped\n")
    }

    @Test func scriptArguments() throws {
        let path = try Self.script("print(args.joined(separator: \",\"))\n")
        #expect(try Self.flow([path, "a", "b"]).out == "a,b\n")
    }

    @Test func exitCodes() throws {
        let failing = try Self.script("expect(just(1)).toBe(\"(2|)\")\n")
        let failed = try Self.flow([failing])
        #expect(failed.status == 1)
        #expect(failed.err.contains("expectation failed"))
        #expect(failed.err.contains("value differs at frame 0: expected next(2), got next(1)"))

        let erroring = try Self.script("just(0).map { 1 / $0 }.sink { print($0) }\n")
        let errored = try Self.flow([erroring])
        #expect(errored.status == 1)
        #expect(errored.err.contains(":1:17: error: division by zero"))
        #expect(errored.err.contains("just(0).map { 1 / $0 }"))

        let invalid = try Self.script("let x = just(1).debounc(1ms)\n")
        let rejected = try Self.flow([invalid])
        #expect(rejected.status == 3)
        #expect(rejected.err.contains("did you mean 'debounce'?"))

        #expect(try Self.flow(["run", "/no/such/file.flow"]).status == 2)
        #expect(try Self.flow(["--no-such-option"]).status == 2)
        #expect(try Self.flow(["check"]).status == 2)
    }

    /// A stream written as a statement at the top of a script runs and
    /// prints its values, as the REPL shows them; inside a test block it
    /// is only a description.
    @Test func aStreamStatementAtTheTopRunsAndPrints() throws {
        let script = try Self.script("""
            of(1, 2).map { $0 * 10 }
            just("a").print("p")
            test "described only" {
              of(3)
              expect(just(1)).toBe("(1|)")
            }
            """)
        let result = try Self.flow(["run", "--virtual", script])
        #expect(result.status == 0)
        #expect(result.out == "10\n20\np: receive subscription: (just)\np: request unlimited\np: receive value: (a)\np: receive finished\n")
        let tested = try Self.flow(["test", script])
        #expect(!tested.out.contains("3\n"))
        let failing = try Self.script("of(1).concat(error(\"boom\"))\n")
        let failed = try Self.flow(["run", "--virtual", failing])
        #expect(failed.status == 1)
        #expect(failed.out == "1\n")
        #expect(failed.err.contains("\(failing):1:14: error: boom"))
    }

    @Test func checkReportsEverythingWithoutRunning() throws {
        let bad = try Self.script("let a = nope\nlet b = alsoNope\n")
        let result = try Self.flow(["check", bad])
        #expect(result.status == 3)
        #expect(result.err.contains("unknown name 'nope'"))
        #expect(result.err.contains("unknown name 'alsoNope'"))
        #expect(result.err.contains("2 errors"))
        let good = try Self.script("interval(1s).print()\n")
        let ok = try Self.flow(["check", good])
        #expect(ok.status == 0)
        #expect(ok.out.contains("no problems found"))

        // Events after a marble's terminal event run (RxJS accepts them) but
        // are never delivered: a warning at the first one, exit 0.
        let late = try Self.script("let s = cold(\"--a--#--b--|\")\ns.print()\n")
        let warned = try Self.flow(["check", late])
        #expect(warned.status == 0)
        #expect(warned.out.contains("no errors, 1 warning"))
        #expect(warned.err.contains("\(late):1:23: warning: this event comes after '|' or '#' and is never delivered"))
        let both = try Self.script("let s = cold(\"-|-a\")\nlet t = nope\n")
        let failed = try Self.flow(["check", both])
        #expect(failed.status == 3)
        #expect(failed.err.contains("1 error, 1 warning"))
        // A run is not disturbed by the warning.
        let ran = try Self.flow(["run", late])
        #expect(ran.status == 1)
        #expect(ran.err.isEmpty == false && !ran.err.contains("warning"))
    }

    @Test func testCommandCountsAndFails() throws {
        let path = try Self.script("""
            test "passes" { expect(just(1)).toBe("(1|)") }
            test "fails" { expect(just(1)).toBe("-(1|)") }
            """)
        let result = try Self.flow(["test", path])
        #expect(result.status == 1)
        #expect(result.out.contains("✓ \(path): passes"))
        #expect(result.out.contains("✗ \(path): fails"))
        #expect(result.out.hasSuffix("1 passed, 1 failed\n"))
        // The failure's details follow its ✗ line, on the same stream.
        let failure = try #require(result.out.range(of: "✗ \(path): fails"))
        #expect(result.out[failure.upperBound...].contains("frame differs"))
    }

    /// The README's error is what `flow check` prints: each diagnostic's
    /// first line ends with its kind (docs/diagnostics.md), a warning's too,
    /// and the line still starts `file:line:col: error:` for tools.
    @Test func flowCheckEndsEachDiagnosticWithItsKindAsTheReadmeShows() throws {
        let folder = URL(fileURLWithPath: temporaryPath("check"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "let ticks = interval(100ms)\nlet slow = ticks.debounc(5ms)\n".write(to: folder.appendingPathComponent("slow.flow"), atomically: true, encoding: .utf8)
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let before = try #require(readme.range(of: "and every error names its place and suggests a fix"))
        let block = readme[before.upperBound...].components(separatedBy: "```\n")[1]
        let result = try Self.flow(["check", "slow.flow"], in: folder)
        #expect(result.status == 3)
        #expect(result.err == block + "1 error\n")
        #expect(result.err.hasPrefix("slow.flow:2:18: error: unknown method 'debounc' [unknown-member]\n"))
        // The same in `flow run`, and a warning's kind.
        #expect(try Self.flow(["run", "slow.flow"], in: folder).err.hasPrefix("slow.flow:2:18: error: unknown method 'debounc' [unknown-member]\n"))
        try "cold(\"-a|\").delay(1000).print()\n".write(to: folder.appendingPathComponent("warned.flow"), atomically: true, encoding: .utf8)
        let warned = try Self.flow(["check", "warned.flow"], in: folder)
        #expect(warned.status == 0)
        #expect(warned.err.hasPrefix("warned.flow:1:19: warning: 1000 is read as 1000 milliseconds, as RxJS reads it [implicit-milliseconds]\n"), "\(warned.err)")
    }

    @Test func aTestThatDoesNotCompileFailsAloneWithItsErrors() throws {
        let path = try Self.script("""
            let source = cold("-1-2|")
            test "one" { expect(source).toBe("-1-2|") }
            test "two" { expect(source.mapp { $0 }).toBe("-1-2|") }
            test "three" {
              expect(source.map { $0 * }).toBe("-1-2|")
            }
            test "four" {
              expect(source.filter { $0 > 1 ).toBe("---2|")
            }
            test "five" { expect(source.take(1)).toBe("-(1|)") }
            """)
        let result = try Self.flow(["test", path])
        #expect(result.status == 1)
        #expect(result.out.contains("✓ \(path): one\n"))
        // Each failure's compile errors follow its ✗ line.
        let two = try #require(result.out.range(of: "✗ \(path): two (the test does not compile)\n"))
        #expect(result.out[two.upperBound...].hasPrefix("\(path):3:28: error: unknown method 'mapp'"))
        #expect(result.out.contains("✗ \(path): three (the test does not compile)\n\(path):5:28: error: expected an expression"))
        // An unclosed bracket swallows the next block: both fail, neither is dropped.
        #expect(result.out.contains("✗ \(path): four (the test does not compile)"))
        #expect(result.out.contains("✗ \(path): five (the test does not compile)"))
        #expect(result.out.hasSuffix("1 passed, 4 failed\n"))
    }

    static let gradedScript = """
        test "right" { expect(just(1)).toBe("(1|)") }
        test "wrong" { expect(just(2)).toBe("(1|)") }
        test "broken" { expect(just(1).mapp { $0 }).toBe("(1|)") }
        """

    @Test func testResultsAsJSONForAnAutograder() throws {
        let path = try Self.script(Self.gradedScript)
        let result = try Self.flow(["test", "--format", "json", path])
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(report["passed"] as? Int == 1)
        #expect(report["failed"] as? Int == 2)
        let tests = try #require(report["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["right", "wrong", "broken"])
        #expect(tests.map { $0["status"] as? String } == ["passed", "failed", "test does not compile"])
        #expect((tests[1]["details"] as? String)?.contains("value differs") == true)
        #expect((tests[2]["details"] as? String)?.contains("unknown method 'mapp'") == true)
    }

    @Test func testResultsAsTAPAndJUnit() throws {
        let path = try Self.script(Self.gradedScript)
        let tap = try Self.flow(["test", "--format", "tap", path])
        #expect(tap.status == 1)
        let lines = tap.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "TAP version 13")
        #expect(lines.last == "1..3")
        #expect(lines.contains("ok 1 - \(path): right"))
        #expect(lines.contains("not ok 2 - \(path): wrong"))
        #expect(lines.contains("not ok 3 - \(path): broken"))
        let junit = try Self.flow(["test", "--format", "junit", path])
        #expect(junit.out.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"3\" failures=\"2\">"))
        #expect(junit.out.contains("<testcase classname=\"\(path)\" name=\"right\"/>"))
        #expect(junit.out.components(separatedBy: "<failure message=").count == 3)
        #expect(junit.out.contains("toBe(&quot;(1|)&quot;)"), "special characters are escaped")
    }

    @Test func gradingAClassGivesOneRowPerFileWithTestsAndPoints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-class-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let exercise = { (doubled: String, taken: String) in """
            let source = cold("-1-2-3|")
            test "doubles" (points: 2) { expect(source.map { $0 * 2 }).toBe("\(doubled)") }
            test "take" { expect(source.take(2)).toBe("\(taken)") }
            """ }
        try exercise("-2-4-6|", "-1-(2|)").write(to: folder.appendingPathComponent("alice.flow"), atomically: true, encoding: .utf8)
        try exercise("-2-4-8|", "???").write(to: folder.appendingPathComponent("bob.flow"), atomically: true, encoding: .utf8)
        // An unclosed bracket outside the tests: the file does not compile.
        let carol = "let source = cold(\"-1|\"\n" + exercise("-2|", "-1|").split(separator: "\n").dropFirst().joined(separator: "\n")
        try carol.write(to: folder.appendingPathComponent("carol.flow"), atomically: true, encoding: .utf8)
        let result = try Self.flow(["grade", folder.path])
        #expect(result.status == 0, "grading succeeds whatever the grades")
        let lines = result.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.first == "file tests points")
        // A folder given by its absolute path: its files are named relative to it.
        #expect(lines.contains("alice.flow 2 of 2 3 of 3"))
        #expect(lines.contains("bob.flow 0 of 2 0 of 3"))
        #expect(lines.contains("carol.flow 0 of 2 0 of 3 does not compile"))
        #expect(lines.contains("3 files: 2 of 6 tests passed, 3 of 9 points; 1 file does not compile"))
        // Then the class as a whole.
        #expect(lines.contains("class: points per file: mean 1, median 0"), "\(result.out)")
        #expect(lines.contains("doubles 1 of 3") && lines.contains("take 1 of 3"))
        #expect(lines.last == "most failed: doubles (2 of 3), take (2 of 3)")
        // --hide-actual is --feedback where: where the answer is wrong, not what is right.
        let hidden = try Self.flow(["grade", "--details", "--hide-actual", folder.appendingPathComponent("bob.flow").path])
        #expect(hidden.out.contains("expectation failed: value differs at frame 5\n"), "\(hidden.out)")
        #expect(!hidden.out.contains("actual:"))
        #expect(hidden.out.contains("not answered yet"))
        let json = try Self.flow(["grade", "--format", "json", folder.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["points"] as? Int } == [3, 0, 0])
        #expect(files.map { $0["possiblePoints"] as? Int } == [3, 3, 3])
    }

    @Test func anExerciseLeftAsQuestionMarksIsNotAnsweredYet() throws {
        let path = try Self.script("""
            let source = cold("-1-2|")
            test "exercise" { expect(source.map { $0 * 2 }).toBe("???") }
            test "example" { expect(source.take(1)).toBe("-(1|)") }
            """)
        let check = try Self.flow(["check", path])
        #expect(check.status == 0)
        #expect(check.err.contains("warning: this expectation is not answered yet"))
        let result = try Self.flow(["test", path])
        #expect(result.status == 1)
        // The reason follows the ✗ line on standard output, not a diff of three '?' values.
        #expect(result.out.contains("✗ \(path): exercise\n\(path):2:19: error: not answered yet"), "\(result.out)")
        #expect(result.out.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func testCommandCountsTheTestsOfAFileThatDoesNotCompile() throws {
        // An error outside every test block fails them all, by name.
        let path = try Self.script("""
            let broken = just(1).mapp { $0 }
            test "one" { expect(just(1)).toBe("(1|)") }
            test "two" { expect(just(1)).toBe("(1|)") }
            """)
        let result = try Self.flow(["test", path])
        #expect(result.status == 3)
        #expect(result.out.contains("✗ \(path): one (the file does not compile)"))
        #expect(result.out.contains("✗ \(path): two (the file does not compile)"))
        #expect(result.out.hasSuffix("0 passed, 2 failed; 1 file does not compile\n"))
        #expect(result.err.contains("unknown method 'mapp'"))
    }

    @Test func testCommandSearchesFolders() throws {
        let result = try Self.flow(["test", "Tests/FlowLanguageTests/Scripts"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains(" passed, 0 failed"))
    }

    @Test func versionAndHelp() throws {
        #expect(try Self.flow(["--version"]).out == "0.1.0\n")
        let help = try Self.flow(["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("flow test examples"))
        #expect(help.out.contains("Exit codes"))
    }
}

extension CommandLineTests {
    @Test func aVirtualRunThatNeverEndsFailsSayingSo() throws {
        let path = try Self.script("interval(1ms).map { $0 }.sink { _ in }\n")
        let result = try Self.flow(["run", "--virtual", path])
        #expect(result.status == 1)
        #expect(result.err.contains(":1:1: error: the run never went idle"), "\(result.err)")
    }
}

extension CommandLineTests {
    @Test func marblesForEveryBindingWithAScale() throws {
        let path = try Self.script("let ticks = interval(1s).take(3)\nlet doubled = ticks.map { $0 * 2 }\n")
        let result = try Self.flow(["run", "--virtual", "--marbles", path])
        #expect(result.status == 0)
        // The finest scale that fits 72 columns: 50 ms.
        #expect(result.out == """
                     0         500ms     1s        1.5s      2s        2.5s      3s
            ticks    --------------------0-------------------1-------------------(2|)
            doubled  --------------------0-------------------2-------------------(4|)
            legend   - = 50ms

            """)
        let framed = try Self.flow(["run", "--virtual", "--marbles", "--frame", "1s", path])
        #expect(framed.out.contains("ticks    -01(2|)"))
        #expect(try Self.flow(["run", "--marbles", "--frame", "soon", path]).status == 2)
    }

    @Test func wideLanesAndNoColourWhenPiped() throws {
        let path = try Self.script("let words = cold(\"-a--b|\", a: \"hello\", b: \"world\")\nmarbles(words)\n")
        let wide = try Self.flow(["run", "--virtual", "--wide", path])
        #expect(wide.out.contains("words  -hello--world|"))
        let plain = try Self.flow(["run", "--virtual", path])
        #expect(!plain.out.contains("\u{1B}["))
        #expect(plain.out.contains("legend a = \"hello\", b = \"world\""))
    }
}

extension CommandLineTests {
    /// The README's trace: each stage by its operator, each inner stream
    /// by the value it was made for.
    @Test func theReadmesTraceIsWhatFlowPrints() throws {
        let path = try Self.script(#"cold("-a--b-|").flatMapLatest { v in cold("-x--y|") }.map { $0 + "!" }.sink { _ in }"# + "\n")
        let result = try Self.flow(["run", "--trace", path])
        #expect(result.status == 0)
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("$ flow run --trace latest.flow\n" + result.out), "\(result.out)")
    }

    @Test func tracingEveryStage() throws {
        let path = try Self.script("""
            let source = cold("-a--b-|")
            source.flatMapLatest { v in cold("-x--y|") }.map { $0 + "!" }.sink { _ in }
            """)
        let result = try Self.flow(["run", "--virtual", "--trace", "--subscriptions", path])
        #expect(result.status == 0)
        #expect(result.out == """
                                                   0    5
            source                                 -a--b-|
              subscription                         ^-----!
            flatMapLatest { v in cold("-x--y|") }  --x--x--y|
              ↳ for a                               -x-!
              ↳ for b                                  -x--y|
            map { $0 + "!" }                       --c--c--d|
            legend                                 c = "x!", d = "y!"

            """)
    }

    /// `--trace` draws a stream of streams nested, as `marbles(...)` does:
    /// in the text, and in the SVG, where each group's line begins at the
    /// mark of the value that made it and stops at its `|`.
    @Test func aTracedStreamOfGroupsIsDrawnNested() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-trace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.script("""
            let groups = cold("-1-2-3-4|").groupBy { $0 % 2 }
            groups.subscribe()
            """)
        let result = try Self.flow(["run", "--virtual", "--trace", "--svg", folder + "/trace.svg", path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == """
                                         0    5
            cold("-1-2-3-4|")            -1-2-3-4|
            groups = groupBy { $0 % 2 }  -a-b----|
              ↳ group 1                   1---3--|
              ↳ group 0                     2---4|
            legend                       a = cold("1---3--|"), b = cold("2---4|")

            """)
        let geometry = SVGGeometry(try String(contentsOfFile: folder + "/trace.svg", encoding: .utf8))
        let groupMarks = geometry.marks.filter { $0.lane == 1 }.sorted { $0.event < $1.event }
        #expect(groupMarks.count == 3)
        for (lane, made) in [(2, 0), (3, 1)] {
            let line = try #require(geometry.laneLines.first { $0.lane == lane })
            let end = try #require(geometry.marks.filter { $0.lane == lane }.max { $0.event < $1.event })
            #expect(abs(line.x1 - groupMarks[made].x) < 0.01, "lane \(lane) begins at \(line.x1), its group was made at \(groupMarks[made].x)")
            #expect(line.ends == "completed" && abs(line.x2 - end.x) < 0.01, "lane \(lane)")
        }
    }
}

extension CommandLineTests {
    @Test func svgFilesForARunAndForEveryOperator() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-doc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let all = try Self.flow(["doc", "--all", "--svg", folder])
        #expect(all.status == 0, "\(all.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".svg") }
        #expect(files.count == FlowRuntime.operatorTable.entries.count)
        let map = try String(contentsOfFile: folder + "/map.svg", encoding: .utf8)
        #expect(map.hasPrefix("<?xml") && map.contains("<circle"))

        let script = try Self.script("let a = cold(\"-a-b|\")\nmarbles(a.map { $0 + \"!\" })\n")
        let svgPath = folder + "/run.svg"
        let run = try Self.flow(["run", "--virtual", "--svg", svgPath, script])
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: svgPath, encoding: .utf8).contains("a!"))
        #expect(try Self.flow(["run", "--virtual", "--svg", "/no/such/folder/x.svg", script]).status == 2)
    }
}

extension CommandLineTests {
    /// The README's first picture: the same, exact lanes on every run,
    /// because a script of marbles alone runs in virtual time.
    @Test func theReadmeFirstPictureIsWhatTheExampleDraws() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let afterCommand = try #require(readme.range(of: "`swift run flow examples/purchase.flow` prints the lanes"))
        let block = readme[afterCommand.upperBound...].components(separatedBy: "```\n")[1]
        for _ in 0..<3 {
            let result = try Self.flow(["examples/purchase.flow"])
            #expect(result.status == 0)
            #expect(result.out == block)
            #expect(result.err.contains("ran in virtual time"))
        }
    }

    @Test func aScriptWithALiveSourceRunsOnTheWallClock() throws {
        let timed = try Self.script("marbles(cold(\"-a|\"))\ninterval(5ms).take(1).print(\"t\")\n")
        let result = try Self.flow([timed])
        #expect(result.status == 0)
        #expect(!result.err.contains("virtual time"))
        let forced = try Self.flow(["run", "--live", "examples/purchase.flow"])
        #expect(forced.status == 0)
        #expect(!forced.err.contains("virtual time"))
        #expect(forced.out.contains("balance"))
        let both = try Self.flow(["run", "--live", "--virtual", "examples/purchase.flow"])
        #expect(both.status == 2)
        #expect(both.err.contains("two clocks"))
    }
}

extension CommandLineTests {
    /// `--marbles` on the live clock draws what the run's own subscription
    /// saw: a stream with side effects (a request) is not run again to
    /// draw it; a stream the run never subscribed is recorded for its lane.
    @Test func marblesOnTheLiveClockDoNotSubscribeAgain() throws {
        let path = try Self.script("""
            let s = deferred { () -> Stream in
              print("subscribed")
              return timer(5ms)
            }
            s.sink { _ in }
            let unused = timer(3ms)
            """)
        let result = try Self.flow(["run", "--marbles", path])
        #expect(result.status == 0)
        #expect(result.out.components(separatedBy: "subscribed").count == 2, "\(result.out)")
        // Where on the wall clock the timers fired, and so the scale,
        // depends on the machine's load.
        let lines = result.out.split(separator: "\n")
        // The timer's value and its end are read from the clock a few
        // microseconds apart: on a busy machine they may round to two columns.
        let endsWithTheTimersValue = { (line: Substring) in line.hasSuffix("(0|)") || line.hasSuffix("-0|") }
        #expect(lines.contains { $0.hasPrefix("s       ") && endsWithTheTimersValue($0) }, "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("unused  ") && endsWithTheTimersValue($0) }, "\(result.out)")
        // marbles(...) on the live clock too: the lane is what the sink saw.
        let drawn = try Self.script("""
            let s = deferred { () -> Stream in
              print("subscribed")
              return timer(5ms)
            }
            s.sink { _ in }
            marbles(title: "live", s)
            """)
        let live = try Self.flow([drawn])
        #expect(live.status == 0)
        #expect(live.out.components(separatedBy: "subscribed").count == 2, "\(live.out)")
        #expect(live.out.contains("live\n"))
        #expect(live.out.split(separator: "\n").contains { $0.hasPrefix("s  ") && endsWithTheTimersValue($0) }, "\(live.out)")
    }
}

extension CommandLineTests {
    static var rendererAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") }

    @Test(.enabled(if: rendererAvailable, "rsvg-convert is not installed (Debian's librsvg2-bin; .ci/run installs it)"))
    func pngPicturesSizedForASlide() throws {
        let png = temporaryPath("diagram.png")
        defer { try? FileManager.default.removeItem(atPath: png) }
        let result = try Self.flow(["run", "--png", png, "--width", "640", "examples/purchase.flow"])
        #expect(result.status == 0, "\(result.err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The PNG's width, from its header.
        #expect(bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == 640)
    }

    @Test func pngWithoutARendererIsAClearError() throws {
        let png = temporaryPath("diagram.png")
        let result = try FlowProcess.run(["PATH=/nonexistent", FlowProcess.defaultBinary.path, "run", "--png", png, "examples/purchase.flow"],
                                         in: projectDirectory, binary: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 2)
        #expect(result.err.contains("--png needs rsvg-convert"))
        #expect(!FileManager.default.fileExists(atPath: png))
        let badWidth = try Self.flow(["run", "--width", "640", "examples/purchase.flow"])
        #expect(badWidth.status == 2)
        #expect(badWidth.err.contains("--width sizes the picture of --svg or --png"))
    }
}

extension CommandLineTests {
    /// `--marbles` draws the run the script made: bound streams from the
    /// run's own subscriptions (no side effect happens again to draw them),
    /// and a stream `marbles(...)` draws is not drawn a second time.
    @Test(arguments: [["run", "--marbles"], ["run", "--live", "--marbles"]])
    func marblesFlagDrawsTheRunItselfOnce(_ command: [String]) throws {
        let path = try Self.script("""
            let src = cold("-a-b|").map { v -> String in print("side effect", v); return v }
            let up = src.map { $0.uppercased() }
            up.sink { print("got", $0) }
            let unused = cold("--x|")
            """)
        let result = try Self.flow(command + [path])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("side effect") } == ["side effect a", "side effect b"], "\(result.out)")
        for lane in ["src ", "up ", "unused "] { #expect(lines.filter { $0.hasPrefix(lane) }.count == 1, "\(lane): \(result.out)") }
        #expect(lines.contains { $0.hasPrefix("up ") && $0.contains("A") && $0.contains("B") })

        let drawnOnce = try Self.script("let src = cold(\"-a-b|\")\nmarbles(src)\nsrc.sink { _ in }\n")
        let again = try Self.flow(command + [drawnOnce])
        #expect(again.out.split(separator: "\n").filter { $0.hasPrefix("src ") }.count == 1, "\(again.out)")
    }
}
