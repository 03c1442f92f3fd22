import FlowLanguage
import FlowMarbles
import FlowRuntime

/// A script's exercises as the page shows them: each `toBe("???")` lane
/// with the marble streams it reads drawn above an answer lane the learner
/// fills in, and, when asked, whether the answer is right. The right lane
/// itself is shown only once the file allows it (`reveal: true`, after a
/// check) or the learner gives up; until then a wrong answer is told where
/// and how it is wrong, as `flow grade --hide-actual` tells it.
struct ExerciseSheet: Codable, Sendable {
    var ok: Bool
    var errors: [Rendering.Problem]
    /// The script outside its test blocks (the given streams and helpers).
    var preamble: String
    var questions: [QuestionView]

    struct QuestionView: Codable, Sendable {
        /// `test name#n`: the n-th unanswered lane of that test block.
        var id: String
        var test: String
        /// The checked stream as written.
        var prompt: String
        /// The test block, as written.
        var code: String
        var line: Int
        var svg: String
        /// The x of each column of time in the picture, from time 0.
        var columns: [Double]
        /// Frames (ms) per column.
        var columnFrames: Int64
        /// Where the answer lane is drawn, in the picture's units.
        var answerBand: SVGDiagram.Band
        var answerLane: Int
        /// The right lane is a stream of streams (`groupBy`, `window`,
        /// `map { cold(...) }`): each value of the answer lane is a group,
        /// answered on a lane of its own beneath it.
        var nested: Bool
        /// The answer's groups as drawn, in the order of the answer lane's
        /// values: where each lane is, and the frame it begins at.
        var groups: [GroupLane]
        /// The answer as the server read it, in time order.
        var answer: [AnswerEvent]
        /// The answer as it is written into the file: the marble in quotes
        /// and each symbol's value (`"-a-b|", a: 10, b: "a!"`), as the page's
        /// marble box shows it.
        var marble: String
        /// What each symbol of `marble` stands for, as a script writes it: the
        /// page sends them back with a marble typed bare, so a value placed
        /// in full stays that value when the marble around it is retyped.
        var values: [String: String]
        var reveals: Bool
        var revealed: Bool
        /// The right lane, once it may be shown.
        var right: String?
        var check: CheckResult?
    }

    struct GroupLane: Codable, Sendable {
        var lane: Int
        var band: SVGDiagram.Band
        var start: Int64
    }

    /// One event of an answer: at frame `t`, a value (written as in a
    /// script: `10`, `"a b"`, `true`, or bare text for a string), `|` or `#`.
    /// A value with `inner` is a group: a stream made at `t`, whose events
    /// are `inner`'s, placed at the frames they come (from `t` on).
    struct AnswerEvent: Codable, Sendable, Equatable {
        var t: Int64
        var kind: Kind
        var value: String?
        var inner: [AnswerEvent]?

        init(t: Int64, kind: Kind, value: String? = nil, inner: [AnswerEvent]? = nil) {
            self.t = t
            self.kind = kind
            self.value = value
            self.inner = inner
        }

        enum Kind: String, Codable, Sendable { case value, complete, error }
    }

    struct CheckResult: Codable, Sendable {
        var passed: Bool
        var text: String
        /// The column of the first difference.
        var column: Int64?
    }

