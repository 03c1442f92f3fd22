import FlowLanguage
import FlowMarbles
import FlowRuntime

/// What the page shows for one version of a script, computed by the
/// engine (the page only draws it): the diagrams as SVG and text, the
/// results of its tests, what it printed, its errors with their places,
/// and which lanes are input marbles the page may drag.
struct Rendering: Codable, Sendable {
    struct Problem: Codable, Sendable {
        var line: Int
        var column: Int
        var message: String
        var help: String?
        /// As the command line shows it: the line, a caret, the hint.
        var text: String
    }

    struct TestResult: Codable, Sendable {
        var name: String
        var passed: Bool
        /// For a failure: the aligned lanes and what differs.
        var details: String
    }

    /// An input lane: dragging its event `n` moves the marble's event
    /// `firstEvent + n` (a hot stream's lane begins after `^`, and after
    /// what it was subscribed too late to see).
    struct DraggableLane: Codable, Sendable {
        var diagram: Int
        var lane: Int
        var start: Int
        var end: Int
        var firstEvent: Int
    }

    var ok: Bool
    var svg: String
    /// Each diagram's time per column, in frames (1 ms): a mark dragged by
    /// a column moves its event by that much.
    var columnFrames: [Int64]
    /// Each diagram's lane labels, as drawn.
    var laneLabels: [[String]]
    /// Each lane's subscription, in columns: from where it was subscribed
    /// to where it ended or was cancelled (nil: still live at the end), for
    /// the time cursor's "live" line.
    var lifetimes: [[Lifetime]]

    struct Lifetime: Codable, Sendable {
        var start: Int64
        var end: Int64?
    }
    /// For each diagram, lane and event: the event it was made from
    /// (`LaneDiagram.Lane.madeFrom`), which a click follows.
    var madeFrom: [[[LaneDiagram.EventPlace?]]]
    var text: String
    var output: String
    /// What the run's sinks committed (`CommitLedger.summary`), shown
    /// under its output: so far while a live run goes on, then how it
    /// ended. Nil when no sink was used.
    var committed: String?
    var errors: [Problem]
    var tests: [TestResult]
    var inputs: [DraggableLane]
    /// The script has real-time sources (timers, files, requests): the page
    /// offers to run it on the live clock.
    var live = false
    /// Why the script was not run here, if it was not (it reads or writes
    /// outside: that happens only when the learner runs it live).
    var notRun: String?
    /// A live run's snapshot: the run goes on.
    var running = false
    /// Presentation mode's deck: `flow slides`'s deck, laid out for the
    /// room the page has for a slide (`SlideDeck`: each diagram titled by
    /// the comment above its `marbles(...)` call, scaled to fit and split
    /// where its text would be too small). Asked without a room, one
    /// slide per diagram with its title and notes but no picture.
    var slides: [Slide] = []
    /// What the deck is laid out from, kept to lay it out again for
    /// another room: a finished live run's picture cannot be run again to
    /// be drawn. Never sent to the page.
    var deckSource: DeckSource?

    /// The lessons a deck is made of, as they were drawn. Immutable once
    /// made, and laying them out only reads them: shared between the run's
    /// thread and the socket that asks for another room.
    final class DeckSource: Codable, @unchecked Sendable {
        private let lessons: [SlideDeck.Lesson]
        private let straightInnerStreams: Bool

        init(lessons: [SlideDeck.Lesson], straightInnerStreams: Bool) {
            self.lessons = lessons
            self.straightInnerStreams = straightInnerStreams
        }

        func slides(for size: SlideDeck.Size) -> [Slide] {
            SlideDeck.slides(lessons, size: size, straightInnerStreams: straightInnerStreams).map {
                Slide(title: $0.title, notes: $0.notes, lesson: $0.lesson, part: $0.part, parts: $0.parts, svg: $0.svg)
            }
        }

        // Sent as nothing; read back (by a test) as no lessons.
        func encode(to encoder: Encoder) throws {}
        init(from decoder: Decoder) throws {
            lessons = []
            straightInnerStreams = false
        }
    }

    struct Slide: Codable, Sendable {
        var title: String
        var notes: [String]
        /// Which diagram, and which part of how many it was split into.
        var lesson: Int
        var part: Int
        var parts: Int
        /// The slide as `flow slides` draws it, at the room's size.
        var svg: String?
    }
}

extension Rendering {
    static func failed(_ errors: [Problem]) -> Rendering {
        Rendering(ok: false, svg: "", columnFrames: [], laneLabels: [], lifetimes: [], madeFrom: [], text: "", output: "", errors: errors,
                  tests: [], inputs: [])
    }

    /// The diagrams of a run as the page draws them; a live run's, while
    /// it runs and once it has finished, with level inner streams.
    init(drawing diagrams: [LaneDiagram], name: String, output: String, errors: [Problem], tests: [TestResult], inputs: [DraggableLane],
         live: Bool = false, source: String = "", testDiagrams: [LessonOutline.TestDiagrams] = [], deck: SlideDeck.Size? = nil) {
        let rendered = diagrams.map { $0.render() }
        let picture = SVGDiagram(diagrams, title: name, straightInnerStreams: live)
        self.init(ok: true, svg: diagrams.isEmpty ? "" : picture.text,
                  columnFrames: rendered.map { $0.frame.nanoseconds / MarbleParser.frame.nanoseconds },
                  laneLabels: diagrams.map { $0.lanes.map { LaneDiagram.displayLabel($0.label).trimmingCharacters(in: .whitespaces) } },
                  lifetimes: zip(diagrams, rendered).map { diagram, drawn in diagram.lanes.map { Self.lifetime($0, frame: drawn.frame) } },
                  madeFrom: diagrams.map { $0.lanes.map(\.madeFrom) },
                  text: rendered.map(\.text).joined(separator: "\n\n"), output: output, errors: errors, tests: tests, inputs: inputs)
        // The lesson is its `marbles(...)` calls, its test blocks' too, as
        // `flow slides` makes it; a script that draws none shows its traced
        // chains. (Drawn diagrams come first, so a slide's marks number
        // their diagram as the whole picture does.)
        let drawn = diagrams.filter { $0.location != nil }
        let tests = testDiagrams.filter { !$0.diagrams.isEmpty }
        let lessons = LessonOutline.lessons(of: drawn.isEmpty && tests.isEmpty ? diagrams : drawn, tests: tests, source: source)
        let source = DeckSource(lessons: lessons, straightInnerStreams: live)
        if live { deckSource = source }
        if let deck {
            slides = source.slides(for: deck)
        } else {
            slides = lessons.enumerated().map { Slide(title: $1.title, notes: $1.notes, lesson: $0, part: 1, parts: 1) }
        }
    }

    static func lifetime(_ lane: LaneDiagram.Lane, frame: TimeSpan) -> Lifetime {
        let end = lane.cancelled ?? lane.events.last.flatMap { $0.event.isTerminal ? $0.time : nil }
        return .init(start: (lane.start ?? .zero).nanoseconds / frame.nanoseconds, end: end.map { $0.nanoseconds / frame.nanoseconds })
    }
}

