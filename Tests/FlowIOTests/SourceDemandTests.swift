import Foundation
import FlowTestSupport
import Testing

/// Each I/O source reads only as far as its consumer asks: a large source
/// (100 MB of lines, 200 000 rows) behind a slow consumer that takes 300
/// values and stops. The script counts what the source handed on; a source
/// that ignored demand hands on everything before the 300th value is taken
/// (the consumer's queue says "enough" at 256), so the count is the proof.
/// Where the test feeds the source itself (standard input, the HTTP server),
/// it also counts what the source took from it.
@Suite(.serialized) struct SourceDemandTests {
    /// Lines of 4 KiB in the sources the test makes.
    static let lineLength = 4096
    /// What a source may hand on at most: the 300 taken, the consumer's
    /// queue (256), a few chunks of 64 KiB read ahead, a page of rows (512).
    static let bound = 2000

    /// The slow consumer, behind `source`: prints how many values the
    /// source handed on once 300 were taken.
    static func script(_ source: String) -> String {
        """
        var handedOn = 0
        \(source)
          .do(onNext: { _ in handedOn += 1 })
          .concatMap { value in just(value).delay(.milliseconds(1)) }
          .take(300)
          .sink(receiveCompletion: { _ in print("handed on \\(handedOn)") }, receiveValue: { _ in })

        """
    }

    static func handedOn(_ out: String) -> Int? {
        out.split(separator: "\n").last { $0.hasPrefix("handed on ") }.flatMap { Int($0.dropFirst(10)) }
    }