    /// A learner's answer to one lane: placed events, or a typed marble
    /// (bare, `-a-b|`, or with its values, `"-a-b|", a: 10`), whose symbols
    /// not given a value there stand for `values`' values, else for themselves.
    struct Answer: Codable, Sendable {
        var events: [AnswerEvent]?
        var marble: String?
        var values: [String: String]?
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The most events an answer may hold, and the latest frame one may
    /// be placed at: a page sends what a learner can place by hand.
    static let largestAnswer = 500
    static let latestFrame: Int64 = 100_000
}

extension ExerciseSheet {
    /// Runs `file`'s test blocks with their `???` lanes recorded, and
    /// draws each with its answer (`answers` by question id); with `check`,
    /// says whether each answered lane is right; `gaveUp` shows the right
    /// lanes of those questions whatever the file says. `checksReveal`
    /// lets a checked wrong answer show a `reveal: true` lane: a learner's
    /// own playground does, a class does not (there only a give-up shows
    /// a lane, so that every lane shown is one the server recorded).
    static func make(_ file: SourceFile, modules: [BuiltinModule], dialect: Dialect?, answers: [String: Answer], check: Bool,
                     gaveUp: Set<String>, checksReveal: Bool, only: String? = nil) -> ExerciseSheet {
        switch run(file, modules: modules, dialect: dialect) {
        case .failure(let notRun):
            return ExerciseSheet(ok: false, errors: notRun.errors, preamble: "", questions: [])
        case .success(let run):
            return ExerciseSheet(ok: true, errors: run.errors, preamble: preamble(of: file, tests: run.testSpans), questions: run.questions.map {
                view(of: $0.question, id: $0.id, test: $0.test, code: file.text(of: $0.span), line: file.location(of: $0.span.start).line,
                     answer: answers[$0.id], check: check && (only == nil || only == $0.id), gaveUp: gaveUp.contains($0.id),
                     checksReveal: checksReveal)
            })
        }
    }

    /// Why a script's exercises could not be run: its errors.
    struct NotRun: Error {
        var errors: [Rendering.Problem]
    }

    /// A run of a script's test blocks for their `???` lanes.
    struct Run {
        var questions: [(id: String, test: String, span: Span, question: ExerciseQuestion)] = []
        var errors: [Rendering.Problem] = []
        var testSpans: [Span] = []
    }

    static func run(_ file: SourceFile, modules: [BuiltinModule], dialect: Dialect?) -> Result<Run, NotRun> {
        let program: Program
        switch Playground.compile(file, console: Console(out: { _ in }, err: { _ in }, color: false), modules: modules, dialect: dialect) {
        case .program(let compiled): program = compiled
        case .failed(let failed): return .failure(NotRun(errors: failed.errors))
        }
        if program.needsLiveClock || !program.usedModules.isDisjoint(with: Playground.outsideModules) {
            return .failure(NotRun(errors: [Rendering.Problem(line: 1, column: 1, message: exercisesRunInVirtualTime, text: exercisesRunInVirtualTime)]))
        }
        program.drawsLanes = false
        program.reportsErrors = false
        program.answersExercises = true
        var run = Run()
        run.errors = Playground.errors(of: program.run(on: .virtual), file: file)
        var seen: Set<Int> = []
        for (index, test) in program.testNames.enumerated() {
            let span = program.span(ofTest: index)
            run.testSpans.append(span)
            let problems = program.problems(ofTest: index)
            guard problems.isEmpty else {
                run.errors += problems.map(Playground.problem)
                continue
            }
            let outcome = program.runTest(index)
            run.errors += outcome.errors.map { Playground.problem($0, file: file) }
            var n = 0
            // A lane met twice (in a loop) is one question.
            for question in outcome.questions where seen.insert(question.placeholder.start).inserted {
                n += 1
                run.questions.append(("\(test)#\(n)", test, span, question))
            }
        }
        return .success(run)
    }

    static let exercisesRunInVirtualTime =
        "exercises run in virtual time: a script with timers, files or requests cannot be one (draw its inputs with cold(...) or hot(...))"

