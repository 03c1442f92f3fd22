import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

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
    /// The files the key names as data (`file.lines("prices.csv")`): every
    /// string literal of the key that names a regular file other than a
    /// script, a relative one from the key's own folder, resolved. A student's
    /// script may read these and its own file, nothing else by default.
    let dataFiles: [String]
    /// The key's folder, resolved: its relative paths are read from there,
    /// as `flow test` beside it reads them.
    let folder: String

    /// Refuses a key with no tests, one that does not parse, or one whose
    /// given declarations do not compile on their own.
    init(file: SourceFile) throws {
        self.file = file
        tests = file.declaredTests.map { ($0.name, $0.points) }
        if tests.isEmpty { throw KeyProblem(description: "\(file.path) has no test blocks: a key is a file of test \"name\" (points: n) { ... }") }
        givenNames = Set(file.topLevelStatements.compactMap { if case .declaration(let name) = $0.kind { name } else { nil } })
        let folder = Permissions.folder(of: Permissions.resolve(file.path))
        self.folder = folder
        dataFiles = Self.stringLiterals(in: file.text).filter { !$0.isEmpty && !$0.hasSuffix(".flow") }.map { text in
            text.hasPrefix("/") ? text : (folder == "/" ? "" : folder) + "/" + text
        }.filter { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }.map(Permissions.resolve).uniqued()
        let nobody = SourceFile(path: file.path + " (checked alone)", text: "")
        _ = try Program(grading: nobody, on: file, console: Console(out: { _ in }, err: { _ in }, color: false),
                        modules: IOModules.all(Access(.graded(folders: []))))
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

    /// The plain string literals of a script (no interpolation), its
    /// comments skipped.
    static func stringLiterals(in text: String) -> [String] {
        var literals: [String] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            switch c {
            case "#":
                scalars = scalars.drop { $0 != "\n" }
            case "/" where scalars.first == "/":
                scalars = scalars.drop { $0 != "\n" }
            case "/" where scalars.first == "*":
                var depth = 1
                scalars = scalars.dropFirst()
                while depth > 0, let d = scalars.popFirst() {
                    if d == "*", scalars.first == "/" { depth -= 1; scalars = scalars.dropFirst() }
                    else if d == "/", scalars.first == "*" { depth += 1; scalars = scalars.dropFirst() }
                }
            case "\"":
                var literal = "", plain = true
                while let d = scalars.popFirst(), d != "\"", d != "\n" {
                    if d == "\\" {
                        let escaped = scalars.popFirst()
                        if escaped == "(" { plain = false }
                        if let escaped { literal.unicodeScalars.append(escaped == "n" ? "\n" : escaped) }
                    } else {
                        literal.unicodeScalars.append(d)
                    }
                }
                if plain, !literal.isEmpty { literals.append(literal) }
            default:
                continue
            }
        }
        return literals
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
