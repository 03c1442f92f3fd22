import ArgumentParser
import FlowLanguage
import FlowMarbles
import FlowRuntime
import FlowServe

/// How much `flow grade` tells about each test, in every format: the
/// teacher chooses, and below `answer` nothing of the key's lanes or code
/// reaches a report.
enum Feedback: String, ExpressibleByArgument, CaseIterable, Comparable {
    /// Each file's total alone.
    case none
    /// The points of each test.
    case score
    /// Which test failed, at which frame, and what kind of difference.
    case `where`
    /// What was wrong, shown on the student's own lane, with a hint about it.
    case why
    /// The expected lane too: the answer.
    case answer

    static func < (a: Feedback, b: Feedback) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// A failed expectation as this level tells it. `showingSource` is
    /// false where the expectation is the key's, whose code is never shown.
    /// `answered`: the expected lanes are the student's answers (an answer
    /// file `flow serve --exercise` wrote), so the stream's lane is the
    /// right one, and is kept as the key's lanes are.
    func describe(_ failure: MarbleRun.ExpectationFailure, file: SourceFile, color: Bool, showingSource: Bool, answered: Bool = false) -> String? {
        switch self {
        case .none, .score:
            return nil
        case .answer:
            return Report.expectationFailure(failure, file: file, color: color, showingSource: showingSource)
        case .where, .why:
            let paint = Paint(enabled: color)
            if failure.isRunFailure { return paint.red("error:") + " " + failure.message }
            let header = showingSource && failure.location?.file == file.path ? "\(failure.location!): " : ""
            guard let mismatch = failure.mismatch else {
                // Another comparison (subscriptions): what differs, not what was expected.
                return header + paint.red("expectation failed") + ": " + (failure.message.split(separator: "\n").first.map(String.init) ?? "")
            }
            if answered { return header + paint.red("expectation failed") + describeAnswer(mismatch) }
            if self == .where {
                let kind = mismatch.ownReason.split(separator: ":").first.map(String.init) ?? mismatch.ownReason
                let frame = kind.contains("frame") ? "" : " at frame \(mismatch.time.frames)"
                return header + paint.red("expectation failed") + ": " + kind + frame
            }
            return header + paint.red("expectation failed") + "\n" + mismatch.ownLaneOnly.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
    }

    /// Where and how an exercise's answer is wrong, as the exercise page
    /// tells it on a check: the answered lane with a caret, the kind of
    /// difference and the hint about the answer; never the stream's lane.
    private func describeAnswer(_ mismatch: MarbleMismatch) -> String {
        guard let difference = ExerciseRecord.difference(answered: mismatch.expectedEvents, right: mismatch.actualEvents) else {
            return ": " + mismatch.kind
        }
        if self == .where {
            return ": " + difference.kind + (difference.kind.contains("frame") ? "" : " at frame \(difference.time.frames)")
        }
        return "\n" + difference.told.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// A stream error as this level tells it: where it happened from
    /// `where` on, the student's line with a caret from `why` on.
    func describe(_ error: FlowError, file: SourceFile, color: Bool, showingSource: Bool) -> String? {
        switch self {
        case .none, .score: return nil
        case .where:
            let place = error.location.map { $0.file == file.path ? "\($0): " : "" } ?? ""
            return place + Paint(enabled: color).red("error:") + " " + error.message
        case .why, .answer:
            return Report.streamError(error, file: file, color: color, showingSource: showingSource || error.location?.file == file.path)
        }
    }
}