    /// The script without its test blocks, blank lines at its ends trimmed.
    static func preamble(of file: SourceFile, tests: [Span]) -> String {
        var bytes = Array(file.text.utf8)
        for span in tests.sorted(by: { $0.start > $1.start }) where span.end <= bytes.count {
            bytes.removeSubrange(span.start..<span.end)
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.drop { $0.allSatisfy(\.isWhitespace) }.reversed().drop { $0.allSatisfy(\.isWhitespace) }.reversed()
        return kept.joined(separator: "\n")
    }

    static func view(of question: ExerciseQuestion, id: String, test: String, code: String, line: Int, answer: Answer?, check: Bool,
                     gaveUp: Bool, checksReveal: Bool) -> QuestionView {
        let answered: [TimedEvent]
        var problem: String?
        do { answered = try events(of: answer) } catch {
            answered = []
            problem = "\(error)"
        }
        var result: CheckResult?
        var difference: Difference?
        if let problem {
            result = CheckResult(passed: false, text: problem)
        } else if check || gaveUp {
            difference = Difference(answered, question.answer)
            if difference == nil {
                result = CheckResult(passed: true, text: "right")
            } else if answered.isEmpty {
                // Nothing to compare: given up, the right lane is shown alone.
                difference = nil
                if !gaveUp { result = CheckResult(passed: false, text: "no answer yet: click the lane to place a value, or type the marble") }
            }
        }
        let reveals = checksReveal && question.reveals
        let revealed = gaveUp || (check && reveals && !answered.isEmpty)
        let nested = Groups.holds(question.answer) || Groups.holds(answered)
        var lanes = question.inputs
        let answerLane = lanes.count
        lanes.append(LaneDiagram.Lane(label: question.prompt, events: answered, start: question.subscribed == .zero ? nil : question.subscribed))
        // Each group on a lane of its own, from where it was made, as a
        // diagram draws a stream of streams.
        let answeredGroups = Groups.of(answered)
        var groupLanes: [Int] = []
        for (n, group) in answeredGroups.enumerated() {
            groupLanes.append(lanes.count)
            lanes.append(LaneDiagram.Lane(label: Groups.label(n), events: group.events, start: group.start))
        }
        let rightGroups = Groups.of(question.answer)
        if revealed {
            lanes.append(LaneDiagram.Lane(label: "right answer", events: question.answer))
            for (n, group) in rightGroups.enumerated() {
                lanes.append(LaneDiagram.Lane(label: Groups.label(n), events: group.events, start: group.start))
            }
        }
        let diagram = LaneDiagram(lanes: lanes, options: LaneDiagram.Options(frame: MarbleParser.frame, maxColumns: 400))
        // Room to place an answer's events after everything drawn so far;
        // what the right lane holds plays no part (its length is a clue).
        let drawnEnd = (question.inputs.flatMap(\.events) + answered + answeredGroups.flatMap(\.events)).map(\.time).max() ?? .zero
        let room = TimeSpan(nanoseconds: Swift.max(MarbleParser.frame.nanoseconds * 6, drawnEnd.nanoseconds * 4 / 10))
        let rightEnd = (question.answer + rightGroups.flatMap(\.events)).map(\.time).max() ?? .zero
        let shownEnd = revealed ? Swift.max(drawnEnd, rightEnd) : drawnEnd
        if let difference {
            // Told where and how the answer is wrong; the right lane's
            // events only once it is shown.
            result = CheckResult(passed: false, text: difference.told(revealing: revealed), column: difference.time.frames)
        }
        // The difference is marked from the lane it is in: a group's own.
        let markedFrom = difference?.group.map { groupLanes.indices.contains($0.number - 1) ? groupLanes[$0.number - 1] : answerLane } ?? answerLane
        let marked = result?.column.map { column in
            SVGDiagram.Marked(diagram: 0, lanes: markedFrom..<lanes.count, time: TimeSpan(nanoseconds: column * MarbleParser.frame.nanoseconds),
                              note: result?.text.split(separator: "\n").last(where: { $0.contains("^") }).map(String.init) ?? "first difference")
        }
        // Groups level, as the lanes they are answered on.
        let svg = SVGDiagram([diagram], title: test, straightInnerStreams: true, reaching: shownEnd + room, marked: marked)
        let typed = MarbleRenderer.arguments(for: answered)
        let band = { (lane: Int) in
            svg.laneBands.first.flatMap { $0.indices.contains(lane) ? $0[lane] : nil } ?? SVGDiagram.Band(top: 0, bottom: 0)
        }
        return QuestionView(id: id, test: test, prompt: question.prompt, code: code, line: line, svg: svg.text, columns: svg.columnCenters.first ?? [],
                            columnFrames: (svg.columnTimes.first ?? MarbleParser.frame).nanoseconds / MarbleParser.frame.nanoseconds,
                            answerBand: band(answerLane), answerLane: answerLane, nested: nested,
                            groups: zip(groupLanes, answeredGroups).map { GroupLane(lane: $0, band: band($0), start: $1.start.frames) },
                            answer: answered.map(answerEvent), marble: typed.arguments,
                            values: Dictionary(typed.values.map { (String($0.symbol), text(of: $0.value)) }) { first, _ in first },
                            reveals: reveals, revealed: revealed,
                            right: revealed ? rightLane(question.answer, besides: answered) : nil,
                            check: result)
    }

    /// The right lane in the letters the learner's answer is drawn in
    /// (one legend for both, so a letter means one value on the page),
    /// with what its letters stand for.
    static func rightLane(_ right: [TimedEvent], besides answered: [TimedEvent]) -> String {
        var legend = MarbleLegend()
        let lane = MarbleRenderer.render(lanes: [answered, Groups.sharing(right, with: answered)], legend: &legend)[1]
        let explained = legend.explanations(for: lane.symbols)
        return explained.isEmpty ? lane.text : lane.text + "   (" + explained.joined(separator: ", ") + ")"
    }

    /// A lane of groups (a stream of streams): each stream value, as an
    /// answer and the right lane hold them (a marble stream of what the
    /// group sent from when it was made), with its events at the frames
    /// they come.
    enum Groups {
        static func holds(_ events: [TimedEvent]) -> Bool { events.contains { stream(of: $0.event) != nil } }

        static func stream(of event: Event) -> ColdStream? {
            if case .next(.stream(let made as ColdStream)) = event { made } else { nil }
        }

        static func of(_ events: [TimedEvent]) -> [(start: TimeSpan, events: [TimedEvent])] {
            events.compactMap { made in
                stream(of: made.event).map { (made.time, $0.events.map { TimedEvent(made.time + $0.time, $0.event) }) }
            }
        }

        /// `right` with each group that sends what one of `answered`'s
        /// groups sends written as that one: drawn in one legend, the same
        /// group is the same letter in both lanes.
        static func sharing(_ right: [TimedEvent], with answered: [TimedEvent]) -> [TimedEvent] {
            let mine = answered.compactMap { stream(of: $0.event) }
            guard !mine.isEmpty else { return right }
            return right.map { timed in
                guard let theirs = stream(of: timed.event),
                      let same = mine.first(where: { MarbleComparison.matches(.next(.stream(theirs)), .next(.stream($0)), errorGiven: false) })
                else { return timed }
                return TimedEvent(timed.time, .next(.stream(same)))
            }
        }

        /// The n-th group's lane (from 0), numbered as the feedback names it.
        static func label(_ n: Int) -> String { "  ↳ group \(n + 1)" }
    }

    /// The first place a learner's answer and the right lane differ, said
    /// to the learner: "your answer" is theirs, "the right answer" the
    /// stream's, never "expected" and "actual". In a lane of groups whose
    /// groups are made where the right ones are, it is the first group
    /// that differs, named by its number.
    struct Difference {
        /// The lanes that differ: the answer lanes, or one group's lanes
        /// (their events at the frames they come).
        var answered: [TimedEvent]
        var right: [TimedEvent]
        /// The index of the first event that differs.
        var index: Int
        /// When it happens: the earlier of the two events that differ.
        var time: TimeSpan
        /// The group that differs (numbered from 1) and the frame it was
        /// made at; nil when the answer lanes differ themselves.
        var group: (number: Int, start: TimeSpan)?

        init?(_ answered: [TimedEvent], _ right: [TimedEvent]) {
            // Groups made at the same frames are alike here; their events next.
            if let index = Self.firstDifference(answered, right, groupsAlike: true) {
                self.init(answered, Groups.sharing(right, with: answered), index: index, group: nil)
                return
            }
            for (n, (mine, theirs)) in zip(Groups.of(answered), Groups.of(right)).enumerated() {
                if let index = Self.firstDifference(mine.events, theirs.events, groupsAlike: false) {
                    self.init(mine.events, theirs.events, index: index, group: (n + 1, mine.start))
                    return
                }
            }
            return nil
        }

        private init(_ answered: [TimedEvent], _ right: [TimedEvent], index: Int, group: (number: Int, start: TimeSpan)?) {
            self.answered = answered
            self.right = right
            self.index = index
            self.group = group
            time = [answered.indices.contains(index) ? answered[index].time : nil, right.indices.contains(index) ? right[index].time : nil]
                .compactMap { $0 }.min() ?? .zero
        }

        private static func firstDifference(_ answered: [TimedEvent], _ right: [TimedEvent], groupsAlike: Bool) -> Int? {
            (0..<Swift.max(answered.count, right.count)).first { i in
                i >= answered.count || i >= right.count || answered[i].time != right[i].time
                    || !same(right[i].event, answered[i].event, groupsAlike: groupsAlike)
            }
        }

        private static func same(_ right: Event, _ answered: Event, groupsAlike: Bool) -> Bool {
            if groupsAlike, Groups.stream(of: right) != nil, Groups.stream(of: answered) != nil { return true }
            return MarbleComparison.matches(right, answered, errorGiven: false)
        }

        /// What kind of difference it is, without the right lane's events,
        /// and in which group.
        var kind: String {
            let what: String
            if index >= answered.count { what = "missing event" } else if index >= right.count { what = "one event too many" } else {
                let (mine, theirs) = (answered[index], right[index])
                what = !Self.sameKind(mine.event, theirs.event) ? "kind differs" : mine.time == theirs.time ? "value differs" : "frame differs"
            }
            return group.map { what + " in group \($0.number)" } ?? what
        }

        /// The feedback: the learner's lane, a caret under the difference and
        /// what it is; with `revealing`, the right lane under theirs in the
        /// same letters, and what each lane has there.
        func told(revealing: Bool) -> String {
            var legend = MarbleLegend()
            let drawn = MarbleRenderer.render(lanes: revealing ? [answered, right] : [answered], legend: &legend)
            let caret: Int
            if revealing {
                caret = [index < answered.count ? (answered[index].time, drawn[0].columns[index]) : nil,
                         index < right.count ? (right[index].time, drawn[1].columns[index]) : nil]
                    .compactMap { $0 }.min { $0.0 < $1.0 }?.1 ?? 0
            } else {
                caret = index < answered.count ? drawn[0].columns[index] : drawn[0].text.count
            }
            let indent = revealing ? "right answer: ".count : "your answer: ".count
            var lines = group.map { ["group \($0.number), made at frame \($0.start.frames), is not right:"] } ?? []
            lines.append((revealing ? "your answer:  " : "your answer: ") + drawn[0].text)
            if revealing { lines.append("right answer: " + drawn[1].text) }
            lines.append(String(repeating: " ", count: indent + caret) + "^ " + (revealing ? kind + ": " + said(legend: &legend) : kind))
            let label = { (name: String) in name.padding(toLength: indent, withPad: " ", startingAt: 0) }
            if let hint = hint() { lines.append(label("hint:") + hint) }
            let explained = legend.explanations(for: drawn.reduce(into: Set<Character>()) { $0.formUnion($1.symbols) })
            if !explained.isEmpty { lines.append(label("legend:") + explained.joined(separator: ", ")) }
            return lines.joined(separator: "\n")
        }

        /// What each lane has at the difference, in the legend's letters.
        private func said(legend: inout MarbleLegend) -> String {
            func describe(_ event: TimedEvent) -> String {
                switch event.event {
                case .next(.stream): return "a group"
                case .next(let value):
                    let symbol = legend.symbol(for: value)
                    return MarbleLegend.naturalSymbol(for: value) == symbol ? value.literal : "\(value.literal) '\(symbol)'"
                case .completed: return "its completion"
                case .error: return "an error"
                }
            }
            guard index < answered.count else {
                let after = answered.last.map { " after frame \($0.time.frames)" } ?? ""
                return "your answer ends\(after); the right answer has \(describe(right[index])) at frame \(right[index].time.frames)"
            }
            let mine = answered[index]
            guard index < right.count else {
                return "your answer has \(describe(mine)) at frame \(mine.time.frames), after all of the right answer's events"
            }
            let theirs = right[index]
            if mine.time == theirs.time {
                return "at frame \(mine.time.frames) your answer has \(describe(mine)), the right answer \(describe(theirs))"
            }
            let same = Self.same(theirs.event, mine.event, groupsAlike: group == nil)
            return "your answer has \(describe(mine)) at frame \(mine.time.frames), the right answer "
                + (same ? "at frame \(theirs.time.frames)" : "\(describe(theirs)) at frame \(theirs.time.frames)")
        }

        /// The common mistakes, said of the learner's own lane.
        private func hint() -> String? {
            guard index < answered.count, index < right.count else { return nil }
            let (mine, theirs) = (answered[index], right[index])
            if Self.same(theirs.event, mine.event, groupsAlike: group == nil), mine.time != theirs.time {
                let off = mine.time.frames - theirs.time.frames
                let frames = abs(off) == 1 ? "1 frame" : "\(abs(off)) frames"
                if Groups.stream(of: mine.event) != nil {
                    return "a group is made where the stream sends it: yours is \(frames) too \(off > 0 ? "late" : "early")"
                }
                return "your event is right but \(frames) too \(off > 0 ? "late" : "early"): each - is one frame, "
                    + "a group (ab) takes one frame per character, and [ab] is a group of one frame"
            }
            // `-10-` typed for a value 10: a character is an event of its own.
            guard case .next(let value) = theirs.event, mine.time == theirs.time else { return nil }
            let written = value.description
            var text = ""
            var j = index
            while j < answered.count, case .next(let part) = answered[j].event, text.count < written.count {
                text += part.description
                j += 1
            }
            guard j - index >= 2, text == written else { return nil }
            return "each character of a marble is one event: place \(written) as one value (type it in the value box), "
                + "or give it a symbol, as in \"-a-\", a: \(value.literal)"
        }

        private static func sameKind(_ a: Event, _ b: Event) -> Bool {
            switch (a, b) {
            case (.next, .next), (.error, .error), (.completed, .completed): true
            default: false
            }
        }
    }

    // MARK: - answers

    /// An answer's events, in time order; values of one frame keep their
    /// order, and an end comes after them.
    static func events(of answer: Answer?) throws -> [TimedEvent] {
        guard let answer else { return [] }
        if let text = answer.marble, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard text.count <= 4 * largestAnswer else { throw Refused(description: "an answer is at most \(4 * largestAnswer) characters") }
            let (marble, typedValues) = try typed(text)
            var values = MarbleEdit.symbolValues(marble)
            for (symbol, written) in answer.values ?? [:] where values[symbol] != nil { values[symbol] = value(of: written) }
            values.merge(typedValues) { $1 }
            do {
                return try MarbleParser.parseEvents(marble, values: values).events
            } catch {
                throw Refused(description: "the marble does not read: \(error)")
            }
        }
        let placed = answer.events ?? []
        let count = placed.reduce(0) { $0 + 1 + ($1.inner?.count ?? 0) }
        guard count <= largestAnswer else { throw Refused(description: "an answer holds at most \(largestAnswer) events") }
        return try events(placed, from: 0, group: nil)
    }

