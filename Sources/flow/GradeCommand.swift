import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `flow grade`: a class's files, one row each, with the tests passed and
/// the points earned.
struct Grade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade",
        abstract: "Grade a class: run the test blocks of every file, one row per file with tests passed and points.",
        discussion: """
            A test is worth one point unless it says otherwise: test "zip" (points: 2) { ... }. \
            A test block that does not compile fails alone; a file whose other code does not \
            compile scores nothing. Grading a class succeeds (exit 0) whatever the grades.
            """)

    @Argument(help: "The students' scripts, or folders searched for *.flow files.")
    var paths: [String]

    @Flag(help: "After each row, why each failed test failed.")
    var details = false

    @Flag(help: "With the details, show where an expected lane is wrong but not the lane the stream produced.")
    var hideActual = false

    @Option(help: "text (the default) or json.")
    var format: GradeFormat = .text

    enum GradeFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup(title: "Permissions (default: read the graded folder, nothing else; standard input is always empty)")
    var permissions: PermissionOptions

    /// The folders a student's script may read by default: each folder
    /// graded, or the folder of each file graded.
    var gradedFolders: [String] {
        paths.map { path in
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return path }
            guard let slash = path.lastIndex(of: "/") else { return "." }
            return slash == path.startIndex ? "/" : String(path[..<slash])
        }
    }

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the folder or the scripts to grade") }
    }

    struct Row {
        var file: String
        var results: [TestReport.Result]
        var compiled: Bool
        var passed: Int { results.filter { $0.status == .passed }.count }
        var earned: Int { results.filter { $0.status == .passed }.map(\.points).reduce(0, +) }
        var possible: Int { results.map(\.points).reduce(0, +) }
    }

    func run() throws {
        let files = try ScriptFinder.scripts(in: paths)
        let color = format == .text && Output.colorOnStandardOutput
        var rows: [Row] = []
        let access = Access(permissions.applied(to: .graded(folders: gradedFolders)))
        for path in files {
            let run = TestRunner.run(path, color: color, hidingActual: hideActual, access: access)
            // The top level's own expectations are not a student's test.
            rows.append(Row(file: path, results: run.results.filter { $0.name != path || !run.compiled }, compiled: run.compiled))
        }
        switch format {
        case .text: printTable(rows)
        case .json: printJSON(rows)
        }
    }

    private func printTable(_ rows: [Row]) {
        let width = max(4, rows.map(\.file.count).max() ?? 0) + 2
        func pad(_ text: String, _ n: Int) -> String { text + String(repeating: " ", count: max(1, n - text.count)) }
        Output.out(pad("file", width) + pad("tests", 12) + "points")
        for row in rows {
            let note = row.compiled ? "" : "does not compile"
            let tests = "\(row.passed) of \(row.results.count)", points = "\(row.earned) of \(row.possible)"
            Output.out((pad(row.file, width) + pad(tests, 12) + pad(points, 12) + note).trimmingTrailingSpaces())
            guard details else { continue }
            for result in row.results where result.status != .passed {
                Output.out("  ✗ \(result.name)" + (result.status == .failed ? "" : " (\(result.status.rawValue))"))
                if !result.details.isEmpty {
                    Output.out(result.details.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
                }
            }
        }
        let tests = rows.map(\.results.count).reduce(0, +), passed = rows.map(\.passed).reduce(0, +)
        let possible = rows.map(\.possible).reduce(0, +), earned = rows.map(\.earned).reduce(0, +)
        let broken = rows.filter { !$0.compiled }.count
        Output.out("\(rows.count) file\(rows.count == 1 ? "" : "s"): \(passed) of \(tests) tests passed, \(earned) of \(possible) points"
                   + (broken == 0 ? "" : "; \(broken) file\(broken == 1 ? " does" : "s do") not compile"))
    }

    private func printJSON(_ rows: [Row]) {
        let files = rows.map { row -> Value in
            .dictionary([
                "file": .string(row.file), "compiled": .bool(row.compiled), "passed": .int(row.passed), "tests": .int(row.results.count),
                "points": .int(row.earned), "possiblePoints": .int(row.possible),
                "results": .array(row.results.map { result in
                    .dictionary(["name": .string(result.name), "status": .string(result.status.rawValue), "points": .int(result.points),
                                 "details": .string(result.details)])
                }),
            ])
        }
        Output.out((try? JSON.string(.dictionary(["files": .array(files)]))) ?? "{}")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
