import FlowIO
import FlowLanguage
import FlowRuntime

/// What `flow grade` reports: a row per file, then the class as a whole,
/// as text for the teacher, JSON for a program, or CSV for a gradebook.
struct ClassReport {
    let rows: [ClassGrader.Row]
    /// The tests in column order: the key's, or every name the files use,
    /// in the order first met.
    let testNames: [String]
    let details: Bool

    init(rows: [ClassGrader.Row], testNames: [String]?, details: Bool) {
        self.rows = rows
        self.details = details
        var names = testNames ?? []
        if testNames == nil {
            for row in rows {
                for result in row.run.results where !names.contains(Self.column(result, of: row)) { names.append(Self.column(result, of: row)) }
            }
        }
        self.testNames = names
    }

    /// The statements outside a file's test blocks run as one more test,
    /// named after the file; across the class they are one column.
    static let outsideTests = "(outside tests)"

    static func column(_ result: TestReport.Result, of row: ClassGrader.Row) -> String {
        result.name == row.run.file ? outsideTests : result.name
    }

    private func result(_ name: String, in row: ClassGrader.Row) -> TestReport.Result? {
        row.run.results.first { Self.column($0, of: row) == name }
    }

    // MARK: - The class as a whole

    struct TestSummary {
        var name: String
        var passed: Int
        var of: Int
    }

    /// How many passed each test, of the files that have it.
    var testSummaries: [TestSummary] {
        testNames.map { name in
            let results = rows.compactMap { row in result(name, in: row) }
            return TestSummary(name: name, passed: results.filter { $0.status == .passed }.count, of: results.count)
        }
    }

    var mean: Double { rows.isEmpty ? 0 : Double(rows.map(\.earned).reduce(0, +)) / Double(rows.count) }

    var median: Double {
        let sorted = rows.map(\.earned).sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The tests most files failed, worst first (those anyone failed).
    var mostFailed: [TestSummary] {
        testSummaries.filter { $0.passed < $0.of }.sorted { ($0.of - $0.passed, $1.name) > ($1.of - $1.passed, $0.name) }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }

    // MARK: - Text

    func writeText(to destination: ReportDestination) {
        let width = max(4, rows.map(\.run.file.count).max() ?? 0) + 2
        func pad(_ text: String, _ n: Int) -> String { text + String(repeating: " ", count: max(1, n - text.count)) }
        destination.write(pad("file", width) + pad("tests", 12) + "points")
        for row in rows {
            let note = row.stopped ?? (row.run.compiled ? "" : "does not compile")
            let tests = "\(row.passed) of \(row.run.results.count)", points = "\(row.earned) of \(row.possible)"
            destination.write((pad(row.run.file, width) + pad(tests, 12) + pad(points, 12) + note).trimmingTrailingSpaces())
            guard details else { continue }
            for warning in row.run.warnings {
                destination.write(warning.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    .map { ($0.offset == 0 ? "  ! " : "    ") + $0.element }.joined(separator: "\n"))
            }
            for result in row.run.results where result.status != .passed && result.status != .stopped {
                destination.write("  ✗ \(result.name)" + (result.status == .failed ? "" : " (\(result.status.rawValue))"))
                if !result.details.isEmpty {
                    destination.write(result.details.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
                }
            }
        }
        let tests = rows.map(\.run.results.count).reduce(0, +), passed = rows.map(\.passed).reduce(0, +)
        let possible = rows.map(\.possible).reduce(0, +), earned = rows.map(\.earned).reduce(0, +)
        let broken = rows.filter { !$0.run.compiled }.count, stopped = rows.filter { $0.stopped != nil }.count
        destination.write("\(rows.count) file\(rows.count == 1 ? "" : "s"): \(passed) of \(tests) tests passed, \(earned) of \(possible) points"
                          + (broken == 0 ? "" : "; \(broken) file\(broken == 1 ? " does" : "s do") not compile")
                          + (stopped == 0 ? "" : "; \(stopped) file\(stopped == 1 ? " was" : "s were") stopped"))
        guard rows.count > 1 else { return }
        destination.write("")
        destination.write("class: points per file: mean \(Self.number(mean)), median \(Self.number(median))")
        let nameWidth = max(4, testNames.map(\.count).max() ?? 0) + 2
        destination.write(pad("test", nameWidth) + "passed")
        for summary in testSummaries { destination.write(pad(summary.name, nameWidth) + "\(summary.passed) of \(summary.of)") }
        if let worst = mostFailed.first {
            let failing = mostFailed.prefix(3).map { "\($0.name) (\($0.of - $0.passed) of \($0.of))" }
            destination.write("most failed: " + failing.joined(separator: ", ") + (worst.passed == 0 ? "; nobody passed \(worst.name)" : ""))
        }
    }

    // MARK: - JSON

    func writeJSON(to destination: ReportDestination) {
        let files = rows.map { row -> Value in
            .dictionary([
                "file": .string(row.run.file), "compiled": .bool(row.run.compiled), "stopped": row.stopped.map(Value.string) ?? .null,
                "passed": .int(row.passed), "tests": .int(row.run.results.count),
                "points": .int(row.earned), "possiblePoints": .int(row.possible), "output": .string(row.run.output),
                "warnings": .array(row.run.warnings.map(Value.string)), "results": .array(row.run.results.map(\.json)),
            ])
        }
        let summary: Value = .dictionary([
            "files": .int(rows.count), "meanPoints": .double(mean), "medianPoints": .double(median),
            "tests": .array(testSummaries.map { .dictionary(["name": .string($0.name), "passed": .int($0.passed), "of": .int($0.of)]) }),
        ])
        destination.write((try? JSON.string(.dictionary(["files": .array(files), "summary": summary]))) ?? "{}")
    }

    // MARK: - CSV

    /// One row per file and one column per test (the points earned), then
    /// the total, what was possible, and why a file scored nothing: what a
    /// gradebook imports (RFC 4180).
    func writeCSV(to destination: ReportDestination) {
        destination.write((["file"] + testNames + ["points earned", "points possible", "note"]).map(Self.csvField).joined(separator: ","))
        for row in rows {
            let cells = testNames.map { name in result(name, in: row).map { String($0.points) } ?? "" }
            let note = row.stopped ?? (row.run.compiled ? "" : "does not compile")
            destination.write(([row.run.file] + cells + [String(row.earned), String(row.possible), note]).map(Self.csvField).joined(separator: ","))
        }
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
