import FlowTestSupport
import Foundation
import Testing

/// The permission flags and each command's defaults, as a user meets them.
@Suite struct PermissionTests {
    /// A temporary folder with files written into it; removed with the value.
    final class Folder {
        let path: String
        init(_ files: [String: String]) throws {
            path = URL(fileURLWithPath: temporaryPath("perm")).resolvingSymlinksInPath().path
            for (name, text) in files {
                let file = path + "/" + name
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: file, atomically: true, encoding: .utf8)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func runReachesEverythingUnlessDenied() throws {
        let folder = try Folder(["data.txt": "one\ntwo\n", "read.flow": "file.lines(\"data.txt\").count().sink { print($0) }\n"])
        let allowed = try FlowProcess.run(["run", "read.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(allowed.status == 0 && allowed.out == "2\n", "\(allowed.err)")
        let denied = try FlowProcess.run(["run", "--deny-read=\(folder.path)", "read.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(denied.status == 1)
        #expect(denied.err.contains("read.flow:1:6: error: file.lines \"data.txt\" (\(folder.path)/data.txt): reading it is denied by flow run --deny-read"),
                "\(denied.err)")
        #expect(denied.err.contains(" 1 | file.lines(\"data.txt\")"))
        // Alone, a flag grants everything and the next word is the script:
        // here --deny-read alone denies every file.
        let all = try FlowProcess.run(["run", "--deny-read", "read.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(all.status == 1 && all.err.contains("reading it is denied"), "\(all.err)")
    }

    /// Where `run` grants everything, naming what to grant narrows it to
    /// that (Deno's `--allow-read=DIR`), instead of being silently a no-op.
    @Test func aNamedGrantNarrowsWhatRunReaches() throws {
        let folder = try Folder([
            "data/in.txt": "in\n", "out.txt": "out\n",
            "read.flow": "file.read(\"data/in.txt\").sink { print($0) }\nfile.read(\"out.txt\").sink { print($0) }\n",
        ])
        let narrowed = try FlowProcess.run(["run", "--allow-read=data", "read.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(narrowed.status == 1)
        #expect(narrowed.out == "in\n\n", "\(narrowed.out)")
        #expect(narrowed.err.contains("read.flow:2:6: error: file.read \"out.txt\" (\(folder.path)/out.txt): reading outside \(folder.path)/data "
                                      + "is not allowed (flow run --allow-read=\(folder.path) grants it)"), "\(narrowed.err)")
        // Writing and the network keep run's defaults; alone, the flag grants every file.
        let alone = try FlowProcess.run(["run", "--allow-read", "read.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(alone.status == 0 && alone.out == "in\n\nout\n\n", "\(alone.err)")
    }

    /// Through a dangling symlink a granted write would make a file
    /// outside: judged where it would be made, refused, nothing made.
    @Test func aDanglingSymlinkCannotWriteOutsideAGrant() throws {
        let folder = try Folder(["inside/keep.txt": "", "write.flow": "of(\"x\").sink(file.write(\"inside/link.txt\"))\n",
                                 "append.flow": "of(\"y\").sink(file.append(\"inside/link.txt\"))\n"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/inside/link.txt", withDestinationPath: "../escaped.txt")
        for operation in ["write", "append"] {
            let result = try FlowProcess.run(["run", "--allow-write=inside", "\(operation).flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
            #expect(result.status == 1)
            #expect(result.err.contains("file.\(operation) \"inside/link.txt\" (\(folder.path)/escaped.txt): writing outside \(folder.path)/inside "
                                        + "is not allowed"), "\(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/escaped.txt"))
        let denied = try FlowProcess.run(["run", "--deny-write=\(folder.path)/escaped.txt", "write.flow"], in: URL(fileURLWithPath: folder.path), timeout: 60)
        #expect(denied.status == 1 && denied.err.contains("writing it is denied by flow run --deny-write"), "\(denied.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/escaped.txt"))
    }

    @Test func gradeReadsTheStudentsOwnFileAlone() throws {
        let folder = try Folder([
            "class/given.txt": "a\n",
            "class/alice.flow": """
                test "given" { expect(file.read("given.txt")).toBe("(a|)", a: "a\\n") }
                test "secret" { expect(file.read("/etc/hostname").count()).toBe("(a|)", a: 1) }
                test "request" { expect(http.get("http://127.0.0.1:9/").count()).toBe("(a|)", a: 1) }
                test "write" {
                  of(1).sink(file.write("/tmp/flow-graded-1"))
                  expect(just(1)).toBe("(a|)", a: 1)
                }

                """,
        ])
        // Run from the class folder, as a teacher would.
        let graded = try FlowProcess.run(["grade", "--details", "."], in: URL(fileURLWithPath: folder.path + "/class"), timeout: 120)
        #expect(graded.status == 0)
        #expect(graded.out.contains("./alice.flow  0 of 4"), "\(graded.out)")
        // Inside a marble diff the message is quoted, as every error value is.
        #expect(graded.out.contains(#"file.read \"/etc/hostname\": reading outside the student's own file is not allowed (flow grade --allow-read=/etc/hostname grants it)"#),
                "\(graded.out)")
        // Without a key naming it, a file beside the student's is not the student's.
        #expect(graded.out.contains(#"file.read \"given.txt\" (given.txt): reading outside the student's own file"#), "\(graded.out)")
        #expect(graded.out.contains(#"http.get \"http://127.0.0.1:9/\": network access is not allowed (flow grade --allow-net=127.0.0.1 grants it)"#))
        #expect(graded.out.contains("file.write \"/tmp/flow-graded-1\": writing files is not allowed (flow grade --allow-write=/tmp/flow-graded-1 grants it)"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/flow-graded-1"))
        // The teacher widens the grant; a bare flag before the folder is a flag.
        let widened = try FlowProcess.run(["grade", "--allow-read", "--allow-read=/etc", "."], in: URL(fileURLWithPath: folder.path + "/class"), timeout: 120)
        #expect(widened.out.contains("./alice.flow  2 of 4"), "\(widened.out)")
    }

    /// A graded or tested script's standard input is empty: a test that
    /// reads it completes at once, even when the grader's input is an open pipe.
    @Test func testsGetAnEmptyStandardInput() throws {
        let folder = try Folder(["input.flow": "test \"input\" { expect(stdin.lines()).toBe(\"|\") }\n"])
        for command in ["test", "grade"] {
            let process = Process()
            process.executableURL = FlowProcess.binary
            process.arguments = [command, folder.path + "/input.flow"]
            let input = Pipe(), out = Pipe()
            process.standardInput = input
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The write end stays open: a script that read it would wait forever.
            let ended = waitFor { !process.isRunning }
            if !ended { process.terminate() }
            #expect(ended, "flow \(command) waited on its standard input")
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(text.contains(command == "test" ? "1 passed, 0 failed" : "1 of 1"), "\(text)")
            try input.fileHandleForWriting.close()
        }
    }

    /// A folder that links back into itself is searched once.
    @Test func folderSearchesDoNotFollowCycles() throws {
        let folder = try Folder(["a.flow": "test \"one\" { expect(just(1)).toBe(\"(a|)\", a: 1) }\n"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/loop", withDestinationPath: folder.path)
        let result = try FlowProcess.run(["test", folder.path], timeout: 60)
        #expect(result.status == 0)
        #expect(result.out.hasSuffix("1 passed, 0 failed\n"), "\(result.out)")
    }
}
