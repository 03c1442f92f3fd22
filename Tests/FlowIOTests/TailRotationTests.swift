import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import FlowIO
@testable import FlowLanguage
import FlowLive
import FlowRuntime
import FlowTestSupport

/// `file.tail` loses no line at rotation, whether the log is moved away
/// and created again (the writer still writing to the moved file for a
/// while) or copied and truncated.
@Suite struct TailRotationTests {
    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    @Test func linesWrittenToTheMovedFileAfterTheRenameAreReadFirst() throws {
        let path = temporaryPath("app.log")
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { for p in [path, path + ".1"] { try? FileManager.default.removeItem(atPath: p) } }
        let lines = FileFollowerTests.Recorder()
        let follower = FileFollower(path: path, observer: lines, access: .unrestricted, operation: "file.tail", now: .zero)
        try follower.start()
        defer { follower.dispose() }
        let writer = try #require(FileHandle(forWritingAtPath: path))
        writer.write(Data("one\n".utf8))
        #expect(rename(path, path + ".1") == 0)
        follower.poll(now: .milliseconds(Int64(100)))
        // The program has not reopened its log yet: it writes to the moved
        // file, while the rotator creates the new one and others write there.
        writer.write(Data("two\n".utf8))
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        follower.poll(now: .milliseconds(Int64(200)))
        writer.write(Data("three\nunfinished".utf8))
        try append("four\n", to: path)
        follower.poll(now: .milliseconds(Int64(300)))
        #expect(lines.values == ["one", "two", "three", "four"])
        // Quiet for long enough, the moved file is closed: its unfinished
        // last line is read then.
        follower.poll(now: .milliseconds(Int64(300)) + FileFollower.rotatedQuietTime)
        #expect(lines.values == ["one", "two", "three", "four", "unfinished"])
        try writer.close()
    }

    /// Rotated twice between two polls (a loaded machine, a fast
    /// rotation): the file in between, never followed, is read too, in order.
    @Test func aFileRotatedAwayBetweenTwoPollsIsReadToo() throws {
        let path = temporaryPath("app.log")
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { for p in [path, path + ".1", path + ".2"] { try? FileManager.default.removeItem(atPath: p) } }
        let lines = FileFollowerTests.Recorder()
        let follower = FileFollower(path: path, observer: lines, access: .unrestricted, operation: "file.tail", now: .zero)
        try follower.start()
        defer { follower.dispose() }
        try append("a\n", to: path)
        #expect(rename(path, path + ".1") == 0)
        try "b\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(rename(path + ".1", path + ".2") == 0 && rename(path, path + ".1") == 0)
        try "c\n".write(toFile: path, atomically: false, encoding: .utf8)
        follower.poll(now: .milliseconds(Int64(100)))
        #expect(lines.values == ["a", "b", "c"])
    }

    @Test func linesWrittenJustBeforeACopyTruncateAreReadFromTheCopy() throws {
        let path = temporaryPath("app.log")
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { for p in [path, path + ".1"] { try? FileManager.default.removeItem(atPath: p) } }
        let lines = FileFollowerTests.Recorder()
        let follower = FileFollower(path: path, observer: lines, access: .unrestricted, operation: "file.tail", now: .zero)
        try follower.start()
        defer { follower.dispose() }
        try append("a\n", to: path)
        follower.poll(now: .milliseconds(Int64(100)))
        try append("b\nc\n", to: path)
        // logrotate's copytruncate: copied, then emptied in place.
        try FileManager.default.copyItem(atPath: path, toPath: path + ".1")
        #expect(truncate(path, 0) == 0)
        try append("d\n", to: path)
        follower.poll(now: .milliseconds(Int64(200)))
        #expect(lines.values == ["a", "b", "c", "d"])
    }

    /// A writer appends numbered lines while its log is renamed away every
    /// 100 ms; every line after the first one read arrives, in order.
    /// (copytruncate under load: `everyLineIsReadOnceWhileCopyTruncateRacesTheWriter`.)
    @Test(arguments: ["rename"])
    func noLineIsLostWhileTheLogRotatesUnderLoad(_ mode: String) throws {
        let path = temporaryPath("busy.log")
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            where ("/" + name).hasSuffix("/" + (path as NSString).lastPathComponent) || name.hasPrefix((path as NSString).lastPathComponent + ".") {
                try? FileManager.default.removeItem(atPath: (NSTemporaryDirectory() as NSString).appendingPathComponent(name))
            }
        }
        let total = 1500
        let writer = Thread {
            var fd = open(path, O_WRONLY | O_APPEND)
            var lastRotation = Date()
            var rotations = 0
            func line(_ text: String) { _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) } }
            var i = 0
            while i < total {
                line("\(i)\n")
                i += 1
                usleep(1000)
                guard Date().timeIntervalSince(lastRotation) >= 0.1 else { continue }
                lastRotation = Date()
                // Each old log keeps a name of its own (logrotate's numbered
                // or dated archives), so nothing is lost however late a poll.
                rotations += 1
                let archive = path + String(format: ".%04d", rotations)
                if mode == "rename" {
                    rename(path, archive)
                    // Still writing to the moved file, before and after the
                    // new one is created, until the program reopens its log.
                    for _ in 0..<3 where i < total { line("\(i)\n"); i += 1 }
                    close(open(path, O_WRONLY | O_CREAT, 0o644))
                    for _ in 0..<2 where i < total { line("\(i)\n"); i += 1 }
                    close(fd)
                    fd = open(path, O_WRONLY | O_APPEND)
                } else {
                    let contents = FileManager.default.contents(atPath: path) ?? Data()
                    FileManager.default.createFile(atPath: archive, contents: contents)
                    ftruncate(fd, 0)
                }
            }
            line("end\n")
            close(fd)
        }
        // The writer starts once the script's first poll has opened the log.
        let started = Started()
        let result = try runLive("""
            file.tail("\(path)").takeWhile { $0 != "end" }.sink { print($0) }
            timer(1ms).sink { _ in started.begin() }
            """, started: started, writer: writer)
        #expect(result.outcome.passed, "\(result.err)")
        let numbers = result.out.compactMap(Int.init)
        #expect(numbers.count == result.out.count, "only numbered lines: \(result.out.filter { Int($0) == nil })")
        let first = try #require(numbers.first)
        #expect(numbers == Array(first..<total), "\(mode): \(numbers.count) lines from \(first); gaps after \(zip(numbers, numbers.dropFirst()).first { $1 != $0 + 1 }.map { "\($0.0)" } ?? "none")")
        #expect(numbers.count > total / 2)
    }
}

