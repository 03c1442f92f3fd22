import Foundation
import FlowTestSupport
import Testing

/// What cron and systemd expect of a job, through the real command:
/// `env` under `--allow-env`, `args`, `exit(code)` and the contract's exit
/// statuses, standard input closed or empty, `log` and `--log-level`,
/// `print(to: &standardError)`, and `Date()` on the run's clock.
@Suite struct OperationsCommandTests {
    /// Writes `text` as a script and runs `flow` with `arguments` (where
    /// "SCRIPT" stands for the script's path).
    func run(_ text: String, _ arguments: [String] = ["SCRIPT"], environment: [String: String] = [:],
             stdin: String? = nil) throws -> FlowProcess.Result {
        let script = temporaryPath("job.flow")
        try text.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        return try FlowProcess.run(arguments.map { $0 == "SCRIPT" ? script : $0 }, stdin: stdin, timeout: waitingDeadline,
                                   environment: environment)
    }

    @Test func envIsGrantedByNameAndDeniedWithTheFlagThatGrantsIt() throws {
        let script = #"print(env["FLOW_TEST_TOKEN"] ?? "unset", env["FLOW_TEST_UNSET"] ?? "unset")"# + "\n" + #"print(env["FLOW_TEST_OTHER"]!)"# + "\n"
        let variables = ["FLOW_TEST_TOKEN": "s3cret", "FLOW_TEST_OTHER": "other"]
        let all = try run(script, ["run", "--allow-env", "SCRIPT"], environment: variables)
        #expect(all.status == 0 && all.out == "s3cret unset\nother\n", "\(all)")

        let named = try run(script, ["run", "--allow-env=FLOW_TEST_TOKEN,FLOW_TEST_UNSET", "SCRIPT"], environment: variables)
        #expect(named.status == 1)
        #expect(named.out == "s3cret unset\n", "\(named.out)")
        #expect(named.err.contains(":2:7"), "\(named.err)")
        #expect(named.err.contains(#"env["FLOW_TEST_OTHER"]: reading environment variables other than FLOW_TEST_TOKEN, FLOW_TEST_UNSET is not allowed (flow run --allow-env=FLOW_TEST_OTHER grants it)"#),
                "\(named.err)")
        #expect(!named.err.contains("other\n"), "a denied variable's value never shows")

        // Nothing is granted by default, not even by `flow run`.
        let none = try run(script, ["run", "SCRIPT"], environment: variables)
        #expect(none.status == 1 && none.out.isEmpty)
        #expect(none.err.contains("reading the environment is not allowed (flow run --allow-env=FLOW_TEST_TOKEN grants it)"), "\(none.err)")

