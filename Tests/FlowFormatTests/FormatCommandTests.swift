import FlowTestSupport
import Foundation
import Testing

/// `flow fmt` as a user runs it: the built binary in a subprocess.
@Suite struct FormatCommandTests {
    static let messy = "let a=cold(\"-a-|\",a:1)\nexpect(a.map{ $0*2 }).toBe(\"-a-|\",a:2)\n"
    static let tidy = "let a = cold(\"-a-|\", a: 1)\nexpect(a.map { $0 * 2 }).toBe(\"-a-|\", a: 2)\n"

    /// A fresh folder holding the given files.
    func folder(_ files: [String: String]) throws -> URL {
        let url = URL(fileURLWithPath: temporaryPath("fmt"))
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return url
    }

    func contents(_ url: URL, _ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func checkNamesWhatWouldChangeAndExitsOne() throws {
        let dir = try folder(["messy.flow": Self.messy, "sub/tidy.flow": Self.tidy, "notes.txt": "let   x"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try FlowProcess.run(["fmt", "--check", "."], in: dir)
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out == "./messy.flow\n")
        #expect(result.err.contains("1 of 2 files would be reformatted"))
        #expect(try contents(dir, "messy.flow") == Self.messy)
        let clean = try FlowProcess.run(["fmt", "--check", "sub"], in: dir)
        #expect(clean.status == 0)
        #expect(clean.out.isEmpty && clean.err.isEmpty)
    }

    @Test func withoutAFlagFilesAreRewrittenInPlace() throws {
        let dir = try folder(["messy.flow": Self.messy, "tidy.flow": Self.tidy])
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("messy.flow").path
        #expect(chmod(script, 0o754) == 0)
        let result = try FlowProcess.run(["fmt"], in: dir)
        #expect(result.status == 0, "\(result.err)")
        #expect(try contents(dir, "messy.flow") == Self.tidy)
        #expect(try contents(dir, "tidy.flow") == Self.tidy)
        var info = stat()
        #expect(stat(script, &info) == 0 && info.st_mode & 0o777 == 0o754)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".fmt-") }
        #expect(leftovers.isEmpty)
        #expect(try FlowProcess.run(["fmt", "--check"], in: dir).status == 0)
    }

    @Test func aSymlinkedScriptIsFormattedWhereItLives() throws {
        let dir = try folder(["real/messy.flow": Self.messy])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.flow").path, withDestinationPath: "real/messy.flow")
        let result = try FlowProcess.run(["fmt", "link.flow"], in: dir)
        #expect(result.status == 0, "\(result.err)")
        #expect(try contents(dir, "real/messy.flow") == Self.tidy)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.flow").path)
        #expect(link == "real/messy.flow")
    }

    @Test func diffIsWhatDiffSaysAndChangesNothing() throws {
        let dir = try folder(["messy.flow": Self.messy, "tidy.flow": Self.tidy])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try FlowProcess.run(["fmt", "--diff", "messy.flow", "tidy.flow"], in: dir)
        #expect(result.status == 0, "\(result.err)")
        #expect(try contents(dir, "messy.flow") == Self.messy)
        // GNU diff on the same two texts gives the same hunks.
        let gnu = try FlowProcess.run(["-u", "messy.flow", "tidy.flow"], in: dir, binary: URL(fileURLWithPath: "/usr/bin/diff"))
        #expect(gnu.status == 1)
        func hunks(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("---") && !$0.hasPrefix("+++") } }
        #expect(hunks(result.out) == hunks(gnu.out))
        #expect(result.out.hasPrefix("--- messy.flow\n+++ messy.flow (formatted)\n"))
        let both = try FlowProcess.run(["fmt", "--check", "--diff", "messy.flow"], in: dir)
        #expect(both.status == 1)
        #expect(both.out == result.out)
    }

    @Test func standardInputIsFormattedToStandardOutput() throws {
        let result = try FlowProcess.run(["fmt", "--stdin"], stdin: Self.messy)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == Self.tidy)
        let check = try FlowProcess.run(["fmt", "--stdin", "--check"], stdin: Self.messy)
        #expect(check.status == 1)
        #expect(check.out.isEmpty)
        #expect(try FlowProcess.run(["fmt", "--stdin", "--check"], stdin: Self.tidy).status == 0)
        let both = try FlowProcess.run(["fmt", "--stdin", "x.flow"])
        #expect(both.status == 2)
        #expect(both.err.contains("--stdin formats standard input"))
    }

    @Test func aScriptThatDoesNotParseIsNeverRewritten() throws {
        let broken = "let a = cold(\"-a|\"\nlet  b=1\n"
        let dir = try folder(["broken.flow": broken, "messy.flow": Self.messy])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try FlowProcess.run(["fmt", "."], in: dir)
        #expect(result.status == 2)
        #expect(try contents(dir, "broken.flow") == broken)
        #expect(result.err.contains("./broken.flow:2:1: error: expected ')' to close the call"), "\(result.err)")
        #expect(result.err.contains(" 2 | let  b=1"))
        #expect(result.err.contains("flow: ./broken.flow does not parse: left as it is"))
        // The other files are formatted all the same.
        #expect(try contents(dir, "messy.flow") == Self.tidy)
        let piped = try FlowProcess.run(["fmt", "--stdin"], stdin: broken)
        #expect(piped.status == 2)
        #expect(piped.out.isEmpty)
        #expect(piped.err.contains("<stdin>:2:1: error"))
    }

    @Test func aPathThatDoesNotExistIsAUsageError() throws {
        let result = try FlowProcess.run(["fmt", "--check", "/nonexistent/nothing.flow"])
        #expect(result.status == 2)
        #expect(result.err.contains("no such file or folder: /nonexistent/nothing.flow"))
    }
}
