import FlowMarbles
import FlowRuntime

/// An exercise's lane left for the learner, `toBe("???")`, as a run with
/// `Program.answersExercises` found it: what the stream did there (the
/// right answer, which the page keeps until it may show it), the marble
/// streams it reads (drawn for the learner), and where the `"???"` is, so
/// an answer can be written into the file in its place.
public struct ExerciseQuestion {
    /// Where `expect` is written.
    public var location: SourceLocation
    /// The `"???"` literal, quotes included.
    public var placeholder: Span
    /// The checked stream as written (`source.map { $0 * 2 }`).
    public var prompt: String
    /// `toBe("???", reveal: true)`: the right lane is shown once an
    /// answer is checked. Otherwise only when the learner gives up.
    public var reveals: Bool
    /// When the expectation subscribed.
    public var subscribed: TimeSpan
    /// The right answer: the events the stream sent, each stream it sent
    /// (a group, a window) as a marble stream of what that one sent from
    /// when it was made, as `toBe` takes a lane of groups.
    public var answer: [TimedEvent]
    /// The `cold` and `hot` streams the checked stream reads, as written,
    /// each labelled by its name.
    public var inputs: [LaneDiagram.Lane]
}

/// A `toBe("???")` met while answering exercises: recorded instead of
/// failing, and made into an `ExerciseQuestion` once the run has ended.
struct UnansweredLane {
    var location: SourceLocation
    var placeholder: Span
    var prompt: String
    var reveals: Bool
    var subscribed: TimeSpan
    var stream: Observable
    var recorder: EventRecorder

    /// The question, with the inputs the stream reads: the marble streams
    /// its operators are built on, and those bound by a name that
    /// `mentioned` holds as a word (an inner stream a closure returns is
    /// reached no other way), in the order they were written.
    func question(named bound: [(name: String, stream: Observable)], mentioned text: String) -> ExerciseQuestion {
        var found: [Observable] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = [stream]
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted, seen.count < 10_000 else { continue }
            if node is ColdStream || node is HotStream { found.append(node) } else { pending += node.inputs.reversed() }
        }
        let words = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        for (name, stream) in bound where words.contains(name) && (stream is ColdStream || stream is HotStream)
            && !found.contains(where: { $0 === stream }) {
            found.append(stream)
        }
        let ordered = found.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            guard let x, let y else { return a.offset < b.offset }
            return (x.line, x.column, a.offset) < (y.line, y.column, b.offset)
        }.map(\.element)
        let inputs = ordered.map { node -> LaneDiagram.Lane in
            let events = (node as? ColdStream)?.events ?? (node as? HotStream)?.events.filter { $0.time >= .zero } ?? []
            return LaneDiagram.Lane(label: node.name ?? node.label ?? node.operatorName, events: events)
        }
        return ExerciseQuestion(location: location, placeholder: placeholder, prompt: prompt, reveals: reveals, subscribed: subscribed,
                                answer: recorder.eventsAsWritten, inputs: inputs)
    }
}