    private func writeScript(_ source: String) throws -> String {
        let path = temporaryPath("demand-\(UUID().uuidString).flow")
        try Self.script(source).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static let line = String(repeating: "x", count: lineLength - 1) + "\n"

    /// 25 000 lines appended at once to a followed log.
    @Test func fileTailReadsNoFurtherThanAsked() throws {
        let log = temporaryPath("demand-tail.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let script = try writeScript(#"file.tail("\#(log)", every: 10ms)"#)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let (process, out, err) = try FlowProcess.start(["run", script])
        defer { if process.isRunning { process.terminate() } }
        let descriptors = "/proc/\(process.processIdentifier)/fd"
        try waitUntil {
            ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == log
            }
        }
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.write(Data(String(repeating: Self.line, count: 25_000).utf8))
        try handle.close()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let count = try #require(Self.handedOn(printed), "\(printed) \(said)")
        #expect((300..<Self.bound).contains(count), "file.tail handed on \(count) of 25000 lines")
    }

    /// 100 MB written into standard input by a writer that never waits:
    /// flow takes from the pipe only what it was asked for, so the writer
    /// is held back until flow exits.
    @Test func standardInputReadsNoFurtherThanAsked() throws {
        signal(SIGPIPE, SIG_IGN)
        let script = try writeScript("stdin.lines()")
        defer { try? FileManager.default.removeItem(atPath: script) }
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = ["run", script]
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try input.fileHandleForReading.close()
        let written = WrittenBytes()
        let writer = Thread {
            let chunk = Array(String(repeating: Self.line, count: 16).utf8)
            let fd = input.fileHandleForWriting.fileDescriptor
            for _ in 0..<1600 {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written.add(n)
            }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let count = try #require(Self.handedOn(printed), "\(printed) \(said)")
        #expect((300..<Self.bound).contains(count), "stdin.lines handed on \(count) of 25600 lines")
        // Flow has exited: the writer's next write failed and it stopped.
        try waitUntil { writer.isFinished }
        #expect(written.value < 16 << 20, "the writer got \(written.value >> 20) MB of 100 MB into flow's input")
    }

    /// 200 000 rows of 1 KB from the server: the query hands on a page at
    /// a time and the rest waits on the server.
    @Test(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
    func aQueryReadsNoFurtherThanAsked() throws {
        let script = try writeScript(#"pg.query("SELECT g, repeat('x', 1000) AS filler FROM generate_series(1, 200000) g")"#)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", script], timeout: waitingDeadline, environment: ["DATABASE_URL": TestDatabase.url ?? ""])
        #expect(result.status == 0, "\(result.err)")
        let count = try #require(Self.handedOn(result.out), "\(result.out) \(result.err)")
        #expect((300..<Self.bound).contains(count), "pg.query handed on \(count) of 200000 rows")
    }

    /// 100 MB of lines from a server that sends while the connection
    /// takes them: the client stops reading, and the server stops sending.
    @Test func httpLinesReadsNoFurtherThanAsked() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let script = try writeScript(#"http.lines("\#(server.base)/many-lines")"#)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", script], timeout: waitingDeadline)
        #expect(result.status == 0, "\(result.err)")
        let count = try #require(Self.handedOn(result.out), "\(result.out) \(result.err)")
        #expect((300..<Self.bound).contains(count), "http.lines handed on \(count) of 25600 lines")
        let sent = server.streamedBytes.withLockedValue { $0 }
        #expect(sent < 40 << 20, "the server sent \(sent >> 20) MB of 100 MB")
    }
}

extension SourceDemandTests {
    /// Two files zipped line by line (`zip` passes demand to both): 10 000
    /// lines each, of which 300 pairs are taken.
    @Test func twoZippedFilesReadNoFurtherThanAsked() throws {
        let path = temporaryPath("demand-zip.txt")
        try String(repeating: Self.line, count: 10_000).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = try writeScript(#"zip(file.lines("\#(path)"), file.lines("\#(path)"))"#)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", script], timeout: waitingDeadline)
        #expect(result.status == 0, "\(result.err)")
        let count = try #require(Self.handedOn(result.out), "\(result.out) \(result.err)")
        #expect((300..<Self.bound).contains(count), "zip handed on \(count) of 10000 pairs")
    }

    /// One file shared by a slow consumer and a fast one: the file is read
    /// as far as the slower asks (the least of the two demands), not to its
    /// end into the slow one's queue; once the slow one is done, the fast
    /// one reads the rest.
    @Test func aSharedFileReadsNoFurtherThanItsSlowestConsumerAsks() throws {
        let path = temporaryPath("demand-shared.txt")
        try String(repeating: Self.line, count: 10_000).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = temporaryPath("demand-\(UUID().uuidString).flow")
        try #"""
            var handedOn = 0
            var fast = 0
            let shared = file.lines("\#(path)").do(onNext: { _ in handedOn += 1 }).share()
            shared.sink(receiveCompletion: { _ in print("fast \(fast)") }, receiveValue: { _ in fast += 1 })
            shared
              .concatMap { value in just(value).delay(.milliseconds(1)) }
              .take(300)
              .sink(receiveCompletion: { _ in print("handed on \(handedOn)") }, receiveValue: { _ in })

            """#.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", script], timeout: waitingDeadline)
        #expect(result.status == 0, "\(result.err)")
        let count = try #require(Self.handedOn(result.out), "\(result.out) \(result.err)")
        #expect((300..<Self.bound).contains(count), "the shared file handed on \(count) of 10000 lines while 300 were taken")
        #expect(result.out.contains("fast 10000"), "\(result.out)")
    }

    /// A paged API read a page a request (`concatMap` of `http.get`): each
    /// request is one response whatever the demand, so the next page is
    /// asked for only once the consumer wants more. Reading ahead, 1 000
    /// pages of 500 lines would be fetched while 300 lines are taken.
    @Test func aPagedHTTPSourceFetchesNoFurtherThanAsked() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let script = try writeScript(#"""
            range(0, 1000)
              .concatMap { page in http.get("\#(server.base)/page?n=\(page)") }
              .concatMap { response in from(response.body.split(separator: "\n")) }
            """#)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let result = try FlowProcess.run(["run", script], timeout: waitingDeadline)
        #expect(result.status == 0, "\(result.err)")
        let count = try #require(Self.handedOn(result.out), "\(result.out) \(result.err)")
        #expect((300..<Self.bound).contains(count), "the pages handed on \(count) lines")
        let pages = server.requests.withLockedValue { $0.filter { $0 == "/page" }.count }
        #expect(pages <= Self.bound / 500, "\(pages) pages were fetched for 300 lines")
    }
}

/// What the writer thread got into the pipe, read by the test.
final class WrittenBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
