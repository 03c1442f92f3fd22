import Foundation
import FlowTestSupport
import Testing

/// Waits for `condition` (FlowTestSupport's `waitFor`); fails the test if it never holds.
func waitUntil(seconds: Double = waitingDeadline, sourceLocation: Testing.SourceLocation = #_sourceLocation,
               _ condition: () -> Bool) throws {
    if !waitFor(seconds: seconds, condition) { Issue.record("waited \(seconds)s in vain", sourceLocation: sourceLocation) }
}

@Suite struct CommandLineIOTests {
    @Test func standardInputLines() throws {
        let script = temporaryPath("stdin.flow")
        try "stdin.lines().map { $0.uppercased() }.sink { print($0) }\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        for mode in [["run"], ["run", "--virtual"]] {
            let (process, out, _) = try FlowProcess.start(mode + [script], stdin: "a\nb\nc")
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(text == "A\nB\nC\n")
        }
    }

    /// Ctrl-C, SIGTERM, a closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT)
    /// stop a live run cleanly: the lanes drawn so far are printed, and a
    /// file.write whose stream had not ended leaves its target as it was,
    /// with nothing beside it.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aStopCancelsEverythingAndKeepsFilesWhole(_ signal: Int32) throws {
        let script = temporaryPath("ticks.flow"), output = temporaryPath("ticks.txt")
        try "before\n".write(toFile: output, atomically: true, encoding: .utf8)
        try """
            let ticks = interval(20ms)
            ticks.map { "tick \\($0)" }.sink(file.write("\(output)"))
            marbles(ticks)
            """.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script); try? FileManager.default.removeItem(atPath: output) }
        let (process, out, err) = try FlowProcess.start([script])
        // Stop once the run is under way (two ticks written to the
        // temporary file), however slow the machine is to start it.
        try waitUntil { (partialFile(of: output).flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "").split(separator: "\n").count >= 2 }
        kill(process.processIdentifier, signal)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == [SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131][signal])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "before\n")
        #expect(partialFile(of: output) == nil)
        #expect(message.contains("flow: nothing was written to \(output) (its stream was stopped before it ended); it keeps its old contents"),
                "\(message)")
        let lane = text.split(separator: "\n").first { $0.hasPrefix("ticks") } ?? ""
        // Ticks 0 and 1 in order, then the stop. How far apart they are
        // drawn is the wall clock's: on a loaded machine a late tick is
        // delivered with the next, in one group ((01), or [01] where the
        // next event follows at once), or after a wait that breaks the
        // axis (63ms  0-----1).
        #expect(lane.contains(try Regex("0.*1.*!")), "\(text)")
    }
}

extension CommandLineIOTests {
    /// At the file-size limit (`ulimit -f`) flow is not killed (SIGXFSZ,
    /// exit 153): file.write fails, keeping the old file whole and nothing
    /// beside it; file.append stops before a line that would be cut.
    @Test func theFileSizeLimitEndsAWriteAsAFailure() throws {
        let folder = URL(fileURLWithPath: temporaryPath("fsize"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "before\n".write(to: folder.appendingPathComponent("big.txt"), atomically: true, encoding: .utf8)
        try "x\n".write(to: folder.appendingPathComponent("log.txt"), atomically: true, encoding: .utf8)
        try #"range(0, 100000).map { "line \($0) of the file" }.sink(file.write("big.txt"))"#.write(
            to: folder.appendingPathComponent("write.flow"), atomically: true, encoding: .utf8)
        try #"range(0, 100000).map { "line \($0) of the file" }.sink(file.append("log.txt"))"#.write(
            to: folder.appendingPathComponent("append.flow"), atomically: true, encoding: .utf8)
        for script in ["write.flow", "append.flow"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--fsize=16384", FlowProcess.binary.path, "run", script]
            process.currentDirectoryURL = folder
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(script): \(message)")
            if script == "write.flow" {
                #expect(message.contains("write.flow:1:61: error: cannot write big.txt: File too large"), "\(message)")
                #expect(message.contains("nothing was written to big.txt"), "\(message)")
                #expect(try String(contentsOf: folder.appendingPathComponent("big.txt"), encoding: .utf8) == "before\n")
                #expect(partialFile(of: folder.appendingPathComponent("big.txt").path) == nil)
            } else {
                #expect(message.contains("cannot append to log.txt: the line would take it past the file-size limit (16384 bytes"), "\(message)")
                let text = try String(contentsOf: folder.appendingPathComponent("log.txt"), encoding: .utf8)
                #expect(text.utf8.count <= 16384 && text.hasSuffix(" of the file\n"))
            }
        }
    }

