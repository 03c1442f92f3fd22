import Foundation
import Synchronization

/// One student of a class's roster, as `flow serve --exercise --roster`
/// is given it: the answer file's name (without `.flow`), and who it is.
public struct ClassMember: Sendable, Equatable {
    public var file: String
    public var name: String
    public var id: String
    public var email: String

    public init(file: String, name: String, id: String, email: String) {
        (self.file, self.name, self.id, self.email) = (file, name, id, email)
    }
}

/// Who answers `flow serve --exercise`, and what each has done. Every
/// student has a token of their own: from the roster, issued at the start
/// (a personal link); without one, issued when the student first gives a
/// name, which is then theirs (a cookie) and nobody else's. The teacher
/// has a token too, for `/teacher`. A student's answers go to one file,
/// named from the roster or the claimed name, which no other token writes.
///
/// The register is kept beside the answers (`.flow-serve-class.json`, read
/// and written by the owner alone), so a server started again knows its
/// class: the links stay valid, a name stays taken, a give-up stays given.
final class ClassRegister: Sendable {
    struct Student: Codable, Sendable {
        var token: String
        var name: String
        /// The answer file's name, `ada-lovelace.flow`.
        var file: String
        var id: String?
        var email: String?
        var answers: [String: ExerciseSheet.Answer] = [:]
        var record = ExerciseRecord()
        /// When the student's page last sent anything (seconds since 1970).
        var seen: Int64?
    }

    fileprivate struct State: Codable {
        var teacher: String
        var students: [Student]
    }

    struct Refused: Error, CustomStringConvertible {
        var status: Int
        var description: String
    }

    static let fileName = ".flow-serve-class.json"

    let answers: AnswerFolder
    /// The roster's students, or nil: names are claimed on the page.
    let roster: [ClassMember]?
    private let state: Mutex<State>
    /// The answer files of the students on the roster (or all, without one).
    private let active: Set<String>?

    init(answers: AnswerFolder, roster: [ClassMember]?) throws {
        self.answers = answers
        self.roster = roster
        let path = answers.path + "/" + Self.fileName
        var state: State
        if let data = FileManager.default.contents(atPath: path) {
            guard let kept = try? JSONDecoder().decode(State.self, from: data) else {
                throw ScriptFolder.Refused(description: "\(path): the class register does not read; move it away to start the class afresh")
            }
            state = kept
        } else {
            state = State(teacher: RequestGuard.newToken(), students: [])
        }
        if let roster {
            for member in roster {
                let file = member.file + ".flow"
                if let i = state.students.firstIndex(where: { $0.file == file }) {
                    state.students[i].name = member.name.isEmpty ? member.file : member.name
                    state.students[i].id = member.id
                    state.students[i].email = member.email
                } else {
                    state.students.append(Student(token: RequestGuard.newToken(), name: member.name.isEmpty ? member.file : member.name,
                                                  file: file, id: member.id, email: member.email))
                }
            }
            active = Set(roster.map { $0.file + ".flow" })
        } else {
            active = nil
        }
        self.state = Mutex(state)
        try state.write(to: path)
    }

    var path: String { answers.path + "/" + Self.fileName }
    var teacherToken: String { state.withLock { $0.teacher } }

    /// The students who may answer now, in the roster's order (or the order they came).
    var students: [Student] {
        state.withLock { state in
            let all = state.students.filter { active?.contains($0.file) ?? true }
            guard let roster else { return all }
            let order = Dictionary(uniqueKeysWithValues: roster.enumerated().map { ($0.element.file + ".flow", $0.offset) })
            return all.sorted { order[$0.file, default: .max] < order[$1.file, default: .max] }
        }
    }

    /// The student whose token this is. Every token is compared, each in
    /// constant time, so the time taken tells nothing of any token.
    func student(presenting token: String?) -> Student? {
        guard let token else { return nil }
        return state.withLock { state in
            var found: Student?
            for student in state.students where RequestGuard.sameSecret(student.token, token) && (active?.contains(student.file) ?? true) {
                found = student
            }
            return found
        }
    }

    func isTeacher(_ token: String?) -> Bool {
        guard let token else { return false }
        return RequestGuard.sameSecret(teacherToken, token)
    }

    /// Whether a token is the class's: the teacher's or a student's.
    func knows(_ token: String) -> Bool { isTeacher(token) || student(presenting: token) != nil }

    /// Without a roster: `name` becomes the student's, with a new token.
    /// A name whose answer file is already someone's (claimed here, or on
    /// disk from before) is refused: nobody answers as another.
    func claim(_ name: String) throws -> Student {
        guard roster == nil else {
            throw Refused(status: 403, description: "this class has a roster: open the personal link your teacher gave you")
        }
        // A tab or a line break in a name is a space: `Ada\tLovelace` is Ada Lovelace's name.
        let spaced = String(name.map { AnswerFolder.isShownInALine($0) ? $0 : " " })
        let shown = spaced.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").prefix(AnswerFolder.longestName)
            .trimmingCharacters(in: .whitespaces)
        guard let file = AnswerFolder.fileName(for: shown) else {
            throw Refused(status: 422, description: "type your name (letters or digits)")
        }
        return try state.withLock { state in
            if state.students.contains(where: { $0.file == file }) || FileManager.default.fileExists(atPath: answers.path + "/" + file) {
                throw Refused(status: 409, description: "the name \(shown) is taken: if it is yours, go back to the browser you first used; "
                              + "otherwise add something to it (Ada L.)")
            }
            guard state.students.count < AnswerFolder.mostFiles else {
                throw Refused(status: 422, description: "the class already has \(AnswerFolder.mostFiles) students")
            }
            let student = Student(token: RequestGuard.newToken(), name: shown, file: file)
            state.students.append(student)
            try state.write(to: path)
            return student
        }
    }

    /// Changes the student `token` names (kept only if still there), and
    /// keeps the register on disk when `lasting`; the student as changed.
    @discardableResult
    func update(_ token: String, lasting: Bool, _ change: (inout Student) -> Void) throws -> Student? {
        try state.withLock { state -> Student? in
            guard let i = state.students.firstIndex(where: { RequestGuard.sameSecret($0.token, token) }) else { return nil }
            change(&state.students[i])
            state.students[i].seen = Self.now()
            if lasting { try state.write(to: path) }
            return state.students[i]
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }
}

extension ClassRegister.State {
    /// One atomic write, readable by the owner alone: it holds the tokens.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(self)
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ScriptFolder.Refused(description: "\(path): the class register cannot be written")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ScriptFolder.Refused(description: "\(path): the class register cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
