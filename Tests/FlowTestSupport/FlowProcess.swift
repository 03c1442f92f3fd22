import Foundation

/// The built `flow` executable, started as a user starts it: shared by the
/// test targets that drive the command line.
public enum FlowProcess {
    /// The `flow` a test or a driver runs: beside the test bundle, or
    /// beside the running program (the drivers in Benchmarks/).
    public static var binary: URL { defaultBinary }

    public static var defaultBinary: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flow")
        if !CommandLine.arguments[0].contains(".xctest"), FileManager.default.fileExists(atPath: beside.path) { return beside }
        return besideTestBundle
    }

    /// `flow` sits beside the test bundle in the build folder.
    static var besideTestBundle: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathExtension != "xctest" && url.path != "/" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("flow")
    }

    /// How a run of `flow` ended.
    public struct Result {
        public var status: Int32
        public var out: String
        public var err: String
        /// Ended by a signal: a trap, a segfault, or the caller's timeout.
        public var signalled = false
        /// Killed at the caller's timeout.
        public var timedOut = false
        /// Ended by a trap or a fault (or a crash handler's exit status
        /// above 128), not by exiting normally.
        public var crashed: Bool { !timedOut && (signalled || status >= 128) }
    }

    /// Runs `flow` to the end and collects what it wrote. With a `timeout`
    /// (seconds), a run still going then is killed and reported as
    /// `timedOut`, so a hang fails its test instead of stalling the suite.
    public static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil,
                           binary: URL = defaultBinary, timeout: Double? = nil, environment: [String: String] = [:]) throws -> Result {
        let (process, out, err) = try start(arguments, stdin: stdin, in: directory, binary: binary, environment: environment)
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Result(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData, as: UTF8.self),
                      signalled: process.terminationReason == .uncaughtSignal,
                      timedOut: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    /// Every thread's stack of a process that hangs, from gdb (which CI
    /// installs), before the test kills it: a hang seen once in a hundred
    /// runs on a loaded machine is then explained by the log of that run.
    /// A test may trace its own child (Yama's ptrace scope 1 allows it).
    public static func threadBacktraces(of pid: Int32) -> String {
        let gdb = "/usr/bin/gdb"
        guard FileManager.default.isExecutableFile(atPath: gdb) else { return "(no backtrace: gdb is not installed)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdb)
        process.arguments = ["-p", String(pid), "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt 40"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return "(no backtrace: \(error))" }
        // gdb itself can hang once attached (seen: asleep in pselect for 20
        // minutes with every thread of its inferior stopped); it ignores
        // SIGTERM then, so it is killed, which also detaches it.
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        killer.cancel()
        // gdb's own chatter (symbol loading) is dropped; the threads are kept.
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }
            .joined(separator: "\n")
    }

    /// Runs `flow` as `run` does, in an address space limited to `megabytes`
    /// (the shell's `ulimit -v`): what counting cannot stop, the process
    /// limit does, and the run must still end cleanly, never in a trap.
    public static func runLimited(_ arguments: [String], megabytes: Int, binary: URL = defaultBinary, timeout: Double? = nil) throws -> Result {
        try run(["-c", "ulimit -v \(megabytes * 1024) && exec \"$0\" \"$@\"", binary.path] + arguments,
                binary: URL(fileURLWithPath: "/bin/sh"), timeout: timeout)
    }

    /// Starts `flow` without colour, writes `stdin` and closes it; the caller
    /// reads the output pipes and waits.
    public static func start(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil,
                             binary: URL = defaultBinary, environment extra: [String: String] = [:]) throws -> (process: Process, out: Pipe, err: Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        return (process, out, err)
    }
}

