import Foundation
import FlowTestSupport
import Testing

/// Demand end to end: a file ten times larger than another, read into a
/// slow sink, takes no more memory than the smaller one, give or take a
/// fixed bound; and `--max-memory` ends a run whose process grows past it
/// with an error at the stage that holds the values.
@Suite(.serialized) struct BoundedMemoryTests {
    /// What separates the two runs' peaks at most: the sink's batches and a
    /// chunk of the file, not the file. Without demand the larger file's
    /// run holds the whole file (36 MB more here).
    static let fixedBound = 12 << 20

    /// A file of `count` lines of 4 KiB.
    private func linesFile(_ count: Int) throws -> String {
        let path = temporaryPath("bounded-\(count)-\(UUID().uuidString).txt")
        let filler = String(repeating: "x", count: 4089)
        var text = ""
        text.reserveCapacity(count * 4097)
        for i in 0..<count { text += String(format: "%06d ", i) + filler + "\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `flow run` on `script` and returns its result and its peak
    /// resident size in bytes (the child's, as the kernel counted it).
    private func runMeasured(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (FlowProcess.Result, Int) {
        let path = temporaryPath("bounded-\(UUID().uuidString).flow")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let measure = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:])
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            sys.exit(done.returncode)
            """
        var result = try FlowProcess.run(["-c", measure, FlowProcess.binary.path, "run", "--max-memory", "400MB", path] + arguments,
                                         binary: URL(fileURLWithPath: "/usr/bin/python3"), timeout: 600, environment: environment)
        var lines = result.err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        let peak = (lines.popLast().flatMap { Int($0) } ?? -1) * 1024
        result.err = lines.joined(separator: "\n")
        return (result, peak)
    }

    private func expectBounded(small: Int, large: Int, _ what: String) {
        #expect(small > 0 && large > 0)
        #expect(large - small < Self.fixedBound,
                "\(what): the 10x file peaked at \(large >> 20) MB, the 1x file at \(small >> 20) MB")
    }

    /// `concatMap` behind a slow inner, into `file.write`: the file is read
    /// as the inners finish, not ahead of them.
    @Test func aSlowConcatMapIntoFileWriteStaysBounded() throws {
        let script = "file.lines(args[0]).concatMap { line in just(line).delay(.milliseconds(1)) }.sink(file.write(args[1]))\n"
        var peaks: [Int] = []
        for count in [1000, 10_000] {
            let input = try linesFile(count)
            let output = temporaryPath("bounded-out-\(count).txt")
            defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
            let (result, peak) = try runMeasured(script, [input, output])
            #expect(result.status == 0, "\(result.err)")
            let written = try String(contentsOfFile: output, encoding: .utf8)
            #expect(written.utf8.count == count * 4097 && written.hasSuffix(String(format: "%06d ", count - 1) + String(repeating: "x", count: 4089) + "\n"))
            peaks.append(peak)
        }
        expectBounded(small: peaks[0], large: peaks[1], "concatMap into file.write")
    }

    /// A database sink slower than the file (each row a statement that
    /// waits a millisecond on the server): the file is read as batches commit.
    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func aSlowDatabaseSinkStaysBounded() throws {
        let table = TestDatabase.uniqueName("bounded")
        try TestDatabase.sql("CREATE TABLE \(table) (line text)")
        let script = #"file.lines(args[0]).sink(pg.execute("INSERT INTO \#(table) (line) SELECT $1 FROM pg_sleep(0.001)"))"# + "\n"
        var peaks: [Int] = []
        for count in [600, 6000] {
            try TestDatabase.sql("TRUNCATE \(table)")
            let input = try linesFile(count)
            defer { try? FileManager.default.removeItem(atPath: input) }
            let (result, peak) = try runMeasured(script, [input], environment: ["DATABASE_URL": TestDatabase.url ?? ""])
            #expect(result.status == 0, "\(result.err)")
            #expect(try TestDatabase.sql("SELECT count(DISTINCT left(line, 6)), min(length(line)) FROM \(table)") == "\(count)|4096")
            peaks.append(peak)
        }
        expectBounded(small: peaks[0], large: peaks[1], "file.lines into pg.execute")
    }

    /// A source that cannot stop (`range` is a loop) feeding a queue that
    /// grows: the process passes `--max-memory` and the run ends with an
    /// error at the `concatMap` holding the queue.
    @Test func overMaxMemoryTheStageHoldingValuesIsNamed() throws {
        let path = temporaryPath("over-\(UUID().uuidString).flow")
        try "let numbers = range(0, 200_000_000)\nnumbers.concatMap { n in just(n).delay(.milliseconds(1)) }.sink { _ in }\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run(["run", "--max-memory", "120MB", path], timeout: 300)
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("\(path):2:9"), "\(result.err)")
        #expect(result.err.contains("memory limit of 120 MB reached: the process holds"), "\(result.err)")
        #expect(result.err.contains("concatMap holds") && result.err.contains("streams queued"), "\(result.err)")
    }

    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func overMaxMemoryADatabaseSinkIsNamed() throws {
        let table = TestDatabase.uniqueName("overfull")
        try TestDatabase.sql("CREATE TABLE \(table) (n int)")
        let path = temporaryPath("over-\(UUID().uuidString).flow")
        try #"range(0, 200_000_000).map { (n: $0) }.sink(pg.insert("\#(table)"))"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FlowProcess.run(["run", "--max-memory", "120MB", path], timeout: 300, environment: ["DATABASE_URL": TestDatabase.url ?? ""])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains(#"pg.insert("\#(table)") holds"#) && result.err.contains("rows not yet written"), "\(result.err)")
        #expect(result.err.contains("\(path):1:"), "\(result.err)")
    }
}
