import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run the test blocks of scripts in virtual time; end with a line 'N passed, N failed'.")

    @Argument(help: "Scripts, or folders searched for *.flow files.")
    var paths: [String]

    @Option(help: "How to report: text (the default), tap, json or junit, for an autograder or CI.")
    var format: TestReport.Format = .text

    @OptionGroup(title: "Permissions (default: everything the user can reach; standard input is always empty)")
    var permissions: PermissionOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the scripts or folders to test") }
    }

    func run() throws {
        let files = try ScriptFinder.scripts(in: paths)
        let report = TestReport(format: format)
        // Everything a test reports goes to standard output, each failure's
        // details right after its ✗ line, so the report reads in order
        // wherever it goes; compile errors go to standard error.
        let color = format == .text && Output.colorOnStandardOutput
        let access = Access(permissions.applied(to: .everything(command: "flow test", standardInput: false)))
        for path in files {
            let run = TestRunner.run(path, color: color, access: access)
            if !run.compiled { report.fileDidNotCompile(path) }
            for result in run.results { report.add(result) }
        }
        report.finish()
        if report.filesNotCompiled > 0 { throw ExitCode(ExitStatus.invalidScript.rawValue) }
        if report.failed > 0 { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

/// Runs the test blocks of one file, each compiled on its own, as `flow
/// test` and `flow grade` do.
enum TestRunner {
    /// The results in the file's order; `compiled` is false when an error
    /// outside every test block failed them all.
    static func run(_ path: String, color: Bool, hidingActual: Bool = false, access: Access) -> (results: [TestReport.Result], compiled: Bool) {
        let file: SourceFile, program: Program
        do {
            file = try Loader.load(path)
            // A test block that does not compile fails alone.
            program = try Loader.compile(file, access: access, isolatingTests: true)
        } catch {
            let declared = (try? SourceFile.load(path: path))?.declaredTests ?? []
            let tests: [(name: String, points: Int)] = declared.isEmpty ? [(path, 1)] : declared.map { ($0.name, $0.points) }
            return (tests.map { .init(file: path, name: $0.name, status: .fileDoesNotCompile, details: "", points: $0.points) }, false)
        }
        var results: [TestReport.Result] = []
        let declared = file.declaredTests
        func points(_ name: String) -> Int { declared.first { $0.name == name }?.points ?? 1 }
        func record(_ name: String, _ outcome: Program.Outcome, points: Int) {
            let details = outcome.failures.map { Report.expectationFailure($0, file: file, color: color, hidingActual: hidingActual) }
                + outcome.errors.map { Report.streamError($0, file: file, color: color) }
            results.append(.init(file: file.path, name: name, status: outcome.passed ? .passed : .failed,
                                 details: outcome.passed ? "" : details.joined(separator: "\n"), points: points))
        }
        func broken(_ name: String, _ problems: [Diagnostic]) {
            results.append(.init(file: file.path, name: name, status: .testDoesNotCompile,
                                 details: problems.map { $0.render(color: color) }.joined(separator: "\n"), points: points(name)))
        }
        // The statements outside any block form one more run, named after the file.
        program.drawsLanes = false
        // Errors are shown with the test they fail, after its ✗ line.
        program.reportsErrors = false
        let topLevel = program.run(on: .virtual)
        if topLevel.expectations > 0 || !topLevel.passed { record(file.path, topLevel, points: 0) }
        for (index, name) in program.testNames.enumerated() {
            let problems = program.problems(ofTest: index)
            if problems.isEmpty { record(name, program.runTest(index), points: program.points(ofTest: index)) } else { broken(name, problems) }
        }
        for (name, problems) in program.brokenTests { broken(name, problems) }
        // A block a syntax error swallowed (an unclosed brace) still counts.
        var compiledNames = program.testNames + program.brokenTests.map(\.name)
        for name in file.declaredTestNames {
            if let i = compiledNames.firstIndex(of: name) { compiledNames.remove(at: i) } else { broken(name, []) }
        }
        return (results, true)
    }
}

/// The results of `flow test`, as text for a person (each line as it
/// comes) or as TAP, JSON or JUnit XML for a program.
final class TestReport {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, tap, json, junit
    }

    struct Result {
        enum Status: String { case passed, failed, testDoesNotCompile = "test does not compile", fileDoesNotCompile = "file does not compile" }
        var file: String
        var name: String
        var status: Status
        /// What failed: expectation diffs, stream errors or compile errors.
        var details: String
        /// What the test is worth when a class is graded.
        var points = 1
    }

    let format: Format
    private(set) var results: [Result] = []
    private(set) var filesNotCompiled = 0
    var passed: Int { results.filter { $0.status == .passed }.count }
    var failed: Int { results.count - passed }

    init(format: Format) {
        self.format = format
        if format == .tap { Output.out("TAP version 13") }
    }

    func fileDidNotCompile(_ path: String) { filesNotCompiled += 1 }

    func add(_ result: Result) {
        results.append(result)
        switch format {
        case .text:
            switch result.status {
            case .passed: Output.out("✓ \(result.file): \(result.name)")
            case .failed: Output.out("✗ \(result.file): \(result.name)")
            case .testDoesNotCompile: Output.out("✗ \(result.file): \(result.name) (the test does not compile)")
            case .fileDoesNotCompile: Output.out("✗ \(result.file): \(result.name) (the file does not compile)")
            }
            if !result.details.isEmpty { Output.out(result.details) }
        case .tap:
            let ok = result.status == .passed ? "ok" : "not ok"
            Output.out("\(ok) \(results.count) - \(result.file): \(result.name)")
            if result.status != .passed {
                // A YAML block, as TAP 13 gives a failure's details.
                Output.out("  ---\n  status: \(result.status.rawValue)")
                if !result.details.isEmpty {
                    Output.out("  details: |\n" + result.details.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
                }
                Output.out("  ...")
            }
        case .json, .junit:
            break
        }
    }

    func finish() {
        switch format {
        case .text:
            let broken = filesNotCompiled == 1 ? "1 file does" : "\(filesNotCompiled) files do"
            Output.out("\(passed) passed, \(failed) failed" + (filesNotCompiled > 0 ? "; \(broken) not compile" : ""))
        case .tap:
            Output.out("1..\(results.count)")
        case .json:
            let tests = results.map { result -> Value in
                .dictionary(["file": .string(result.file), "name": .string(result.name), "status": .string(result.status.rawValue),
                             "details": .string(result.details)])
            }
            let summary: Value = .dictionary(["passed": .int(passed), "failed": .int(failed), "filesNotCompiled": .int(filesNotCompiled),
                                              "tests": .array(tests)])
            Output.out((try? JSON.string(summary)) ?? "{}")
        case .junit:
            Output.out(junit())
        }
    }

    /// One `testsuite` per file, one `testcase` per test.
    private func junit() -> String {
        var files: [String] = []
        for result in results where !files.contains(result.file) { files.append(result.file) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(results.count)\" failures=\"\(failed)\">\n"
        for file in files {
            let cases = results.filter { $0.file == file }
            let failures = cases.filter { $0.status != .passed }.count
            out += "  <testsuite name=\"\(xml(file))\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
            for result in cases {
                out += "    <testcase classname=\"\(xml(file))\" name=\"\(xml(result.name))\""
                if result.status == .passed {
                    out += "/>\n"
                } else {
                    out += ">\n      <failure message=\"\(xml(result.status.rawValue))\">\(xml(result.details))</failure>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>"
    }

    private func xml(_ text: String) -> String { XML.escape(text) }
}

/// Finds scripts: a file as given, or every *.flow below a folder, sorted.
enum ScriptFinder {
    /// The scripts of every path, in order; a path that does not exist is
    /// a usage error (exit 2).
    static func scripts(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            guard let found = scripts(at: path) else {
                Output.err("flow: no such file or folder: \(path)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            files += found
        }
        return files
    }

    static func scripts(at path: String) -> [String]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        var found: [String] = []
        var visited: Set<FolderIdentity> = []
        collect(path, into: &found, visited: &visited)
        return found.sorted()
    }

    /// A folder by device and inode: a symlink back up the tree (`self ->
    /// .`) leads to a folder already searched, which is not searched again.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static func collect(_ folder: String, into found: inout [String], visited: inout Set<FolderIdentity>) {
        var info = stat()
        guard stat(folder, &info) == 0, visited.insert(FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted
        else { return }
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                collect(path, into: &found, visited: &visited)
            } else if name.hasSuffix(".flow") {
                found.append(path)
            }
        }
    }
}