extension TailRotationTests {
    /// logrotate's copytruncate under a writer that never pauses: the log
    /// is copied to a numbered archive and truncated every 100 ms, a fixed
    /// number of times, between two of the writer's lines, and the writer
    /// goes on appending at once. (logrotate itself, in another process,
    /// loses what is written between its copy and its truncation, as its
    /// manual says: here the two are done between two lines, so that every
    /// line written is in the log or a copy, and flow must read them all.) Every line arrives exactly once,
    /// in order, whether a poll falls between two rotations or several
    /// rotations fall between two polls.
    @Test(arguments: ["20ms", "100ms", "250ms"], [CopyMade.inPlace, .besideAndRenamed])
    func everyLineIsReadOnceWhileCopyTruncateRacesTheWriter(polledEvery period: String, copy: CopyMade) throws {
        let folder = temporaryPath("copytruncate")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/busy.log"
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        let rotations = 30
        let written = NIOLockedValueBox(0)
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_APPEND)
            func line(_ text: String) { _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) } }
            var i = 0
            for rotation in 1...rotations {
                let next = Date().addingTimeInterval(0.1)
                while Date() < next {
                    line("\(i)\n")
                    i += 1
                    usleep(200)
                }
                // The archive filled a block at a time (a poll may see it
                // half written), then the log truncated.
                let contents = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
                let name = path + String(format: ".%04d", rotation)
                let made = copy == .inPlace ? name : name + ".tmp.\(rotation)"
                let archive = open(made, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                for start in stride(from: 0, to: contents.count, by: 4096) {
                    _ = contents[start..<min(start + 4096, contents.count)].withUnsafeBytes { write(archive, $0.baseAddress, $0.count) }
                }
                close(archive)
                if made != name { rename(made, name) }
                ftruncate(fd, 0)
            }
            for _ in 0..<50 {
                line("\(i)\n")
                i += 1
            }
            written.withLockedValue { $0 = i }
            line("end\n")
            close(fd)
        }
        let started = Started()
        let result = try runLive("""
            file.tail("\(path)", every: \(period)).takeWhile { $0 != "end" }.sink { print($0) }
            timer(1ms).sink { _ in started.begin() }
            """, started: started, writer: writer)
        #expect(result.outcome.passed, "\(result.err)")
        let total = written.withLockedValue { $0 }
        let numbers = result.out.compactMap(Int.init)
        #expect(numbers.count == result.out.count, "only numbered lines: \(result.out.filter { Int($0) == nil }.prefix(5))")
        let missing = Set(0..<total).subtracting(numbers).sorted()
        var counts: [Int: Int] = [:]
        for n in numbers { counts[n, default: 0] += 1 }
        let twice = counts.filter { $0.value > 1 }.keys.sorted()
        let inOrder = numbers == Array(0..<total)
        // Which lines each archive held, to tell a failure's generation.
        let archives = (1...rotations).map { rotation -> String in
            let text = (try? String(contentsOfFile: path + String(format: ".%04d", rotation), encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n")
            return "\(rotation): \(lines.first ?? "-")...\(lines.last ?? "-")"
        }
        #expect(inOrder,
                "polled every \(period), copied \(copy): \(numbers.count) lines read of \(total): missing \(missing.count) \(missing.prefix(10)), read twice \(twice.count) \(twice.prefix(10)), first out of order after \(zip(numbers, numbers.dropFirst()).first { $1 != $0 + 1 }.map { "\($0.0)" } ?? "none"); archives \(archives)")
    }
}

/// How a copytruncate rotation makes its copy: under its own name, as
/// logrotate does, or beside it and renamed, as a write made atomic does
/// (Foundation's `createFile`), under a name that begins with the log's too.
enum CopyMade: Sendable, CustomStringConvertible {
    case inPlace, besideAndRenamed
    var description: String { self == .inPlace ? "in place" : "beside and renamed" }
}

/// Starts the writer thread when the script says it is under way.
final class Started: @unchecked Sendable {
    var writer: Thread?
    func begin() { writer?.start() }
}

/// Runs a live script with a `started` module function it can call.
func runLive(_ source: String, started: Started, writer: Thread) throws -> (outcome: Program.Outcome, out: [String], err: [String]) {
    started.writer = writer
    let lines = Lines()
    let console = Console(out: { lines.out.append($0) }, err: { lines.err.append($0) }, color: false)
    let begin = BuiltinModule(name: "started", summary: "test hook", functions: [
        OperatorSpec("begin", .utility, .function, "starts the test's writer", [Signature([]) { _ in
            started.begin()
            return .null
        }]),
    ])
    let program = try Program(file: SourceFile(path: "tail.flow", text: source), console: console,
                              modules: IOModules.unrestricted + [begin])
    let outcome = program.run(on: .live(LiveWorld()))
    return (outcome, lines.out, lines.err)
}
