import FlowLanguage
import FlowRuntime

/// `flow grade --key KEY.flow`: the teacher's file of test blocks, with
/// points, that every student is graded on. A student's file supplies the
/// names the tests use (the exercise's `let`s and `func`s); what the key
/// itself defines at its top level (the given input streams) is the key's,
/// whatever the student wrote. The student's own tests and other top-level
/// statements do not count: a deleted test scores 0, an added one nothing.
///
/// The two are joined as one script: the student's declarations, kept at
/// their offsets (everything else blanked, so the student's lines and
/// columns stay right), then the key. The key's code never reaches the
/// student-facing report (`describe`, and `showingSource: false`).
struct AnswerKey {
    let file: SourceFile
    /// The key's tests and their points, in order.
    let tests: [(name: String, points: Int)]
    /// Names the key declares at its top level.
    private let given: Set<String>
    /// The key's declarations, each on one line, joined by `;`: placed
    /// before the student's code, which may use them.
    private let givenLine: String
    /// The rest of the key (its tests above all), its declarations blanked.
    private let rest: String

    init(file: SourceFile) throws {
        self.file = file
        tests = file.declaredTests.map { ($0.name, $0.points) }
        if tests.isEmpty { throw KeyProblem(description: "\(file.path) has no test blocks: a key is a file of test \"name\" (points: n) { ... }") }
        let statements = file.topLevelStatements
        var names: Set<String> = []
        var lines: [String] = []
        var bytes = Array(file.text.utf8)
        for statement in statements {
            guard case .declaration(let name) = statement.kind else { continue }
            names.insert(name)
            lines.append(Self.oneLine(statement.span, of: file))
            Self.blank(statement.span, in: &bytes)
        }
        given = names
        givenLine = lines.joined(separator: "; ")
        rest = String(decoding: bytes, as: UTF8.self)
    }

    struct KeyProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// A student's file joined with the key.
    struct Graded {
        let file: SourceFile
        /// Bytes from this offset on are the key's tests.
        let keyStart: Int

        func isStudents(_ diagnostic: Diagnostic) -> Bool { diagnostic.span.start < keyStart }
    }

    func grading(_ student: SourceFile) -> Graded {
        var bytes = Array(student.text.utf8)
        let statements = student.topLevelStatements
        var firstKept: Int?
        for statement in statements {
            if case .declaration(let name) = statement.kind, !given.contains(name) {
                firstKept = firstKept ?? statement.span.start
                continue
            }
            Self.blank(statement.span, in: &bytes)
        }
        // The key's declarations go on a line left blank before the
        // student's first declaration, so no other line or column moves;
        // without one, at the start of the first line.
        let line = Array(givenLine.utf8)
        if !line.isEmpty {
            let limit = firstKept ?? bytes.count
            var lineStart = 0, blankLine: Range<Int>?
            while lineStart <= limit, blankLine == nil {
                let end = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if bytes[lineStart..<end].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }), end <= limit {
                    blankLine = lineStart..<end
                }
                lineStart = end + 1
                if end == bytes.count { break }
            }
            if let blankLine { bytes.replaceSubrange(blankLine, with: line) } else { bytes.insert(contentsOf: line + Array("; ".utf8), at: 0) }
        }
        let kept = String(decoding: bytes, as: UTF8.self)
        let separator = kept.hasSuffix("\n") || kept.isEmpty ? "" : "\n"
        return Graded(file: SourceFile(path: student.path, text: kept + separator + rest),
                      keyStart: kept.utf8.count + separator.utf8.count)
    }

    /// A problem of a key test, as the student sees it: what it needs from
    /// the student's file, never the key's code.
    func describe(_ diagnostic: Diagnostic) -> String {
        let message = diagnostic.message
        if message.hasPrefix("unknown name '"), let name = message.split(separator: "'").dropFirst().first {
            return "not defined: \(name) (the exercise asks your file to define it)"
        }
        return "error: " + message
    }

    /// Spaces over a statement's bytes, line breaks kept.
    private static func blank(_ span: Span, in bytes: inout [UInt8]) {
        for i in span.start..<min(span.end, bytes.count) where bytes[i] != UInt8(ascii: "\n") { bytes[i] = UInt8(ascii: " ") }
    }

    /// A statement's text on one line: line breaks become spaces and a
    /// comment between its tokens is dropped (it would end the line).
    private static func oneLine(_ span: Span, of file: SourceFile) -> String {
        let text = file.text(of: span)
        var out = ""
        var inComment = false, inString = false
        var previous: Character = " "
        for c in text {
            if inComment {
                if c == "\n" { inComment = false; out.append(" ") }
            } else if inString {
                out.append(c)
                if c == "\"" && previous != "\\" { inString = false }
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c == "#" || (c == "/" && previous == "/") {
                if c == "/" { out.removeLast() }
                inComment = true
            } else {
                out.append(c == "\n" ? " " : c)
            }
            previous = c
        }
        return out
    }
}
