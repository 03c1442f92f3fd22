import FlowMarbles
import FlowRuntime

/// How results look to a user: errors with their source line, lanes,
/// expectation failures.
public enum Report {
    /// A stream error with its location: `file:line:col: error: message`
    /// and the source line with a caret, when the location is in `file`.
    /// Without `showingSource` (a test of a grader's key, whose code the
    /// student must not see), the message alone.
    public static func streamError(_ error: FlowError, file: SourceFile, color: Bool, showingSource: Bool = true) -> String {
        guard showingSource, let location = error.location, location.file == file.path else {
            return Paint(enabled: color).red("error:") + " " + error.message
        }
        let offset = file.offset(line: location.line, column: location.column)
        return Diagnostic(error.message, in: file, at: Span(offset, offset + 1)).render(color: color)
    }

    /// A failed expectation: where it was written, then both lanes.
    /// With `hidingActual`, a failed comparison shows where the expected
    /// lane is wrong but not the lane the stream produced (`flow grade`).
    public static func expectationFailure(_ failure: MarbleRun.ExpectationFailure, file: SourceFile, color: Bool,
                                          hidingActual: Bool = false, showingSource: Bool = true) -> String {
        let paint = Paint(enabled: color)
        let message = hidingActual ? failure.mismatch?.withoutActual ?? failure.message : failure.message
        guard showingSource else {
            return failure.isRunFailure || failure.mismatch == nil
                ? paint.red("error:") + " " + failure.message
                : paint.red("expectation failed") + "\n" + indent(message)
        }
        guard let location = failure.location, location.file == file.path else {
            // Not tied to one expectation: the run itself failed.
            return paint.red("error:") + " " + failure.message
        }
        let offset = file.offset(line: location.line, column: location.column)
        let excerpt = Diagnostic.excerpt(file: file, span: Span(offset, offset + 6), paint: paint)
        if failure.isRunFailure {
            return paint.bold("\(location): ") + paint.red("error:") + " " + failure.message + "\n" + excerpt
        }
        return paint.bold("\(location): ") + paint.red("expectation failed") + "\n" + excerpt + "\n" + indent(message)
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// Aligned lanes under a ruler, with a legend for values that do not
    /// read as themselves.
    static func lanes(_ group: [(label: String, recorder: EventRecorder)], options: LaneDiagram.Options, title: String? = nil) -> LaneDiagram {
        LaneDiagram(lanes: group.flatMap { label, recorder in recorder.lanes(label: label) }, options: options, title: title)
    }
}
