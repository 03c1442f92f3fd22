import FlowMarbles
import FlowRuntime
import Foundation

/// What a student did on `flow serve --exercise`'s page, as the server
/// saw it: every check (right or wrong), give-up and reveal, with its time.
/// The server writes it into the student's answer file as comment lines,
/// which `flow grade` reads to grade a revealed exercise as the teacher
/// chose (`--after-reveal`). Only the server writes these files; a line a
/// student typed into a value cannot become one (values are written as
/// literals, names without line breaks).
public struct ExerciseRecord: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case check, giveUp = "give-up", reveal }
        /// Seconds since 1970, whole.
        public var time: Int64
        public var kind: Kind
        /// The question: `test name#n`.
        public var question: String
        /// For a check: whether the answer was right.
        public var right: Bool?

        public init(time: Int64, kind: Kind, question: String, right: Bool? = nil) {
            (self.time, self.kind, self.question, self.right) = (time, kind, question, right)
        }
    }

    public var entries: [Entry] = []

    /// The most entries one student's record holds: a class's checks, not
    /// what a script could send (every check is written to the file).
    public static let mostEntries = 5_000

    public init(entries: [Entry] = []) { self.entries = entries }

    /// The test a question belongs to: its id without `#n`.
    public static func test(of question: String) -> String {
        guard let hash = question.lastIndex(of: "#"), question[question.index(after: hash)...].allSatisfy(\.isNumber) else { return question }
        return String(question[..<hash])
    }

    public func checks(of question: String) -> [Entry] { entries.filter { $0.question == question && $0.kind == .check } }
    public func gaveUp(_ question: String) -> Bool { entries.contains { $0.question == question && $0.kind == .giveUp } }
    public func wasRevealed(_ question: String) -> Bool { entries.contains { $0.question == question && $0.kind == .reveal } }

    /// The questions whose right lane was shown before the student had
    /// answered them right: a lane already right when it was shown gave
    /// nothing away.
    public var revealedBeforeRight: [String] {
        var rightOnce: Set<String> = [], revealed: [String] = []
        for entry in entries {
            switch entry.kind {
            case .check where entry.right == true: rightOnce.insert(entry.question)
            case .reveal where !rightOnce.contains(entry.question) && !revealed.contains(entry.question): revealed.append(entry.question)
            default: break
            }
        }
        return revealed
    }

    /// The tests (by name) that hold a question revealed before it was right.
    public var revealedTests: Set<String> { Set(revealedBeforeRight.map(Self.test(of:))) }

    // MARK: - in the answer file

    /// An answer file's first line: whose answers to which exercise.
    public static func firstLine(exercise: String, student: String) -> String {
        "# \(exercise): the answers of \(student)\n"
    }

    /// Whether `text` is an answer file the server wrote, whose expected
    /// lanes are the student's answers rather than the student's tests.
    public static func isAnswerFile(_ text: String) -> Bool {
        guard text.hasPrefix("# "), let end = text.firstIndex(of: "\n") else { return false }
        return text[..<end].contains(": the answers of ")
    }

    /// Where and how an answer differs from the right lane, as a check
    /// tells it without showing the right lane (`flow grade` on an answer
    /// file): the kind of difference and when, and the answer drawn with a
    /// caret and a hint. nil when they do not differ.
    public static func difference(answered: [TimedEvent], right: [TimedEvent]) -> (kind: String, time: TimeSpan, told: String)? {
        guard let difference = ExerciseSheet.Difference(answered, right) else { return nil }
        return (difference.kind, difference.time, difference.told(revealing: false))
    }

    /// Each record line begins so; the rest is the entry as JSON on one line.
    public static let linePrefix = "# flow serve: "

    /// The comment lines that hold the record, each ending in a newline.
    public var lines: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return entries.map { entry in
            let json = (try? encoder.encode(Shown(entry))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return Self.linePrefix + json + "\n"
        }.joined()
    }

    /// The record of an answer file: its lines that begin with the prefix.
    public init(readingAnswersIn text: String) {
        let decoder = JSONDecoder()
        var entries: [Entry] = []
        for line in text.split(separator: "\n") where line.hasPrefix(Self.linePrefix) {
            if let shown = try? decoder.decode(Shown.self, from: Data(line.dropFirst(Self.linePrefix.count).utf8)) {
                entries.append(shown.entry)
            }
        }
        self.entries = entries
    }

    /// An entry as a line shows it, its time readable by the teacher.
    private struct Shown: Codable {
        var at: String
        var event: Entry.Kind
        var question: String
        var right: Bool?

        init(_ entry: Entry) {
            at = ExerciseRecord.timeText(entry.time)
            event = entry.kind
            question = entry.question
            right = entry.right
        }

        var entry: Entry {
            Entry(time: ExerciseRecord.time(of: at) ?? 0, kind: event, question: question, right: right)
        }
    }

    /// `2026-11-28T01:40:05Z`.
    public static func timeText(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func time(of text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }
}
