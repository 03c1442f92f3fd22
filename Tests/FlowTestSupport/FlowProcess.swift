import Foundation

/// The built `flow` executable, started as a user starts it: shared by the
/// test targets that drive the command line.
public enum FlowProcess {
    /// `flow` sits beside the test bundle in the build folder.
    public static var binary: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathExtension != "xctest" && url.path != "/" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("flow")
    }

    /// How a run of `flow` ended.
    public struct Result {
        public var status: Int32
        public var out: String
        public var err: String
    }

    /// Runs `flow` to the end and collects what it wrote.
    public static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> Result {
        let (process, out, err) = try start(arguments, stdin: stdin, in: directory)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                      err: String(decoding: errData, as: UTF8.self))
    }

    /// Starts `flow` without colour, writes `stdin` and closes it; the caller
    /// reads the output pipes and waits.
    public static func start(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> (process: Process, out: Pipe, err: Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
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
