import Foundation
import Testing

@testable import FlowIO
@testable import FlowLanguage
import FlowLive
import FlowRuntime
import FlowTestSupport

final class Lines: @unchecked Sendable {
    // Written by the run (on its thread), read after it has ended.
    var out: [String] = []
    var err: [String] = []
}

/// Runs a script with the I/O modules, in virtual time or on the live clock.
func run(_ source: String, live: Bool = false, access: Access = .unrestricted) throws -> (outcome: Program.Outcome, out: [String], err: [String]) {
    let lines = Lines()
    let console = Console(out: { lines.out.append($0) }, err: { lines.err.append($0) }, color: false)
    let program = try Program(file: SourceFile(path: "io.flow", text: source), console: console, modules: IOModules.all(access))
    let outcome = program.run(on: live ? .live(LiveWorld()) : .virtual)
    return (outcome, lines.out, lines.err)
}

/// Waits for `condition` (FlowTestSupport's `waitFor`); fails the test if it never holds.
func waitUntil(seconds: Double = waitingDeadline, sourceLocation: Testing.SourceLocation = #_sourceLocation,
               _ condition: () -> Bool) throws {
    if !waitFor(seconds: seconds, condition) { Issue.record("waited \(seconds)s in vain", sourceLocation: sourceLocation) }
}

