import FlowMarbles
import FlowRuntime

/// How results look to a user: errors with their source line, lanes,
/// expectation failures.
public enum Report {
    /// A stream error with its location: `file:line:col: error: message`
    /// and the source line with a caret, when the location is in `file`.
    public static func streamError(_ error: FlowError, file: SourceFile, color: Bool) -> String {
        guard let location = error.location, location.file == file.path else {
            return Paint(enabled: color).red("error:") + " " + error.message
        }
        let offset = file.offset(line: location.line, column: location.column)
        return Diagnostic(error.message, in: file, at: Span(offset, offset + 1)).render(color: color)
    }

    /// A failed expectation: where it was written, then both lanes.
    public static func expectationFailure(_ failure: MarbleRun.ExpectationFailure, file: SourceFile, color: Bool) -> String {
        let paint = Paint(enabled: color)
        guard let location = failure.location, location.file == file.path else {
            // Not tied to one expectation: the run itself failed.
            return paint.red("error:") + " " + failure.message
        }
        let offset = file.offset(line: location.line, column: location.column)
        let excerpt = Diagnostic.excerpt(file: file, span: Span(offset, offset + 6), paint: paint)
        return paint.bold("\(location): ") + paint.red("expectation failed") + "\n" + excerpt + "\n" + indent(failure.message)
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// Aligned lanes with a legend for values that do not read as themselves.
    static func lanes(_ group: [(label: String, recorder: EventRecorder)]) -> String {
        var legend = MarbleLegend()
        let width = (group.map(\.label.count).max() ?? 0) + 2
        var used = Set<Character>()
        var lines: [String] = []
        for (label, recorder) in group {
            let lane = MarbleRenderer.render(recorder.events, legend: &legend)
            used.formUnion(lane.symbols)
            let line = label + String(repeating: " ", count: width - label.count) + lane.text
            lines.append(lane.text.isEmpty ? label : line)
        }
        let explanations = legend.explanations(for: used)
        if !explanations.isEmpty {
            lines.append("legend" + String(repeating: " ", count: Swift.max(1, width - 6)) + explanations.joined(separator: ", "))
        }
        let errors = group.flatMap { $0.recorder.events }.compactMap { event -> String? in
            if case .error(let e) = event.event { return e.message }
            return nil
        }
        if let first = errors.first { lines.append("# = " + Value.quote(first)) }
        return lines.joined(separator: "\n")
    }
}