    /// Placed events in time order, from frame `start` on: a lane's, or
    /// the n-th group's (numbered from 1), whose events are made into a
    /// marble stream from the frame it was made at.
    private static func events(_ placed: [AnswerEvent], from start: Int64, group: Int?) throws -> [TimedEvent] {
        guard placed.allSatisfy({ (start...latestFrame).contains($0.t) }) else {
            if let group { throw Refused(description: "group \(group) is made at frame \(start): its events are placed from there to frame \(latestFrame)") }
            throw Refused(description: "an answer's events are placed from frame 0 to \(latestFrame)")
        }
        if group != nil, placed.contains(where: { $0.inner != nil }) {
            throw Refused(description: "a group's lane holds values, | and #: groups within a group are typed in the marble box, as cold(...) values")
        }
        // The first end wins; nothing follows it.
        let end = placed.filter { $0.kind != .value }.min { $0.t < $1.t }
        let values = placed.filter { $0.kind == .value && $0.t <= (end?.t ?? .max) }
            .enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
        var made = 0
        var timed = try values.map { placed -> TimedEvent in
            let time = TimeSpan(nanoseconds: placed.t * MarbleParser.frame.nanoseconds)
            guard let inner = placed.inner else { return TimedEvent(time, .next(value(of: placed.value ?? ""))) }
            made += 1
            let sent = try events(inner, from: placed.t, group: made).map { TimedEvent($0.time - time, $0.event) }
            return TimedEvent(time, .next(.stream(ColdStream.recording(sent))))
        }
        if let end {
            let time = TimeSpan(nanoseconds: end.t * MarbleParser.frame.nanoseconds)
            timed.append(TimedEvent(time, end.kind == .complete ? .completed : .error(FlowError("error"))))
        }
        return timed
    }

