import FlowLanguage
import FlowRuntime

/// `flow grade --key KEY.flow`: the teacher's file of test blocks, with
/// points, that every student is graded on. A student's file supplies the
/// names the tests use (the exercise's `let`s and `func`s); what the key
/// itself declares at its top level (the given input streams) is the key's,
/// whatever the student wrote. The student's own tests and other top-level
/// statements earn nothing and cost nothing: they are warnings.
///
/// The two files are compiled as the units they are (`Program(grading:on:)`),
/// never joined as text: a student's comments, `#!` line and layout stay
/// whole, and its errors keep its own lines and columns. The key's code
/// never reaches the student-facing report (`describe`).
struct AnswerKey {
    let file: SourceFile
    /// The key's tests and their points, in order.
    let tests: [(name: String, points: Int)]
    /// Names the key declares at its top level: the given inputs.
    let givenNames: Set<String>

    /// Refuses a key with no tests, one that does not parse, or one whose
    /// given declarations do not compile on their own.
    init(file: SourceFile) throws {
        self.file = file
        tests = file.declaredTests.map { ($0.name, $0.points) }
        if tests.isEmpty { throw KeyProblem(description: "\(file.path) has no test blocks: a key is a file of test \"name\" (points: n) { ... }") }
        givenNames = Set(file.topLevelStatements.compactMap { if case .declaration(let name) = $0.kind { name } else { nil } })
        let nobody = SourceFile(path: file.path + " (checked alone)", text: "")
        _ = try Program(grading: nobody, on: file, console: Console(out: { _ in }, err: { _ in }, color: false))
    }

    struct KeyProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// What the student's file holds that grading sets aside, as warnings:
    /// its own definitions of the key's given names, and its own tests.
    func warnings(for student: SourceFile) -> [String] {
        var warnings: [String] = []
        var ownTests: [String] = []
        for statement in student.topLevelStatements {
            switch statement.kind {
            case .declaration(let name) where givenNames.contains(name):
                warnings.append("\(student.location(of: statement.span.start)): warning: '\(name)' is given by the exercise; your definition is not used in grading")
            case .test(let name):
                ownTests.append(Self.quoted(name))
            default:
                continue
            }
        }
        if !ownTests.isEmpty {
            warnings.append("warning: your own test\(ownTests.count == 1 ? "" : "s") \(ownTests.joined(separator: ", ")) \(ownTests.count == 1 ? "is" : "are") not graded; the exercise's tests are")
        }
        return warnings
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

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
