import FlowMarbles
import Foundation

/// The teacher's view of a class answering `flow serve --exercise`: for
/// each student and question, the answer as it stands, the last check's
/// verdict, how many checks, and whether the right lane was shown; as JSON
/// for `/teacher` and as CSV to export.
struct ClassView: Codable, Sendable {
    var exercise: String
    var questions: [String]
    var students: [StudentRow]

    struct StudentRow: Codable, Sendable {
        var name: String
        var file: String
        var id: String?
        var email: String?
        /// When the student's page last sent anything, `2026-11-28T01:40:05Z`.
        var seen: String?
        var questions: [String: QuestionState]
    }

    struct QuestionState: Codable, Sendable {
        /// The answer in marble notation, or "" unanswered.
        var answer: String
        /// "right", "wrong", or nil before any check.
        var lastCheck: String?
        var checks: Int
        var gaveUp: Bool
        /// Shown before the student had it right (graded by `--after-reveal`).
        var revealed: Bool
    }

    var csv: String {
        let rostered = students.contains { $0.id != nil || $0.email != nil }
        var header = ["name"] + (rostered ? ["id", "email"] : []) + ["file", "last seen"]
        for question in questions { header += ["\(question): answer", "\(question): last check", "\(question): checks", "\(question): revealed"] }
        var lines = [header.map { SpreadsheetText.cell($0) }.joined(separator: ",")]
        for student in students {
            var cells = [SpreadsheetText.cell(student.name)]
            if rostered { cells += [SpreadsheetText.cell(student.id ?? ""), SpreadsheetText.cell(student.email ?? "")] }
            cells += [SpreadsheetText.cell(student.file), SpreadsheetText.cell(student.seen ?? "")]
            for question in questions {
                let state = student.questions[question]
                cells += [SpreadsheetText.cell(state?.answer ?? ""), state?.lastCheck ?? "", String(state?.checks ?? 0),
                          state?.revealed == true ? (state?.gaveUp == true ? "gave up" : "shown") : ""]
            }
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

extension ExerciseServer {
    func classView() async -> ClassView {
        let text = (try? exercise.text()) ?? ""
        let questions = await playground.exercises(text, name: exercise.name, dialect: nil, answers: [:], check: false, gaveUp: [], checksReveal: false).questions.map(\.id)
        let rows = register.students.map { student in
            let revealed = Set(student.record.revealedBeforeRight)
            var states: [String: ClassView.QuestionState] = [:]
            for question in Set(questions).union(student.answers.keys.filter { questions.contains($0) }) {
                let checks = student.record.checks(of: question)
                let answer = (try? ExerciseSheet.events(of: student.answers[question])).map { MarbleRenderer.arguments(for: $0).marble } ?? "(does not read)"
                states[question] = ClassView.QuestionState(answer: answer, lastCheck: checks.last.map { $0.right == true ? "right" : "wrong" },
                                                           checks: checks.count, gaveUp: student.record.gaveUp(question),
                                                           revealed: revealed.contains(question))
            }
            return ClassView.StudentRow(name: student.name, file: student.file, id: student.id, email: student.email,
                                        seen: student.seen.map(ExerciseRecord.timeText), questions: states)
        }
        return ClassView(exercise: exercise.name, questions: questions, students: rows)
    }
}

/// Text a spreadsheet shows as text.
public enum SpreadsheetText {
    /// A CSV cell (RFC 4180) that a spreadsheet shows as text: one that
    /// would start with `=`, `+`, `-`, `@`, a tab or a carriage return (a
    /// formula, or what a spreadsheet strips to find one) starts with `'`,
    /// as OWASP advises; one with a comma, quote or line break is quoted.
    public static func cell(_ text: String, isNumber: Bool = false) -> String {
        var cell = text
        if !isNumber, let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