    /// A typed marble: bare (`-a-b|`), or as `toBe` takes it, in quotes with
    /// its symbols' values (`"-a-b|", a: 10, b: "x y"`, or `values: ["a": 10]`).
    static func typed(_ text: String) throws -> (marble: String, values: [String: Value]) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("\"") else { return (trimmed, [:]) }
        let form = "write the marble in quotes, then each symbol's value: \"-a-b|\", a: 10, b: \"x y\""
        switch ConstantValue.read("(" + trimmed + ")", marbleStreams: true) {
        case .string(let marble)?:
            return (marble, [:])
        case .tuple(let tuple)?:
            guard case .string(let marble) = tuple.elements[0], tuple.label(at: 0) == nil else { throw Refused(description: form) }
            var values: [String: Value] = [:]
            for i in tuple.elements.indices.dropFirst() {
                switch (tuple.label(at: i), tuple.elements[i]) {
                case ("values"?, .dictionary(let given)):
                    for (key, value) in given {
                        guard case .string(let symbol) = key, symbol.count == 1 else {
                            throw Refused(description: "a value is given to a symbol of one character, not to \(key.literal)")
                        }
                        values[symbol] = value
                    }
                case (let symbol?, let value) where symbol.count == 1:
                    values[symbol] = value
                default:
                    throw Refused(description: form)
                }
            }
            return (marble, values)
        default:
            throw Refused(description: form)
        }
    }