        let denied = try run(script, ["run", "-A", "--deny-env=FLOW_TEST_OTHER", "SCRIPT"], environment: variables)
        #expect(denied.status == 1 && denied.out == "s3cret unset\n")
        #expect(denied.err.contains("reading the environment variable FLOW_TEST_OTHER is denied by flow run --deny-env"), "\(denied.err)")
    }

    /// `env` is read a name at a time: listing, walking or changing it is
    /// an error that says so, never a message about a closure.
    @Test func envIsReadANameAtATimeAndNeverChanged() throws {
        let changed = try run(#"env["FLOW_TEST_TOKEN"] = "x""# + "\n", ["run", "--allow-env", "SCRIPT"])
        #expect(changed.status == 3, "\(changed)")
        #expect(changed.err.contains(":1:1: error: 'env' cannot be changed: it is flow's env module"), "\(changed.err)")
        #expect(!changed.err.contains("unknown name"), "\(changed.err)")
        for (script, message) in [("print(env.count)", "env has no member 'count': it is read a variable at a time"),
                                  ("for (k, v) in env { print(k, v) }", "a for loop cannot walk env: it is read a variable at a time")] {
            let result = try run(script + "\n", ["run", "--allow-env", "SCRIPT"])
            #expect(result.status == 1 && result.err.contains(message), "\(script): \(result)")
            #expect(!result.err.contains("Closure"), "\(script): \(result.err)")
        }
    }

    @Test func argsAreTheWordsAfterTheScript() throws {
        let result = try run("print(args.count, args)\n", ["SCRIPT", "--since", "2024-01-01", "x y"])
        #expect(result.status == 0 && result.out == #"3 ["--since", "2024-01-01", "x y"]"# + "\n", "\(result)")
    }

    /// 0 success, 1 a stream that failed, 2 bad usage, 3 a script that does
    /// not compile, and whatever the script's `exit` chooses.
    @Test func exitStatusesFollowTheContractAndTheScript() throws {
        #expect(try run("print(1)\n").status == 0)
        #expect(try run("error(\"boom\").sink { print($0) }\n").status == 1)
        #expect(try run("print(1)\n", ["run", "--no-such-flag", "SCRIPT"]).status == 2)
        #expect(try run("let = 3\n").status == 3)

        // An uncaught stream error's status is the script's choice.
        let chosen = try run("""
            error("upstream down").subscribe(onNext: { print($0) }, onError: { e in
              print("failed:", e)
              exit(4)
            })
            print("not reached")
            """)
        #expect(chosen.status == 4, "\(chosen)")
        #expect(chosen.out == "failed: upstream down\n", "\(chosen.out)")
        #expect(chosen.err.isEmpty, "an exit is the script's way out, not an error: \(chosen.err)")

        // From a live timer, with a file being written: the run stops at
        // once, and the unfinished file is not left behind.
        let output = temporaryPath("partial.txt")
        let live = try run("""
            interval(10ms).sink(file.write("\(output)"))
            timer(50ms).sink { _ in exit(7) }
            """)
        #expect(live.status == 7, "\(live)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(partialFile(of: output) == nil)
        for mode in [["run"], ["run", "--virtual"]] {
            #expect(try run("timer(5ms).sink { _ in exit(0) }\ninterval(1ms).sink { _ in }\n", mode + ["SCRIPT"]).status == 0)
        }
        let outOfRange = try run("exit(256)\n")
        #expect(outOfRange.status == 1 && outOfRange.err.contains("exit takes a status from 0 to 255, not 256"), "\(outOfRange)")
    }

    /// A job under cron or systemd has standard input empty (/dev/null) or
    /// closed: reading it ends at once, it never waits.
    @Test func standardInputClosedOrEmptyEndsAtOnce() throws {
        let script = temporaryPath("stdin.flow")
        try "stdin.lines().count().sink { print(\"lines:\", $0) }\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        for redirect in ["</dev/null", "<&-"] {
            let result = try FlowProcess.run(["-c", "exec \"$0\" \"$1\" \(redirect)", FlowProcess.binary.path, script],
                                             binary: URL(fileURLWithPath: "/bin/sh"), timeout: waitingDeadline)
            #expect(result.status == 0 && result.out == "lines: 0\n", "\(redirect): \(result)")
        }
    }

    @Test func logLinesGoToStandardErrorWithTheTimeAndALevel() throws {
        let script = """
            log.debug("detail")
            log.info("loaded", 3, "rows")
            log.warn("slow")
            log.error("failed")
            print("data")
            print("to stderr", 1, to: &standardError)
            """
        let line = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO |WARN |ERROR) .+$"#)
        let normal = try run(script)
        #expect(normal.status == 0 && normal.out == "data\n", "\(normal)")
        let lines = normal.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(normal.err)")
        #expect(lines.prefix(3).allSatisfy { $0.wholeMatch(of: line) != nil }, "\(normal.err)")
        #expect(lines.first?.hasSuffix(" INFO  loaded 3 rows") == true && lines[1].hasSuffix(" WARN  slow") && lines[2].hasSuffix(" ERROR failed"))
        #expect(lines.last == "to stderr 1")

        let quiet = try run(script, ["run", "--log-level", "error", "SCRIPT"])
        #expect(quiet.err.split(separator: "\n").count == 2 && quiet.err.contains("ERROR failed") && !quiet.err.contains("WARN"), "\(quiet.err)")
        let verbose = try run(script, ["run", "--log-level=debug", "SCRIPT"])
        #expect(verbose.err.contains("DEBUG detail"), "\(verbose.err)")
        let bad = try run(script, ["run", "--log-level", "loud", "SCRIPT"])
        #expect(bad.status == 2, "\(bad)")

        // In virtual time, the times are the run's: 1970 plus the virtual time.
        let virtual = try run("timer(2s).sink { _ in log.info(\"tick\") }\n", ["run", "--virtual", "SCRIPT"])
        #expect(virtual.err == "1970-01-01T00:00:02.000Z INFO  tick\n", "\(virtual)")
    }

    @Test func dateIsTheWallClockOnALiveRun() throws {
        let before = Date().timeIntervalSince1970
        let result = try run("print(Date().timeIntervalSince1970)\n")
        let after = Date().timeIntervalSince1970
        let printed = try #require(Double(result.out.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result)")
        #expect(printed >= before - 1 && printed <= after + 1)
    }
}
