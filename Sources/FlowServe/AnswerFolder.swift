import FlowLanguage
import FlowRuntime
import Foundation

/// Where `flow serve --exercise` keeps each student's answers: one `.flow`
/// file per student, named after the roster's file or the name they
/// claimed, which `flow grade FOLDER` grades. A student who saves again
/// replaces their file (each save is one atomic write); a name is reduced
/// to letters, digits, `-` and `_`, so it can never lead out of the folder.
struct AnswerFolder: Sendable {
    let path: String

    /// The most answer files the folder takes from the page: a class, not
    /// whatever a script could send.
    static let mostFiles = 2_000
    static let longestName = 60

    init(path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ScriptFolder.Refused(description: "\(path): cannot make the answers folder: \(error.localizedDescription)")
        }
        guard let real = ScriptFolder.realPath(path) else { throw ScriptFolder.Refused(description: "\(path): no such folder") }
        self.path = real
    }

    /// A character a name keeps where it is written on one line of a file
    /// (the answer file's header): no line break, control or format character.
    static func isShownInALine(_ c: Character) -> Bool {
        !c.isNewline && !c.unicodeScalars.contains { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }
    }

    /// A student's name as a file name: `Ada Lovelace` is `ada-lovelace`.
    static func fileName(for student: String) -> String? {
        var name = ""
        for c in student.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber || c == "_") { name.append(c) }
            else if (c == " " || c == "-" || c == "." || c == "/" || c == "\\") && !name.isEmpty && name.last != "-" { name.append("-") }
            if name.count >= longestName { break }
        }
        while name.hasSuffix("-") { name.removeLast() }
        return name.isEmpty ? nil : name + ".flow"
    }

    /// Writes `text` as the answers in `name` (a name `fileName(for:)` or
    /// the roster made, never a path); the file's name under the folder.
    func save(_ text: String, file name: String) throws -> String {
        guard !name.contains("/"), name != ".flow", name.hasSuffix(".flow"), !name.hasPrefix(".") else {
            throw ScriptFolder.Refused(description: "\(name) is no answer file's name")
        }
        guard text.utf8.count <= ScriptFolder.largestScript else { throw ScriptFolder.Refused(description: "answers larger than 1 MiB are not saved") }
        let target = path + "/" + name
        if !FileManager.default.fileExists(atPath: target) {
            let count = (try? FileManager.default.contentsOfDirectory(atPath: path).count { $0.hasSuffix(".flow") }) ?? 0
            guard count < Self.mostFiles else { throw ScriptFolder.Refused(description: "the answers folder already holds \(Self.mostFiles) files") }
        }
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw ScriptFolder.Refused(description: "your answers cannot be written: \(error.localizedDescription)")
        }
        return name
    }
}

/// `flow serve --exercise FILE`: the exercise, checked when the server
/// starts (it must compile and hold a `???` lane), and its answers folder.
struct ExerciseFile: Sendable {
    let folder: ScriptFolder
    let name: String
    let answers: AnswerFolder
    /// Where the file says `reveal: true`, which a class does not honour:
    /// a student sees a right lane only after giving up on it.
    let revealsOnCheck: [SourceLocation]

    init(folder: ScriptFolder, answers: AnswerFolder, modules: [BuiltinModule]) throws {
        guard let name = folder.single else { throw ScriptFolder.Refused(description: "--exercise takes one .flow file, not a folder") }
        self.folder = folder
        self.name = name
        self.answers = answers
        let file = SourceFile(path: name, text: try folder.read(name))
        let run = withLargeStack { ExerciseSheet.run(file, modules: modules, dialect: nil) }
        switch run {
        case .failure(let notRun):
            throw ScriptFolder.Refused(description: "the exercise does not run:\n" + notRun.errors.map(\.text).joined(separator: "\n"))
        case .success(let done) where done.questions.isEmpty:
            throw ScriptFolder.Refused(description: "\(name) holds no exercise: write toBe(\"???\") where students are to draw the lane")
        case .success(let done) where !done.errors.isEmpty:
            throw ScriptFolder.Refused(description: "the exercise does not run:\n" + done.errors.map(\.text).joined(separator: "\n"))
        case .success(let done):
            revealsOnCheck = done.questions.filter(\.question.reveals).map(\.question.location)
        }
    }

    func text() throws -> String { try folder.read(name) }
}