    /// A value as a learner writes it: as in a script (`10`, `"a b"`,
    /// `(1, "a")`, `[1, 2]`, a group as `cold("1-3|")`), or any other text
    /// as that string.
    static func value(of text: String) -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return ConstantValue.read(trimmed, marbleStreams: true) ?? .string(trimmed)
    }

    /// A value written so that `value(of:)` reads it back.
    static func text(of value: Value) -> String {
        if case .string(let s) = value, Self.value(of: s) != value { return value.literal }
        return value.description
    }

    static func answerEvent(_ event: TimedEvent) -> AnswerEvent {
        let t = event.time.nanoseconds / MarbleParser.frame.nanoseconds
        if let group = Groups.stream(of: event.event) {
            return AnswerEvent(t: t, kind: .value, value: text(of: .stream(group)),
                               inner: group.events.map { answerEvent(TimedEvent(event.time + $0.time, $0.event)) })
        }
        switch event.event {
        case .next(let value): return AnswerEvent(t: t, kind: .value, value: text(of: value))
        case .completed: return AnswerEvent(t: t, kind: .complete)
        case .error: return AnswerEvent(t: t, kind: .error)
        }
    }

    /// `file`'s text with each answered `???` lane replaced by its answer;
    /// lanes left unanswered stay `???` (and fail "not answered yet").
    static func answered(_ file: SourceFile, modules: [BuiltinModule], dialect: Dialect?, answers: [String: Answer]) throws -> String {
        let run: Run
        switch Self.run(file, modules: modules, dialect: dialect) {
        case .success(let done): run = done
        case .failure(let notRun): throw Refused(description: notRun.errors.first?.text ?? "the exercises do not compile")
        }
        var replacements: [(span: Span, text: String)] = []
        for question in run.questions {
            let events = try events(of: answers[question.id])
            if !events.isEmpty { replacements.append((question.question.placeholder, MarbleRenderer.arguments(for: events).arguments)) }
        }
        var bytes = Array(file.text.utf8)
        for (span, text) in replacements.sorted(by: { $0.span.start > $1.span.start }) where span.end <= bytes.count {
            bytes.replaceSubrange(span.start..<span.end, with: Array(text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
