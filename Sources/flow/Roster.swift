import FlowLanguage

/// `flow grade --roster roster.csv`: who the class is. A CSV with a header
/// naming the columns `file` (the student's file, `ada.flow` or `ada`),
/// `id` (or `student id`, `id number`), `email` and optionally `name`, in
/// any order and case; other columns are ignored. It turns the report into
/// a gradebook's import (Moodle and Canvas match a column of ids or emails)
/// and names the students who handed in no file.
struct Roster {
    struct Student {
        var file: String
        var id: String
        var email: String
        var name: String
    }

    let students: [Student]

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String, text: String) throws {
        let records = try Self.records(text, path: path)
        guard let header = records.first else { throw Problem(description: "\(path): the roster is empty; it needs a header line: file,id,email") }
        let names = header.map { $0.trimmingCharacters(in: " \t").lowercased() }
        func column(_ accepted: [String]) -> Int? { names.firstIndex { accepted.contains($0) } }
        guard let file = column(["file", "filename", "file name"]) else {
            throw Problem(description: "\(path):1: the roster has no 'file' column (found: \(header.joined(separator: ", "))); its header is file,id,email[,name]")
        }
        let id = column(["id", "student id", "id number", "sis user id"]), email = column(["email", "email address", "e-mail"])
        let name = column(["name", "student", "full name"])
        guard id != nil || email != nil else {
            throw Problem(description: "\(path):1: the roster names neither an 'id' nor an 'email' column, which a gradebook matches students by")
        }
        var students: [Student] = []
        var seen: Set<String> = []
        for (index, record) in records.dropFirst().enumerated() where !(record.count == 1 && record[0].isEmpty) {
            func cell(_ i: Int?) -> String { i.flatMap { $0 < record.count ? record[$0].trimmingCharacters(in: " \t") : nil } ?? "" }
            let student = Student(file: cell(file), id: cell(id), email: cell(email), name: cell(name))
            guard !student.file.isEmpty else { throw Problem(description: "\(path):\(index + 2): a student without a file name") }
            guard seen.insert(Self.key(student.file)).inserted else {
                throw Problem(description: "\(path):\(index + 2): '\(student.file)' is on the roster twice")
            }
            students.append(student)
        }
        self.students = students
    }

    /// A file as the roster and the graded folder are matched: its last
    /// component without `.flow`.
    static func key(_ file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        return last.hasSuffix(".flow") ? String(last.dropLast(5)) : last
    }

    /// RFC 4180 records: fields separated by commas, quoted when they hold
    /// a comma, a quote (doubled) or a line break; CRLF or LF ends a record.
    static func records(_ text: String, path: String) throws -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = ""
        var quoted = false, atFieldStart = true, line = 1, quoteLine = 1
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        while let c = scalars.popFirst() {
            if quoted {
                if c == "\"" {
                    if scalars.first == "\"" { scalars = scalars.dropFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                quoted = true
                quoteLine = line
                atFieldStart = false
            case "\"":
                throw Problem(description: "\(path):\(line): a quote inside a field that does not start with one; quote the whole field and double the quote")
            case ",":
                record.append(field)
                field = ""
                atFieldStart = true
            case "\r" where scalars.first == "\n":
                continue
            case "\n", "\r":
                record.append(field)
                records.append(record)
                record = []
                field = ""
                atFieldStart = true
                line += 1
            default:
                field.unicodeScalars.append(c)
                atFieldStart = false
            }
        }
        if quoted { throw Problem(description: "\(path):\(quoteLine): a quoted field is never closed") }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, set.contains(last) { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
