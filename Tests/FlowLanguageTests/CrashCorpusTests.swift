import Foundation
import FlowTestSupport
import Testing

/// Hostile scripts, each run as a user runs it, in a subprocess: none may
/// crash (trap, segfault), hang, or fail without saying where.
///
/// Each file in `CrashCorpus/` says how to run it and what to expect in
/// its first comment lines:
///
///     # args: run --virtual        the command before the file
///     # exit: 1                    the exit status
///     # stderr: text               text standard error must contain (repeatable)
///     # stdout: text               text standard output must contain
///     # address space: 2048         run under `ulimit -v` of that many megabytes
///     # timeout: 300                 seconds it may take, if more than a minute
// Serialized: each case is a subprocess, and on two cores running them all
// at once only slows the rest of the suite (the terminal tests among them).
@Suite(.serialized) struct CrashCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("CrashCorpus")

    static var scripts: [String] { flowFiles(in: folder) }

    @Test(arguments: scripts)
    func hostileScriptEndsCleanly(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var arguments = ["run"], exit: Int32?, stderr: [String] = [], stdout: [String] = [], megabytes: Int?, timeout = 60.0
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where line.hasPrefix("# ") {
            let field = line.dropFirst(2)
            if field.hasPrefix("args: ") { arguments = field.dropFirst(6).split(separator: " ").map(String.init) }
            if field.hasPrefix("exit: ") { exit = Int32(field.dropFirst(6)) }
            if field.hasPrefix("stderr: ") { stderr.append(String(field.dropFirst(8))) }
            if field.hasPrefix("stdout: ") { stdout.append(String(field.dropFirst(8))) }
            if field.hasPrefix("address space: ") { megabytes = Int(field.dropFirst(15)) }
            if field.hasPrefix("timeout: ") { timeout = Double(field.dropFirst(9)) ?? timeout }
        }
        let result = try megabytes.map { try FlowProcess.runLimited(arguments + [path], megabytes: $0, timeout: timeout) }
            ?? FlowProcess.run(arguments + [path], in: Self.folder, timeout: timeout)
        #expect(!result.timedOut, "\(name) did not finish within \(Int(timeout)) s")
        #expect(!result.crashed, "\(name) crashed: \(result.status)\n\(result.err.prefix(2000))")
        if let exit { #expect(result.status == exit, "\(result.err.prefix(2000))") }
        if result.status != 0 {
            // Every failure names the file, line and column (flow test reports
            // its failures on standard output, the other commands on standard error).
            let report = arguments.first == "test" ? result.out : result.err
            #expect(report.contains(try Regex(#"\.flow:\d+:\d+"#)), "\(report.prefix(2000))")
        }
        for expected in stderr { #expect(result.err.contains(expected), "\(result.err.prefix(3000))") }
        for expected in stdout { #expect(result.out.contains(expected), "\(result.out.prefix(3000))") }
    }

    /// Scripts large enough that a quadratic step would take minutes; each
    /// must be checked within the timeout (linear time takes about a second
    /// in a debug build).
    static let largeScripts: [String: String] = [
        "blank lines": String(repeating: "\n", count: 100_000) + "let x = 1\n",
        "comment lines": String(repeating: "# note\n", count: 100_000) + "let x = 1\n",
        "a long sum": "let x = " + Array(repeating: "1", count: 100_000).joined(separator: " + ") + "\n",
        "a large dictionary": "let d = [" + (0..<40_000).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "]\nlet n = d.count\n",
        // As long as a chain may be (10 000 calls and members).
        "a long chain": "let s = just(0)" + String(repeating: ".startWith(1)", count: 4_900) + "\n",
    ]

    @Test(arguments: largeScripts.keys.sorted())
    func largeScriptsCompileInLinearTime(_ shape: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-large-\(UUID().uuidString).flow").path
        try Self.largeScripts[shape]!.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run(["run", "--virtual", path], timeout: 60)
        #expect(!result.timedOut, "\(shape): not done within a minute")
        #expect(result.status == 0, "\(shape): \(result.err.prefix(1000))")
    }
}

/// Random scripts from `ScriptGenerator`, compiled and run in virtual time
/// as subprocesses: none may crash, hang, or fail without saying where.
/// The seeds are fixed so a run reproduces; `Benchmarks/fuzz` tries many
/// more with fresh seeds (docs/reliability.md).
@Suite(.serialized) struct RunningFuzzTests {
    @Test(arguments: 0..<4)
    func generatedScriptsRunToACleanEnd(batch: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<12 {
            let seed = UInt64(1000 * batch + index)
            var generator = ScriptGenerator(seed: seed)
            let script = generator.script()
            let path = folder.appendingPathComponent("fuzz-\(seed).flow").path
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            // With a memory budget, in an address space of 4 GB (the large
            // stacks are reserved in it): no generated script may trap.
            let result = try FlowProcess.runLimited(["run", "--virtual", "--max-memory", "256MB", path], megabytes: 4096, timeout: 60)
            let context = "seed \(seed) (ScriptGenerator(seed: \(seed)).script()):\n\(script)\n\(result.err.prefix(1500))"
            #expect(!result.timedOut, "hung: \(context)")
            #expect(!result.crashed && !result.err.contains("Fatal error"), "crashed with \(result.status): \(context)")
            #expect([0, 1, 3].contains(result.status), "exit \(result.status): \(context)")
            if result.status != 0 {
                #expect(result.err.contains(try Regex(#"\.flow:\d+:\d+"#)), "no location: \(context)")
            }
        }
    }
}