    /// Two file.write sinks on one file at once: the second is refused,
    /// naming the first, instead of its rename silently replacing the
    /// first's lines.
    @Test func twoWritersOfOneFileAreAnError() throws {
        let folder = URL(fileURLWithPath: temporaryPath("two-writers"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            interval(10ms).take(3).map { "first \\($0)" }.sink(file.write("out.txt"))
            interval(10ms).take(3).map { "second \\($0)" }.sink(file.write("./out.txt"))

            """.write(to: folder.appendingPathComponent("two.flow"), atomically: true, encoding: .utf8)
        let result = try FlowProcess.run(["run", "two.flow"], in: folder, timeout: 60)
        #expect(result.status == 1)
        #expect(result.err.contains("two.flow:2:57: error: file.write \"./out.txt\": file.write at two.flow:1:56 writes it now too"),
                "\(result.err)")
        #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == "first 0\nfirst 1\nfirst 2\n")
    }

    /// Two writers of one file in one run are an error also one after the
    /// other: the first has finished and let go of the file, but the second
    /// would still replace its lines. The error is at the second, naming
    /// the first, shown as every runtime error is; the file keeps the
    /// first's lines. On the live clock and in virtual time alike.
    @Test func twoWritersOfOneFileOneAfterTheOtherAreAnError() throws {
        let folder = URL(fileURLWithPath: temporaryPath("sequential-writers"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            of("a", "b").sink(file.write("out.txt"))
            of("c").sink(file.write("out.txt"))
            print("not reached")

            """.write(to: folder.appendingPathComponent("seq.flow"), atomically: true, encoding: .utf8)
        for mode in [["run"], ["run", "--virtual"]] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("out.txt"))
            let result = try FlowProcess.run(mode + ["seq.flow"], in: folder, timeout: 60)
            #expect(result.status == 1, "\(mode): \(result.err)")
            #expect(result.err.hasPrefix("""
                seq.flow:2:19: error: file.write "out.txt": file.write at seq.flow:1:24 writes it in this run too, and the one put in place \
                last would replace the other's lines: merge the streams into one file.write, or write two files
                 2 | of("c").sink(file.write("out.txt"))
                   |                   ^
                """), "\(mode): \(result.err)")
            #expect(!result.out.contains("not reached"))
            #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == "a\nb\n", "\(mode)")
        }
    }

    /// `file.write` and `file.append` of one file in one run, either way
    /// round, are an error at the second; two appends are not (each line
    /// is kept), and neither is one `file.write` call made again for each
    /// event, which replaces its own file (a status file).
    @Test func writingAndAppendingOneFileInOneRun() throws {
        let folder = URL(fileURLWithPath: temporaryPath("write-and-append"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(script: String, status: Int32, error: String?, file: String, text: String)] = [
            ("of(\"a\").sink(file.write(\"f.txt\"))\nof(\"b\").sink(file.append(\"f.txt\"))\n", 1,
             "w.flow:2:19: error: file.append \"f.txt\": file.write at w.flow:1:19 replaces it in this run, so what is appended would be lost "
                + "or land before its lines: write the file with one of them, or write two files", "f.txt", "a\n"),
            ("of(\"a\").sink(file.append(\"g.txt\"))\nof(\"b\").sink(csv.write(\"g.txt\"))\n", 1,
             "w.flow:2:18: error: csv.write \"g.txt\": file.append at w.flow:1:19 appends to it in this run, and csv.write would replace "
                + "what was appended: write the file with one of them, or write two files", "g.txt", "a\n"),
            ("of(\"a\").sink(file.append(\"h.txt\"))\nof(\"b\").sink(file.append(\"./h.txt\"))\n", 0, nil, "h.txt", "a\nb\n"),
            ("of(1, 2, 3).sink { n in of(\"status \\(n)\").sink(file.write(\"status.txt\")) }\n", 0, nil, "status.txt", "status 3\n"),
        ]
        for item in cases {
            try item.script.write(to: folder.appendingPathComponent("w.flow"), atomically: true, encoding: .utf8)
            let result = try FlowProcess.run(["run", "w.flow"], in: folder, timeout: 60)
            #expect(result.status == item.status, "\(item.script): \(result.err)")
            if let error = item.error { #expect(result.err.contains(error), "\(item.script): \(result.err)") }
            #expect(try String(contentsOf: folder.appendingPathComponent(item.file), encoding: .utf8) == item.text, "\(item.script)")
        }
    }

    /// The claim lasts a run: each test block of `flow test` is a run of
    /// its own, so two tests may each write one file; two writers inside
    /// one test fail that test.
    @Test func eachTestBlockIsARunOfItsOwnForItsFiles() throws {
        let folder = URL(fileURLWithPath: temporaryPath("test-writers"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            test "first" {
              of("1").sink(file.write("out.txt"))
            }
            test "second" {
              of("2").sink(file.write("out.txt"))
            }
            test "both" {
              of("3").sink(file.write("out.txt"))
              of("4").sink(file.write("out.txt"))
            }

            """.write(to: folder.appendingPathComponent("t.flow"), atomically: true, encoding: .utf8)
        let result = try FlowProcess.run(["test", "t.flow"], in: folder, timeout: 60)
        #expect(result.status == 1, "\(result.out)\(result.err)")
        let report = result.out + result.err
        #expect(report.contains("t.flow:9:21: error: file.write \"out.txt\": file.write at t.flow:8:21 writes it in this run too"), "\(report)")
        #expect(report.contains("2 passed, 1 failed") || report.contains("2 of 3"), "\(report)")
    }

    /// In the REPL each line is a run: writing a file on one line and again
    /// on a later one replaces it, as running a command again would.
    @Test func eachREPLLineIsARunOfItsOwnForItsFiles() throws {
        let folder = URL(fileURLWithPath: temporaryPath("repl-writers"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try FlowProcess.run(["repl"], stdin: """
            of("one").sink(file.write("out.txt"))
            of("two").sink(file.write("out.txt"))
            of("three").sink(file.write("out.txt")); of("four").sink(file.write("out.txt"))

            """, in: folder, timeout: 60)
        #expect(result.err.contains("file.write \"out.txt\": file.write at <input-3>:1:23 writes it in this run too"), "\(result.err)")
        #expect(!result.err.contains("<input-2>"), "\(result.err)")
        #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == "three\n")
    }

    /// Output that cannot be written is an error (exit 1), not a silent success.
    @Test func aFullDiskOnStandardOutputIsAFailure() throws {
        let script = temporaryPath("print.flow")
        try "of(1, 2, 3).sink { print($0) }\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        for mode in [["run"], ["run", "--virtual"]] {
            let process = Process()
            process.executableURL = FlowProcess.binary
            process.arguments = mode + [script]
            process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let err = Pipe()
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
            #expect(message.contains("flow: cannot write to standard output: No space left on device"), "\(message)")
        }
    }

    @Test func aBadSVGPathIsReportedBeforeTheRun() throws {
        let script = temporaryPath("svg.flow")
        try "of(1).sink { print(\"ran\") }\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", "--svg", "/no/such/folder/out.svg", script], timeout: 60)
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("flow: cannot write /no/such/folder/out.svg: No such file or directory"))
    }

    /// Synchronous work holds the loop; Ctrl-C still ends the run.
    /// A `range` counted in one go keeps the loop busy: it looks at the
    /// interrupt now and then and gives the loop back, so the run stops as
    /// any other does, and the statements after it do not start.
    @Test func controlCStopsABusyRun() throws {
        let script = temporaryPath("busy.flow")
        try """
            print("started")
            range(0, 9223372036854775807).count().sink { print($0) }
            print("not reached")
            """.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let (process, out, err) = try FlowProcess.start([script])
        readUntil("started", from: out)
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(!message.contains("the run was busy"), "the range did not give the loop back: \(message)")
        #expect(!rest.contains("not reached"))
        #expect(Date().timeIntervalSince(interrupted) < 10)
    }

    /// Loops nested three deep, a thousand rounds each (10^9 in all, none
    /// long enough to reach a stride of its own): Ctrl-C and SIGTERM stop
    /// them at once, saying which, not the watchdog half a second later.
    @Test(arguments: [(SIGINT, Int32(130), "Ctrl-C"), (SIGTERM, Int32(143), "SIGTERM")])
    func aSignalStopsShortNestedLoops(_ signal: Int32, _ status: Int32, _ name: String) throws {
        let script = temporaryPath("nested-\(signal).flow")
        try """
            var n = 0
            for i in 0..<1000 {
              if i == 0 { print("started") }
              for j in 0..<1000 { for k in 0..<1000 { n += 1 } }
            }
            print("not reached")
            """.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let (process, out, err) = try FlowProcess.start([script])
        readUntil("started", from: out)
        kill(process.processIdentifier, signal)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        #expect(message.contains(try Regex(#"nested-\d+\.flow:4:\d+: error: loop stopped by "# + name)), "\(message)")
        #expect(!message.contains("the run was busy"), "the loops did not give the loop back: \(message)")
        #expect(!rest.contains("not reached"))
    }

    /// A live run stuck in a deinit chain (each Hen's deinit makes two,
    /// sixty deep: 2^61 deinits, never deep enough for the depth limit):
    /// Ctrl-C ends the chain itself, at once, with one located error and
    /// exit 130; not the watchdog half a second later, after a flood of
    /// errors from each deinit still queued. Nothing after it runs. SIGTERM
    /// the same, exit 143.
    @Test(arguments: [(SIGINT, "Ctrl-C", Int32(130)), (SIGTERM, "SIGTERM", Int32(143))])
    func aSignalEndsALiveRunStuckInADeinitChain(_ signal: Int32, _ name: String, _ status: Int32) throws {
        let script = temporaryPath("hens-\(UUID().uuidString).flow")
        try Self.endlessHens.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let (process, out, err) = try FlowProcess.start([script])
        readUntil("deep in the chain", from: out)
        kill(process.processIdentifier, signal)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(message.suffix(2000))")
        #expect(!message.contains("the run was busy"), "the chain did not notice the stop: \(message.suffix(2000))")
        let errors = message.components(separatedBy: " error: ").count - 1
        #expect(errors == 1, "\(errors) errors: \(message.prefix(2000))")
        #expect(message.contains(try Regex(#"hens-[-0-9A-F]+\.flow:7:\d+: error: making Hen stopped by "# + name)), "\(message.prefix(2000))")
        #expect(!rest.contains("not reached"))
    }

    /// Each Hen's deinit makes two, sixty deep: a chain no limit but a stop ends.
    static let endlessHens = """
        var deep = false
        class Hen {
          let generation: Int
          init(_ generation: Int) { self.generation = generation }
          deinit {
            if generation == 60 && !deep { deep = true; print("deep in the chain") }
            if generation < 60 { let _ = Hen(generation + 1); let _ = Hen(generation + 1) }
          }
        }
        var hen: Hen? = Hen(0)
        hen = nil
        print("not reached")
        """

    /// Reading a FIFO with no writer waits off the loop: Ctrl-C ends it.
    @Test func controlCStopsARunWaitingOnAFIFO() throws {
        let fifo = temporaryPath("pipe"), script = temporaryPath("fifo.flow")
        #expect(mkfifo(fifo, 0o600) == 0)
        try "print(\"started\")\nfile.lines(\"\(fifo)\").sink { print($0) }\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: fifo); try? FileManager.default.removeItem(atPath: script) }
        let (process, out, err) = try FlowProcess.start([script])
        readUntil("started", from: out)
        kill(process.processIdentifier, SIGINT)
        _ = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
    }

    /// A virtual-time diagram in the REPL cannot wait for HTTP on the
    /// REPL's own loop: it says so instead of tripping the loop.
    @Test func httpInsideAREPLDiagramIsRefusedClearly() throws {
        let result = try FlowProcess.run(["repl"], stdin: ":marble http.get(\"http://127.0.0.1:9/\")\n", timeout: 60)
        #expect(!result.crashed)
        // The diagram shows the error, as it does any stream's.
        #expect(result.out.contains("cannot be requested inside a virtual-time diagram here"), "\(result.out)")
    }

    /// examples/log-summary.flow on the live clock: lines appended while it
    /// follows the log end up summarised in the file it writes.
    @Test func logSummaryExampleFollowsALog() throws {
        let log = temporaryPath("app.log"), summary = temporaryPath("summary.txt")
        try "INFO up\nERROR disk\n".write(toFile: log, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: log); try? FileManager.default.removeItem(atPath: summary) }
        let started = Date()
        let (process, _, _) = try FlowProcess.start([projectDirectory.appendingPathComponent("examples/log-summary.flow").path, log, summary])
        // Append once the first summary is written, so the new lines come
        // while the log is being tailed.
        try waitUntil { !(partialFile(of: summary).flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "").isEmpty }
        if let handle = FileHandle(forWritingAtPath: log) {
            handle.seekToEndOfFile()
            handle.write(Data("ERROR net\nINFO fine\n".utf8))
            try handle.close()
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Date().timeIntervalSince(started) >= 2 && Date().timeIntervalSince(started) < 30)
        let lines = try String(contentsOfFile: summary, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "1 errors, last: ERROR disk")
        #expect(lines.last == "2 errors, last: ERROR net")
    }
}
