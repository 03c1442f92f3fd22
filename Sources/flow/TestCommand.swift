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

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup(title: "Permissions (default: everything the user can reach; standard input is always empty)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    @OptionGroup var dialect: DialectOption

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the scripts or folders to test") }
    }

    func run() throws {
        memory.apply()
        let files = try ScriptFinder.scripts(in: paths)
        // Everything a test reports goes to standard output, each failure's
        // details right after its ✗ line, so the report reads in order
        // wherever it goes; compile errors go to standard error. A report
        // for a program keeps what the scripts print with their tests.
        let color = format == .text && output == nil && Output.colorOnStandardOutput
        let report = TestReport(format: format, destination: try ReportDestination(path: output), color: color)
        let access = Access(permissions.applied(to: .everything(command: "flow test", standardInput: false)))
        for path in files {
            let run = TestRunner.run(path, color: color, access: access, capture: format == .text ? nil : CapturedOutput(),
                                     dialect: dialect.dialect)
            if !run.compiled { report.fileDidNotCompile(path) }
            report.add(run)
        }
        try report.finish()
        if report.filesNotCompiled > 0 { throw ExitCode(ExitStatus.invalidScript.rawValue) }
        if report.failed > 0 { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

/// Runs the test blocks of one file, each compiled on its own, as `flow
/// test` and `flow grade` do.
enum TestRunner {
    /// One file's tests run.
    struct FileRun {
        var file: String
        /// In the file's order.
        var results: [TestReport.Result]
        /// False when an error outside every test block failed them all.
        var compiled: Bool
        /// What the statements outside the test blocks printed, when captured.
        var output = ""
        /// What the sinks of the statements outside the test blocks
        /// committed, when those are not a test themselves (`CommitLedger.lines`).
        var committed: [String] = []
        /// Graded on a key: what the file holds that earns and costs
        /// nothing (its own tests, its top level's failures).
        var warnings: [String] = []

        /// As `grade-file` hands it to `flow grade`.
        var json: Value {
            .dictionary(["file": .string(file), "compiled": .bool(compiled), "output": .string(output),
                         "warnings": .array(warnings.map(Value.string)), "results": .array(results.map(\.json))])
        }

        init(file: String, results: [TestReport.Result], compiled: Bool, output: String = "") {
            self.file = file
            self.results = results
            self.compiled = compiled
            self.output = output
        }

        init?(json text: String) {
            guard case .dictionary(let d)? = try? JSON.parse(text), case .string(let file)? = d["file"], case .bool(let compiled)? = d["compiled"],
                  case .array(let results)? = d["results"] else { return nil }
            let parsed = results.compactMap(TestReport.Result.init(json:)).map { result in
                var result = result
                result.file = file
                return result
            }
            guard parsed.count == results.count else { return nil }
            self.init(file: file, results: parsed, compiled: compiled, output: d["output"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "")
            if case .array(let warnings)? = d["warnings"] {
                self.warnings = warnings.compactMap { if case .string(let s) = $0 { s } else { nil } }
            }
        }
    }

    /// With `capture`, what the script prints is kept with each test (and
    /// the top level's with the file) instead of written to standard output.
    /// With a `key`, the file is graded on the key's tests (`AnswerKey`),
    /// whose code never appears in the details. `answered`: the file is an
    /// exercise's answers, whose expected lanes are the student's
    /// (`Feedback.describe`).
    static func run(_ path: String, source: SourceFile? = nil, color: Bool, feedback: Feedback = .answer, access: Access,
                    capture: CapturedOutput? = nil, key: AnswerKey? = nil, dialect: Dialect? = nil, answered: Bool = false) -> FileRun {
        let file: SourceFile, program: Program
        do {
            file = try source ?? SourceFile.load(path: path)
            // A test block that does not compile fails alone.
            let console = capture?.console ?? Output.console
            program = try key.map { try Program(grading: file, on: $0.file, console: console, modules: IOModules.all(access)) }
                ?? Program(file: file, console: console, modules: IOModules.all(access), isolatingTests: true, dialect: dialect)
        } catch {
            let problems = (error as? DiagnosticList)?.diagnostics ?? [Diagnostic(FlowError.wrap(error).message, in: SourceFile(path: path, text: ""), at: Span(0, 0))]
            if key == nil, let list = error as? DiagnosticList { Loader.report(list) }
            let declared = key?.tests ?? (try? source ?? SourceFile.load(path: path))?.declaredTests.map { ($0.name, $0.points) } ?? []
            let tests: [(name: String, points: Int)] = declared.isEmpty ? [(path, 1)] : declared
            // Why, once per file, where no one sees standard error (a report
            // for a program, the grader): the student's own code, with its
            // lines; never the key's.
            let why = capture == nil || feedback < .where ? ""
                : problems.filter { key == nil || $0.location.file != key?.file.path }.prefix(5).map { $0.render(color: color) }.joined(separator: "\n")
            return FileRun(file: path, results: tests.enumerated().map { index, test in
                .init(file: path, name: test.name, status: .fileDoesNotCompile, details: index == 0 ? why : "", points: 0, possible: test.points)
            }, compiled: false)
        }
        let showingSource = key == nil
        var results: [TestReport.Result] = []
        var warnings = feedback < .where ? [] : key?.warnings(for: file) ?? []
        let declared = key?.file.declaredTests ?? file.declaredTests
        func points(_ name: String) -> Int { declared.first { $0.name == name }?.points ?? 1 }
        func describe(_ outcome: Program.Outcome) -> [String] {
            outcome.failures.compactMap { feedback.describe($0, file: file, color: color, showingSource: showingSource, answered: answered && key == nil) }
                + outcome.errors.compactMap { feedback.describe($0, file: file, color: color, showingSource: showingSource) }
        }
        func record(_ name: String, _ outcome: Program.Outcome, points: Int, earned: Int? = nil) {
            var result = TestReport.Result(file: file.path, name: name, status: outcome.passed ? .passed : .failed,
                                           details: outcome.passed ? "" : describe(outcome).joined(separator: "\n"),
                                           points: earned ?? (outcome.passed ? points : 0),
                                           possible: points, output: feedback >= .why ? capture?.output(of: name) ?? "" : "")
            result.committed = outcome.commits.lines()
            results.append(result)
        }
        func broken(_ name: String, _ problems: [Diagnostic]) {
            let shown = feedback < .where ? [] : problems.map { key?.describe($0) ?? $0.render(color: color) }
            results.append(.init(file: file.path, name: name, status: .testDoesNotCompile,
                                 details: shown.joined(separator: "\n"), points: 0, possible: points(name)))
        }
        // The statements outside any block form one more run, named after the file.
        program.drawsLanes = false
        // Errors are shown with the test they fail, after its ✗ line.
        program.reportsErrors = false
        capture?.begin(file.path)
        let topLevel = program.run(on: .virtual)
        if key != nil {
            // Graded on a key, the file's own top level earns and costs
            // nothing: what failed there is a warning (and fails the key's
            // tests that use a declaration that failed).
            warnings += feedback < .where ? [] : describe(topLevel).map { "warning (outside the tests, not graded): " + $0 }
        } else if topLevel.expectations > 0 || !topLevel.passed {
            // The statements outside the blocks are one more test, worth a
            // point, when they expect something or fail.
            record(file.path, topLevel, points: 1)
        }
        for (index, name) in program.testNames.enumerated() {
            let problems = program.problems(ofTest: index)
            capture?.begin(name)
            if problems.isEmpty {
                let outcome = program.runTest(index)
                record(name, outcome, points: program.points(ofTest: index), earned: program.earned(ofTest: index, outcome))
            } else {
                broken(name, problems)
            }
        }
        for (name, problems) in program.brokenTests { broken(name, problems) }
        // A block a syntax error swallowed (an unclosed brace) still counts.
        var compiledNames = program.testNames + program.brokenTests.map(\.name)
        for name in declared.map(\.name) {
            if let i = compiledNames.firstIndex(of: name) { compiledNames.remove(at: i) } else { broken(name, []) }
        }
        let topLevelIsATest = results.contains { $0.name == file.path }
        var run = FileRun(file: path, results: results, compiled: true, output: topLevelIsATest || feedback < .why ? "" : capture?.output(of: file.path) ?? "")
        run.warnings = warnings
        if !topLevelIsATest { run.committed = topLevel.commits.lines() }
        return run
    }
}

/// The results of `flow test`, as text for a person (each line as it
/// comes) or as TAP, JSON or JUnit XML for a program. In those, what the
/// scripts printed travels with each test (TAP comment lines, a JSON field,
/// JUnit's `<system-out>`) and nothing else reaches the destination.
///
/// What a test's sinks committed (`CommitLedger.summary`) follows it in
/// each format: lines indented under its ✓ or ✗ line, TAP comment lines
/// after its entry, a JSON `committed` array of lines, JUnit's
/// `<system-err>` (the run's own notes, as `flow run` writes them to
/// standard error). The statements outside a file's tests, when they are
/// not a test themselves, are said before its tests, or in the file's
/// entry (JSON's `files`, the JUnit suite's `<system-err>`).
final class TestReport {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, tap, json, junit
    }

    struct Result {
        enum Status: String {
            case passed, failed, testDoesNotCompile = "test does not compile", fileDoesNotCompile = "file does not compile"
            /// `flow grade` stopped the file (time, memory, a crash).
            case stopped
        }
        var file: String
        var name: String
        var status: Status
        /// What failed: expectation diffs, stream errors or compile errors.
        var details: String
        /// The points earned: what the test is worth if it passed, else 0.
        var points = 0
        /// What the test is worth when a class is graded.
        var possible = 1
        /// What the script printed during the test, when captured.
        var output = ""
        /// What the test's sinks committed, a line each (`CommitLedger.lines`).
        var committed: [String] = []

        var json: Value {
            .dictionary(["name": .string(name), "status": .string(status.rawValue), "points": .int(points), "possible": .int(possible),
                         "details": .string(details), "output": .string(output)])
        }

        init(file: String, name: String, status: Status, details: String, points: Int = 0, possible: Int = 1, output: String = "") {
            (self.file, self.name, self.status, self.details) = (file, name, status, details)
            (self.points, self.possible, self.output) = (points, possible, output)
        }

        /// A result as `json` wrote it; its file is the run's.
        init?(json value: Value) {
            guard case .dictionary(let d) = value, case .string(let name)? = d["name"], case .string(let raw)? = d["status"],
                  let status = Status(rawValue: raw), case .int(let points)? = d["points"], case .int(let possible)? = d["possible"],
                  case .string(let details)? = d["details"], case .string(let output)? = d["output"] else { return nil }
            self.init(file: "", name: name, status: status, details: details, points: points, possible: possible, output: output)
        }
    }

    let format: Format
    private let destination: ReportDestination
    private(set) var results: [Result] = []
    /// What each file printed and committed outside its tests, for the
    /// files where either is not empty.
    private var fileOutputs: [(file: String, output: String, committed: [String])] = []
    private(set) var filesNotCompiled = 0
    var passed: Int { results.filter { $0.status == .passed }.count }
    var failed: Int { results.count - passed }

    /// Whether the text report keeps its own colours (a terminal's).
    private let color: Bool

    init(format: Format, destination: ReportDestination, color: Bool = false) {
        self.format = format
        self.destination = destination
        self.color = color
        if format == .tap { destination.write("TAP version 13") }
    }

    func fileDidNotCompile(_ path: String) { filesNotCompiled += 1 }

    func add(_ run: TestRunner.FileRun) {
        if !run.output.isEmpty || !run.committed.isEmpty {
            fileOutputs.append((run.file, run.output, run.committed))
        }
        if !run.output.isEmpty, format == .tap { destination.write(Self.tapComment(run.output)) }
        if !run.committed.isEmpty {
            let summary = CommitLedger.summary(run.committed, ending: "\(run.file), outside its tests")
            switch format {
            case .text: destination.write(Self.visibleLines(summary, color: false))
            case .tap: destination.write(Self.tapComment(summary))
            case .json, .junit: break
            }
        }
        for result in run.results { add(result) }
    }

    private func add(_ result: Result) {
        results.append(result)
        switch format {
        case .text:
            // Names and files on their one line, shown visibly; details as lines.
            let named = "\(UnforgeableText.line(result.file)): \(UnforgeableText.line(result.name))"
            switch result.status {
            case .passed: destination.write("✓ \(named)")
            case .failed: destination.write("✗ \(named)")
            case .testDoesNotCompile: destination.write("✗ \(named) (the test does not compile)")
            case .fileDoesNotCompile: destination.write("✗ \(named) (the file does not compile)")
            case .stopped: destination.write("✗ \(named) (stopped)")
            }
            if !result.details.isEmpty { destination.write(Self.visibleLines(result.details, color: color)) }
            if !result.committed.isEmpty {
                destination.write(Self.visibleLines(CommitLedger.summary(result.committed), color: false)
                    .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
            }
        case .tap:
            let ok = result.status == .passed ? "ok" : "not ok"
            destination.write("\(ok) \(results.count) - \(Self.tapDescription(result.file)): \(Self.tapDescription(result.name))")
            if !result.output.isEmpty { destination.write(Self.tapComment(result.output)) }
            if result.status != .passed {
                // A YAML block, as TAP 13 gives a failure's details.
                destination.write("  ---\n  status: \(result.status.rawValue)")
                if !result.details.isEmpty {
                    destination.write("  details: |\n" + Self.tapLines(result.details).map { "    " + $0 }.joined(separator: "\n"))
                }
                destination.write("  ...")
            }
            if !result.committed.isEmpty { destination.write(Self.tapComment(CommitLedger.summary(result.committed))) }
        case .json, .junit:
            break
        }
    }

    /// A failure's details for the text report: its lines kept, every
    /// other control shown visibly (`UnforgeableText`), except, on a
    /// terminal, the report's own colours (SGR: `ESC [ digits ; ... m`).
    private static func visibleLines(_ text: String, color: Bool) -> String {
        guard text.unicodeScalars.contains(where: { UnforgeableText.isControl($0) && $0 != "\n" }) else { return text }
        var out = ""
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard color else { lines.append(UnforgeableText.line(String(line))); continue }
            // Between colour sequences, the text shown visibly.
            out = ""
            var rest = Substring(line)
            while let escape = rest.firstIndex(of: "\u{1B}") {
                out += UnforgeableText.line(String(rest[..<escape]))
                let after = rest[rest.index(after: escape)...]
                if after.hasPrefix("["), let m = after.dropFirst().firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ";")) }), after[m] == "m" {
                    out += "\u{1B}" + after[..<after.index(after: m)]
                    rest = after[after.index(after: m)...]
                } else {
                    out += "\\u{1B}"
                    rest = after
                }
            }
            lines.append(out + UnforgeableText.line(String(rest)))
        }
        return lines.joined(separator: "\n")
    }

    /// Printed text as TAP comment lines, which a TAP reader shows and skips.
    private static func tapComment(_ text: String) -> String {
        tapLines(text).map { "# " + $0 }.joined(separator: "\n")
    }

    /// Text as TAP lines: split at its newlines, and every other character
    /// a reader could take for the end of a line (`\r`, U+2028...) shown
    /// visibly, so no line a script controls can become a test line or a plan.
    private static func tapLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { UnforgeableText.line(String($0)) }
    }

    /// A test's description on its `ok` line: on that line, and with `#`
    /// (a directive: `# SKIP`) and `\` escaped as TAP 13 says.
    private static func tapDescription(_ text: String) -> String {
        var escaped = ""
        for c in text {
            if c == "\\" || c == "#" { escaped.append("\\") }
            escaped.append(c)
        }
        return UnforgeableText.line(escaped)
    }

    func finish() throws {
        switch format {
        case .text:
            let broken = filesNotCompiled == 1 ? "1 file does" : "\(filesNotCompiled) files do"
            destination.write("\(passed) passed, \(failed) failed" + (filesNotCompiled > 0 ? "; \(broken) not compile" : ""))
        case .tap:
            destination.write("1..\(results.count)")
        case .json:
            let tests = results.map { result -> Value in
                .dictionary(["file": .string(result.file), "name": .string(result.name), "status": .string(result.status.rawValue),
                             "details": .string(result.details), "output": .string(result.output),
                             "committed": .array(result.committed.map(Value.string))])
            }
            // What files printed or committed outside their tests, for the files that did.
            let files = Value.array(fileOutputs.map {
                .dictionary(["file": .string($0.file), "output": .string($0.output), "committed": .array($0.committed.map(Value.string))])
            })
            let summary: Value = .dictionary(["passed": .int(passed), "failed": .int(failed), "filesNotCompiled": .int(filesNotCompiled),
                                              "tests": .array(tests), "files": files])
            destination.write((try? JSON.string(summary)) ?? "{}")
        case .junit:
            destination.write(junit())
        }
        try destination.close()
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
            out += "  <testsuite name=\"\(attribute(file))\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
            for result in cases {
                out += "    <testcase classname=\"\(attribute(file))\" name=\"\(attribute(result.name))\""
                if result.status == .passed && result.output.isEmpty && result.committed.isEmpty {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                if result.status != .passed {
                    out += "      <failure message=\"\(attribute(result.status.rawValue))\">\(xml(result.details))</failure>\n"
                }
                if !result.output.isEmpty { out += "      <system-out>\(xml(result.output))</system-out>\n" }
                if !result.committed.isEmpty { out += "      <system-err>\(xml(CommitLedger.summary(result.committed)))</system-err>\n" }
                out += "    </testcase>\n"
            }
            if let printed = fileOutputs.first(where: { $0.file == file }) {
                if !printed.output.isEmpty { out += "    <system-out>\(xml(printed.output))</system-out>\n" }
                if !printed.committed.isEmpty { out += "    <system-err>\(xml(CommitLedger.summary(printed.committed)))</system-err>\n" }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>"
    }

    private func xml(_ text: String) -> String { XML.escape(text) }
    private func attribute(_ text: String) -> String { XML.escapeAttribute(text) }
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