@Suite struct JSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSON.parse(#" {"a": [1, -2.5e2, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n", "c": {}} "#)
        #expect(value.description == #"["a": [1, -250.0, true, false, nil], "b": "x\"é😀\n", "c": [:]]"#)
    }

    @Test func writesValuesBack() throws {
        let value = try JSON.parse(#"{"name":"flow","n":[1,2.5,null],"ok":true}"#)
        #expect(try JSON.string(value) == #"{"name":"flow","n":[1,2.5,null],"ok":true}"#)
        #expect(try JSON.string(.record(["x": 1, "y": "a\tb"])) == #"{"x":1,"y":"a\tb"}"#)
        #expect(throws: FlowError.self) { try JSON.string(.duration(.seconds(1))) }
        #expect(throws: FlowError.self) { try JSON.string(.double(.nan)) }
    }

    @Test func malformedJSONSaysWhere() {
        func message(_ text: String) -> String {
            do { _ = try JSON.parse(text); return "" } catch { return FlowError.wrap(error).message }
        }
        #expect(message("{\"a\": 1,\n  \"b\" 2}") == "malformed JSON at line 2, column 7: expected ':' after the key")
        #expect(message("[1, 2") == "malformed JSON at line 1, column 6: expected ',' or ']'")
        #expect(message("tru") == "malformed JSON at line 1, column 1: expected 'true'")
        #expect(message("1 2").contains("unexpected text after the JSON value"))
        #expect(message(String(repeating: "[", count: 100_000)).contains("nested too deeply"))
    }

    @Test func fromScripts() throws {
        let result = try run(#"""
            let data = json.parse("{\"items\": [3, 4]}")
            print(data["items"].reduce(0) { $0 + $1 }, json.string([1, "a"]))
            just("{bad").map { json.parse($0) }.sink { print($0) }
            """#)
        #expect(result.out == ["7 [1,\"a\"]"])
        #expect(result.err.first?.contains("io.flow:3:25: error: malformed JSON at line 1, column 2: expected a string key") == true)
    }

    /// Combine's decode(type:decoder:) and encode(encoder:): a type flow
    /// does not know decodes to JSON's own shape; encode gives Data.
    @Test func combinesDecodeAndEncode() throws {
        let result = try run(#"""
            let texts = of("{\"id\": 1, \"title\": \"milk\"}", "{\"id\": 2, \"title\": \"eggs\"}")
            texts.decode(type: Todo.self, decoder: JSONDecoder()).map(\.title).sink { print($0) }
            just((status: 200, body: "[1, 2]")).decode(type: [Int].self, decoder: JSONDecoder()).sink { print($0.count) }
            just(["a": [1, nil]]).encode(encoder: JSONEncoder()).sink { print($0, String(data: $0, encoding: .utf8)!) }
            just("{bad").decode(type: Todo.self, decoder: JSONDecoder()).sink { print($0) }
            """#)
        // encode gives Data, as Combine's does.
        #expect(result.out == ["milk", "eggs", "2", "14 bytes {\"a\":[1,null]}"])
        #expect(result.err.first?.contains("io.flow:5:14: error: dataCorrupted: the given data was not valid JSON (malformed JSON at line 1, column 2") == true,
                "\(result.err)")
        let notACoder = try run(#"just("1").decode(type: Int.self, decoder: 3).sink { print($0) }"#)
        #expect(notACoder.err.first?.contains("decode(type:decoder:) is JSONDecoder's: call it on JSONDecoder(), not on Int 3") == true, "\(notACoder.err)")
    }

    @Test func structsAndEnumCasesEncodeAsSwiftsCodableDoes() throws {
        let result = try run(#"""
            enum Currency: String { case usd, gbp = "pound" }
            enum State { case idle, loaded(String), loading(progress: Int) }
            struct Order { var currency: Currency; var state: State; var moved: State }
            let order = Order(currency: .gbp, state: .loaded("hi"), moved: .loading(progress: 5))
            just(order).encode(encoder: JSONEncoder()).sink { print(String(decoding: $0, as: UTF8.self)) }
            print(json.string([State.idle]))
            """#)
        #expect(result.err == [])
        #expect(result.out == [#"{"currency":"pound","state":{"loaded":{"_0":"hi"}},"moved":{"loading":{"progress":5}}}"#, #"[{"idle":{}}]"#])
    }
}

@Suite struct FileTests {
    @Test func readLinesAndWrite() throws {
        let input = temporaryPath("in.log"), output = temporaryPath("out.txt")
        try "INFO a\nERROR b\r\nINFO c\nERROR d".write(toFile: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: output) }
        let result = try run("""
            file.lines("\(input)").filter { $0.hasPrefix("ERROR") }.sink(file.write("\(output)"))
            file.read("\(input)").map { $0.count }.sink { print($0) }
            """)
        #expect(result.outcome.passed)
        // "\r\n" is one character in Swift, as in scripts.
        #expect(result.out == ["29"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "ERROR b\nERROR d\n")
        _ = try run("just(\"e\").sink(file.append(\"\(output)\"))")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "ERROR b\nERROR d\ne\n")
    }

    @Test func aLargeFileStreamsInConstantMemory() throws {
        let path = temporaryPath("big.txt")
        let line = String(repeating: "x", count: 99) + "\n"
        try String(repeating: line, count: 200_000).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run("file.lines(\"\(path)\").count().sink { print($0) }")
        #expect(result.out == ["200000"])
    }

    @Test func problemsAreStreamErrorsNamingThePath() throws {
        let missing = try run("file.lines(\"/no/such/file.log\").sink { print($0) }")
        #expect(missing.err.first?.contains("io.flow:1:6: error: cannot read /no/such/file.log: No such file or directory") == true)
        #expect(!missing.outcome.passed)
        let folder = try run("file.read(\"/tmp\").sink { print($0) }")
        #expect(folder.err.first?.contains("cannot read /tmp: it is a directory") == true)
        let unwritable = try run("just(1).sink(file.write(\"/no/such/folder/x.txt\"))")
        #expect(unwritable.err.first?.contains("cannot write /no/such/folder/x.txt: No such file or directory") == true)
    }

    @Test func watchAndTailOnTheLiveClock() throws {
        let path = temporaryPath("tail.log")
        try "old line\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) {
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile()
                handle.write(Data("new one\nnew two\n".utf8))
                try? handle.close()
            }
        }
        let started = Date()
        let result = try run("""
            file.tail("\(path)", every: 20ms).take(2).sink { print($0) }
            file.watch("\(path)", every: 20ms).take(1).sink { print($0.size) }
            """, live: true)
        #expect(result.out.sorted() == ["25", "new one", "new two"])
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

/// `file.tail`'s follower, polled by hand: each case changes the file as
/// a log rotator or an editor would, between two polls.
@Suite struct FileFollowerTests {
    final class Recorder: Observer {
        var values: [String] = []
        var errors: [FlowError] = []
        func onSubscribe(_ subscription: Disposable) {}
        func onNext(_ value: Value) { values.append(value.description) }
        func onError(_ error: FlowError) { errors.append(error) }
        func onCompleted() {}
    }

    func follow(_ initial: String, _ body: (String, FileFollower, Recorder) throws -> Void) throws {
        let path = temporaryPath("follow.log")
        try initial.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = Recorder()
        let follower = FileFollower(path: path, observer: lines, access: .unrestricted, operation: "file.tail", now: .zero)
        try follower.start()
        defer { follower.dispose() }
        try body(path, follower, lines)
    }

    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    @Test func linesAppendedAfterSubscriptionOnly() throws {
        try follow("old\n") { path, follower, lines in
            try append("one\ntwo\npart", to: path)
            follower.poll(now: .zero)
            try append("ial\n", to: path)
            follower.poll(now: .zero)
            #expect(lines.values == ["one", "two", "partial"])
        }
    }

    @Test func aReplacedFileIsReadFromItsStart() throws {
        try follow("LINE-ONE\n") { path, follower, lines in
            // Written beside and renamed over, as editors and rotators do;
            // longer than what was read, so its size alone does not tell.
            try "REPLACEMENT-LINE-ONE\n".write(toFile: path + ".new", atomically: false, encoding: .utf8)
            #expect(rename(path + ".new", path) == 0)
            follower.poll(now: .zero)
            #expect(lines.values == ["REPLACEMENT-LINE-ONE"])
        }
    }

    @Test func aFileTruncatedAndWrittenAgainWithinOnePollIsReadFromItsStart() throws {
        try follow("short\n") { path, follower, lines in
            try append("more\n", to: path)
            follower.poll(now: .zero)
            // Same file (same inode), emptied and filled past the old end.
            try "A-NEW-FIRST-LINE-LONGER-THAN-BEFORE\n".write(toFile: path, atomically: false, encoding: .utf8)
            follower.poll(now: .zero)
            #expect(lines.values == ["more", "A-NEW-FIRST-LINE-LONGER-THAN-BEFORE"])
        }
    }

    @Test func aRotatedFileIsReadToItsEndBeforeTheNewOne() throws {
        try follow("") { path, follower, lines in
            try append("last of the old\n", to: path)
            #expect(rename(path, path + ".1") == 0)
            defer { try? FileManager.default.removeItem(atPath: path + ".1") }
            try "first of the new\n".write(toFile: path, atomically: false, encoding: .utf8)
            follower.poll(now: .zero)
            #expect(lines.values == ["last of the old", "first of the new"])
        }
    }

    /// A followed symlink swapped to a denied file after the follower
    /// started: judged at the next poll, a denial, and nothing of it read.
    @Test func aSymlinkSwappedToADeniedFileIsNeverRead() throws {
        let root = URL(fileURLWithPath: temporaryPath("tail-swap")).resolvingSymlinksInPath().path
        try FileManager.default.createDirectory(atPath: root + "/served", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "".write(toFile: root + "/served/app.log", atomically: false, encoding: .utf8)
        try "SECRET\n".write(toFile: root + "/secret.log", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/served/log", withDestinationPath: "app.log")
        let lines = Recorder()
        let follower = FileFollower(path: root + "/served/log", observer: lines, access: Access(.served(folder: root + "/served")),
                                    operation: "file.tail", now: .zero)
        try follower.start()
        defer { follower.dispose() }
        try append("one\n", to: root + "/served/app.log")
        follower.poll(now: .zero)
        try FileManager.default.removeItem(atPath: root + "/served/log")
        try FileManager.default.createSymbolicLink(atPath: root + "/served/log", withDestinationPath: "../secret.log")
        follower.poll(now: .zero)
        try append("MORE SECRET\n", to: root + "/secret.log")
        follower.poll(now: .zero)
        #expect(lines.values == ["one"])
        #expect(lines.errors.map(\.message) == ["file.tail \"\(root)/served/log\" (\(root)/secret.log): reading outside the served folder "
                                                + "is not allowed (flow serve --allow-read=\(root) grants it)"])
    }

    @Test func aRemovedFileIsPickedUpWhenItReturns() throws {
        try follow("x\n") { path, follower, lines in
            try FileManager.default.removeItem(atPath: path)
            follower.poll(now: .zero)
            try "back\n".write(toFile: path, atomically: false, encoding: .utf8)
            follower.poll(now: .zero)
            #expect(lines.values == ["back"])
            #expect(lines.errors.isEmpty)
        }
    }
}

/// file.write never leaves a half-written file in place of a good one.
@Suite struct FileWriteSafetyTests {
    @Test func aFailingStreamLeavesTheTargetAsItWasAndNothingBeside() throws {
        let output = temporaryPath("kept.txt")
        try "precious\n".write(toFile: output, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try run("""
            cold("-a-b-#", error: "broken").sink(file.write("\(output)"))
            """)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious\n")
        #expect(partialFile(of: output) == nil)
        let message = result.err.joined(separator: "\n")
        #expect(message.contains("io.flow:1:6: error: broken; nothing was written to \(output) (its stream failed); it keeps its old contents"),
                "\(message)")
    }

    /// Renaming over a device, a FIFO or a directory would replace the node
    /// itself (it replaced /dev/full when run as root): refused, located.
    @Test func onlyRegularFilesAreReplaced() throws {
        let fifo = temporaryPath("fifo"), folder = temporaryPath("folder")
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: fifo); try? FileManager.default.removeItem(atPath: folder) }
        for (path, kind) in [("/dev/full", "a device"), (fifo, "a FIFO"), (folder, "a directory")] {
            let result = try run("of(1, 2).sink(file.write(\"\(path)\"))")
            #expect(!result.outcome.passed)
            #expect(result.err.joined().contains("io.flow:1:20: error: file.write \"\(path)\": it is \(kind), and file.write only replaces regular files"),
                    "\(result.err)")
        }
        var info = stat()
        #expect(lstat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// A symlink is written through: it stays a link, and its target gets the text.
    @Test func aSymlinkIsWrittenThrough() throws {
        let target = temporaryPath("target.txt"), link = temporaryPath("link.txt"), dangling = temporaryPath("dangling.txt")
        let fresh = temporaryPath("fresh.txt")
        try "old\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: fresh)
        defer { for path in [target, link, dangling, fresh] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try run("of(\"new\").sink(file.write(\"\(link)\"))\nof(\"made\").sink(file.write(\"\(dangling)\"))")
        #expect(result.outcome.passed, "\(result.err)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == fresh)
        #expect(try String(contentsOfFile: fresh, encoding: .utf8) == "made\n")
    }

    @Test func aStreamFailingBeforeAnyValueLeavesNoPartialFile() throws {
        let output = temporaryPath("untouched.txt")
        try "precious\n".write(toFile: output, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try run("error(\"early\").sink(file.write(\"\(output)\"))")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious\n")
        #expect(partialFile(of: output) == nil)
    }

    @Test func rewritingTheFileBeingReadIsSafe() throws {
        let path = temporaryPath("same.txt")
        try "b\na\nc\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run("file.lines(\"\(path)\").map { $0.uppercased() }.sink(file.write(\"\(path)\"))")
        #expect(result.outcome.passed, "\(result.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "B\nA\nC\n")
    }

    @Test func appendingToTheFileBeingReadIsRefused() throws {
        let path = temporaryPath("loop.txt")
        try "one\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run("file.lines(\"\(path)\").sink(file.append(\"\(path)\"))")
        #expect(result.err.joined().contains("io.flow:1:6: error: file.lines(\"\(path)\") reads the file that file.append is writing"), "\(result.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\n")
    }

    @Test func theTargetKeepsItsPermissions() throws {
        let path = temporaryPath("mode.txt")
        try "x\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(path, 0o600) == 0)
        _ = try run("just(1).sink(file.write(\"\(path)\"))")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
