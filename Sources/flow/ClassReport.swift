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
    /// How much is told: `none` keeps each file's total alone.
    let feedback: Feedback

    /// Each row's results by column, for lookups in constant time: a
    /// report is linear in the rows and tests it holds.
    private let resultsByColumn: [[String: TestReport.Result]]

    /// Who the class is, when the teacher gave a roster.
    var roster: Roster?

    init(rows: [ClassGrader.Row], testNames: [String]?, details: Bool, feedback: Feedback = .why, roster: Roster? = nil) {
        self.rows = rows
        self.roster = roster
        self.details = details && feedback > .none
        self.feedback = feedback
        var names = testNames ?? []
        var seen = Set(names)
        resultsByColumn = rows.map { row in
            var byColumn: [String: TestReport.Result] = [:]
            for result in row.run.results where byColumn[Self.column(result, of: row)] == nil {
                byColumn[Self.column(result, of: row)] = result
            }
            return byColumn
        }
        if testNames == nil {
            for row in rows {
                for result in row.run.results where seen.insert(Self.column(result, of: row)).inserted { names.append(Self.column(result, of: row)) }
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

    private func result(_ name: String, inRow index: Int) -> TestReport.Result? { resultsByColumn[index][name] }

    // MARK: - The class as a whole

    struct TestSummary {
        var name: String
        var passed: Int
        var of: Int
    }

    /// How many passed each test, of the files that have it.
    var testSummaries: [TestSummary] {
        testNames.map { name in
            let results = rows.indices.compactMap { result(name, inRow: $0) }
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

    /// What a script chose (file and test names, printed text, messages)
    /// is shown with its control characters visible, one report line per
    /// line, each indented under its row: nothing can pass for a row.
    func writeText(to destination: ReportDestination, stop: () -> Bool = { false }) {
        let shown = rows.map { UnforgeableText.line($0.run.file) }
        let width = max(4, shown.map(\.count).max() ?? 0) + 2
        func pad(_ text: String, _ n: Int) -> String { text + String(repeating: " ", count: max(1, n - text.count)) }
        func indented(_ text: String, first: String, rest: String) -> String {
            UnforgeableText.lines(text).enumerated().map { ($0.offset == 0 ? first : rest) + $0.element }.joined(separator: "\n")
        }
        destination.write(pad("file", width) + pad("tests", 12) + "points")
        for (index, row) in rows.enumerated() {
            // Ctrl-C while a long report is written stops it here.
            if stop() { return }
            let note = UnforgeableText.line(row.stopped ?? (row.run.compiled ? "" : "does not compile"))
            let tests = "\(row.passed) of \(row.run.results.count)", points = "\(row.earned) of \(row.possible)"
            destination.write((pad(shown[index], width) + pad(tests, 12) + pad(points, 12) + note).trimmingTrailingSpaces())
            guard details else { continue }
            for warning in row.run.warnings { destination.write(indented(warning, first: "  ! ", rest: "    ")) }
            if feedback == .score {
                // The points of each test, and nothing of why.
                for result in row.run.results {
                    destination.write("  \(result.status == .passed ? "✓" : "✗") \(UnforgeableText.line(result.name))"
                                      + (result.status == .passed || result.status == .failed ? "" : " (\(result.status.rawValue))")
                                      + ": \(result.points) of \(result.possible) point\(result.possible == 1 ? "" : "s")")
                }
                continue
            }
            for result in row.run.results where result.status != .passed && result.status != .stopped {
                destination.write("  ✗ \(UnforgeableText.line(result.name))" + (result.status == .failed ? "" : " (\(result.status.rawValue))"))
                if !result.details.isEmpty { destination.write(indented(result.details, first: "    ", rest: "    ")) }
            }
        }
        let tests = rows.map(\.run.results.count).reduce(0, +), passed = rows.map(\.passed).reduce(0, +)
        let possible = rows.map(\.possible).reduce(0, +), earned = rows.map(\.earned).reduce(0, +)
        let broken = rows.filter { !$0.run.compiled }.count, stopped = rows.filter { $0.stopped != nil }.count
        destination.write("\(rows.count) file\(rows.count == 1 ? "" : "s"): \(passed) of \(tests) tests passed, \(earned) of \(possible) points"
                          + (broken == 0 ? "" : "; \(broken) file\(broken == 1 ? " does" : "s do") not compile")
                          + (stopped == 0 ? "" : "; \(stopped) file\(stopped == 1 ? " was" : "s were") stopped"))
        let missing = studentsWithoutAFile
        if !missing.isEmpty {
            destination.write("no file from \(missing.count) student\(missing.count == 1 ? "" : "s") on the roster: "
                              + missing.map { UnforgeableText.line($0.name.isEmpty ? $0.file : "\($0.name) (\($0.file))") }.joined(separator: ", "))
        }
        if roster != nil {
            let unlisted = rows.filter { row in !(roster?.students.contains { Roster.key($0.file) == Roster.key(row.run.file) } ?? true) }
            if !unlisted.isEmpty { destination.write("not on the roster: " + unlisted.map { UnforgeableText.line($0.run.file) }.joined(separator: ", ")) }
        }
        guard rows.count > 1 else { return }
        destination.write("")
        destination.write("class: points per file: mean \(Self.number(mean)), median \(Self.number(median))")
        let names = testNames.map(UnforgeableText.line)
        let nameWidth = max(4, names.map(\.count).max() ?? 0) + 2
        destination.write(pad("test", nameWidth) + "passed")
        for (summary, name) in zip(testSummaries, names) { destination.write(pad(name, nameWidth) + "\(summary.passed) of \(summary.of)") }
        if let worst = mostFailed.first {
            let failing = mostFailed.prefix(3).map { "\(UnforgeableText.line($0.name)) (\($0.of - $0.passed) of \($0.of))" }
            destination.write("most failed: " + failing.joined(separator: ", ") + (worst.passed == 0 ? "; nobody passed \(UnforgeableText.line(worst.name))" : ""))
        }
    }

    // MARK: - JSON

    func writeJSON(to destination: ReportDestination) {
        let files = rows.map { row -> Value in
            .dictionary([
                "file": .string(row.run.file), "compiled": .bool(row.run.compiled), "stopped": row.stopped.map(Value.string) ?? .null,
                "passed": .int(row.passed), "tests": .int(row.run.results.count),
                "points": .int(row.earned), "possiblePoints": .int(row.possible), "output": .string(row.run.output),
                "warnings": .array(row.run.warnings.map(Value.string)),
                "results": feedback == .none ? .array([]) : .array(row.run.results.map(\.json)),
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
    /// gradebook imports (RFC 4180). No cell is a formula, and a test named
    /// like another column gets a header of its own.
    func writeCSV(to destination: ReportDestination) {
        let testNames = feedback == .none ? [] : self.testNames
        let identity = roster == nil ? [] : ["id", "email", "name"]
        destination.write((identity + ["file"] + Self.csvHeaders(for: testNames, besides: identity) + ["points earned", "points possible", "note"])
            .map { UnforgeableText.csvCell($0) }.joined(separator: ","))
        func line(_ student: Roster.Student?, _ index: Int) -> String {
            let row = rows[index]
            let cells = testNames.map { name in result(name, inRow: index).map { String($0.points) } ?? "" }
            let note = row.stopped ?? (row.run.compiled ? "" : "does not compile")
            let who = roster == nil ? [] : [student?.id ?? "", student?.email ?? "", student?.name ?? ""].map { UnforgeableText.csvCell($0) }
            let notes = [note, roster != nil && student == nil ? "not on the roster" : ""].filter { !$0.isEmpty }.joined(separator: "; ")
            return (who + [UnforgeableText.csvCell(row.run.file)] + cells
                    + [String(row.earned), String(row.possible), UnforgeableText.csvCell(notes)]).joined(separator: ",")
        }
        guard let roster else {
            for index in rows.indices { destination.write(line(nil, index)) }
            return
        }
        // The roster's order, each student once; a student with no file
        // scores 0 of what the others could; then files nobody is listed for.
        var rowByKey: [String: Int] = [:]
        for (index, row) in rows.enumerated() where rowByKey[Roster.key(row.run.file)] == nil { rowByKey[Roster.key(row.run.file)] = index }
        var listed: Set<Int> = []
        let possible = rows.map(\.possible).max() ?? 0
        for student in roster.students {
            if let index = rowByKey[Roster.key(student.file)] {
                listed.insert(index)
                destination.write(line(student, index))
            } else {
                let cells = [student.id, student.email, student.name, student.file].map { UnforgeableText.csvCell($0) }
                    + testNames.map { _ in "" } + ["0", String(possible), "no file"]
                destination.write(cells.joined(separator: ","))
            }
        }
        for index in rows.indices where !listed.contains(index) { destination.write(line(nil, index)) }
    }

    /// The roster's students with no file among the rows.
    var studentsWithoutAFile: [Roster.Student] {
        let keys = Set(rows.map { Roster.key($0.run.file) })
        return roster?.students.filter { !keys.contains(Roster.key($0.file)) } ?? []
    }

    /// The tests' column headers: a name equal to a fixed column's, or to
    /// another test's once made unique, is marked `(test)` and numbered.
    static func csvHeaders(for names: [String], besides others: [String] = []) -> [String] {
        var taken: Set<String> = Set(["file", "points earned", "points possible", "note"] + others)
        return names.map { name in
            var header = name
            if taken.contains(header) { header = name + " (test)" }
            var n = 2
            while taken.contains(header) {
                header = name + " (test \(n))"
                n += 1
            }
            taken.insert(header)
            return header
        }
    }

}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
