import FlowRuntime

/// A stream made from a marble string that logs its subscriptions, per
/// scheduler run (a top-level stream used by two test blocks keeps two logs).
public protocol LoggedStream: AnyObject {
    func subscriptions(on scheduler: Scheduler) -> [SubscriptionLog]
}

/// The subscription logs of one stream in one run.
final class SubscriptionLogBook {
    var logs: [SubscriptionLog] = []

    /// Starts a log entry now; the returned closure ends it (once).
    func begin(on scheduler: Scheduler) -> () -> Void {
        let index = logs.count
        logs.append(SubscriptionLog(subscribed: scheduler.now, unsubscribed: nil))
        let ending = RunEnding.of(scheduler)
        return { [weak self, weak scheduler] in
            // The teardown of a finished run is not an unsubscription: as in
            // RxJS, a subscription still open then is logged without `!`.
            guard let self, let scheduler, !ending.reached, logs[index].unsubscribed == nil else { return }
            logs[index].unsubscribed = scheduler.now
        }
    }
}

/// Whether a scheduler's run has ended and what follows is its teardown.
public final class RunEnding {
    public private(set) var reached = false
    private final class Key: Sendable {}
    private static let key = Key()

    public static func of(_ scheduler: Scheduler) -> RunEnding { scheduler.runState(for: key) { RunEnding() } }

    /// Marks the run as over: later disposals are its teardown.
    public static func mark(_ scheduler: Scheduler) { of(scheduler).reached = true }
}

/// `cold(marbles)`: each subscription plays the marble from its own start.
public final class ColdStream: Observable, LoggedStream {
    public let events: [TimedEvent]
    /// A recording's text as a script writes it (`recording(_:)`).
    private var written: String?

    public init(events: [TimedEvent]) {
        self.events = events
        super.init(operatorName: "cold")
    }

    /// What a stream sent, from when it began, as the `cold` stream that
    /// sends the same: a lane's group or window, printed so that it can be
    /// pasted into an expectation (`a: cold("1---3|")`).
    public static func recording(_ events: [TimedEvent], of recorded: Observable? = nil) -> ColdStream {
        let recording = ColdStream(events: events)
        recording.recordedFrom = recorded
        return recording
    }

    /// The stream a recording was made of, when it was made of one: an
    /// expectation that names that very stream still matches it.
    public private(set) var recordedFrom: Observable?

    /// `cold("-a-|", a: 10)`: written once, when first printed.
    override public var writtenAs: String? {
        if let written { return written }
        let text = "cold(" + MarbleRenderer.arguments(for: events).arguments + ")"
        written = text
        return text
    }

    public convenience init(_ marbles: String, values: [String: Value] = [:], error: Value? = nil) throws {
        self.init(events: try MarbleParser.parseEvents(marbles, values: values, error: error, isInput: true).events)
    }

    public func subscriptions(on scheduler: Scheduler) -> [SubscriptionLog] {
        scheduler.runState(for: self) { SubscriptionLogBook() }.logs
    }

    override public func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let end = scheduler.runState(for: self) { SubscriptionLogBook() }.begin(on: scheduler)
        let tasks = CompositeDisposable()
        let subscription = ActionDisposable {
            end()
            tasks.dispose()
        }
        observer.onSubscribe(subscription)
        let start = scheduler.now
        for timed in events {
            tasks.insert(scheduler.schedule(at: start + timed.time) {
                observer.on(timed.event)
                if timed.event.isTerminal { subscription.dispose() }
            })
        }
    }
}

/// `hot(marbles)`: plays once per run on the scheduler's clock, with `^` at
/// frame 0; subscribers see only what happens while they are subscribed.
public final class HotStream: Observable, LoggedStream {
    public let events: [TimedEvent]

    public init(events: [TimedEvent]) {
        self.events = events
        super.init(operatorName: "hot")
    }

    override public var isHotSource: Bool { true }

    public convenience init(_ marbles: String, values: [String: Value] = [:], error: Value? = nil) throws {
        let parsed = try MarbleParser.parseEvents(marbles, values: values, error: error, allowSubscriptionPoint: true, isInput: true)
        self.init(events: parsed.events)
    }

    final class Run {
        let subject = PublishSubject()
        let log = SubscriptionLogBook()
        var started = false
    }

    public func subscriptions(on scheduler: Scheduler) -> [SubscriptionLog] {
        scheduler.runState(for: self) { Run() }.log.logs
    }

    /// Schedules the stream's events on a run's clock, once per run. A test
    /// run starts every hot stream before its clock runs, in the order they
    /// were made, as RxJS does when its `hot()` is called: in one frame, the
    /// events of an older hot stream come first. Elsewhere (a live run) a
    /// hot stream starts with its first subscriber.
    public func start(on scheduler: Scheduler) {
        let run = scheduler.runState(for: self) { Run() }
        if !run.started {
            run.started = true
            play(run, on: scheduler)
        }
    }

    override public func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        start(on: scheduler)
        let run = scheduler.runState(for: self) { Run() }
        let end = run.log.begin(on: scheduler)
        run.subject.subscribe(LoggingObserver(observer, end: end), on: scheduler)
    }

    /// Schedules the events still ahead of the clock; earlier ones happened
    /// before anyone could subscribe.
    private func play(_ run: Run, on scheduler: Scheduler) {
        let subject = run.subject
        for timed in events where timed.time >= scheduler.now {
            scheduler.schedule(at: timed.time) {
                switch timed.event {
                case .next(let v): subject.send(v)
                case .error(let e): subject.fail(e)
                case .completed: subject.complete()
                }
            }
        }
    }
}

/// Ends a subscription log entry on a terminal event or on disposal.
final class LoggingObserver: Observer, Disposable {
    private let downstream: Observer
    private var end: (() -> Void)?
    private var upstream: Disposable?

    init(_ downstream: Observer, end: @escaping () -> Void) {
        self.downstream = downstream
        self.end = end
    }

    func onSubscribe(_ subscription: Disposable) {
        upstream = subscription
        downstream.onSubscribe(self)
    }

    func onNext(_ value: Value) { downstream.onNext(value) }

    func onError(_ error: FlowError) {
        finish()
        downstream.onError(error)
    }

    func onCompleted() {
        finish()
        downstream.onCompleted()
    }

    private func finish() {
        end?()
        end = nil
    }

    func dispose() {
        finish()
        let up = upstream
        upstream = nil
        up?.dispose()
    }
}

/// Subscribes to a stream and records every event with its time.
public final class EventRecorder: Observer, Disposable {
    public private(set) var events: [TimedEvent] = []
    /// The stream it records, when known: a lane drawn from it can say
    /// where its stream was written.
    public var stream: Observable?
    private let scheduler: Scheduler
    private var subscription: Disposable?
    public private(set) var isDisposed = false
    /// When it stopped recording (the run's end, or its unsubscription):
    /// how far an inner stream subscribed only to be drawn is drawn.
    private var finishedAt: TimeSpan?

    /// The streams emitted here, each from when it was emitted: drawn as
    /// lanes branching off this one. An operator's stream (`groupBy`'s
    /// groups, `window`'s windows) is recorded as it plays; a marble
    /// stream (`map { cold(...) }`) is what its marble says, replayed from
    /// where it was made without subscribing it (its subscription log
    /// would count that). Any other stream is subscribed only to be drawn
    /// (`DrawingOnly`): on a clock of its own, from where it was made,
    /// once the recording has finished, and only when it is made wholly of
    /// parts free of side effects; otherwise its lane says why it is not
    /// drawn.
    public var branches: [Branch] {
        drawPendingBranches()
        return madeBranches
    }
    private var madeBranches: [Branch] = []
    /// Branches still to be subscribed only to be drawn, by their place
    /// in `madeBranches`.
    private var pendingDrawings: [Int] = []

    public struct Branch {
        public let stream: Observable
        public let started: TimeSpan
        public let recorder: EventRecorder
        /// Why the stream is not drawn ("print(...) runs a closure that may
        /// have side effects"), for one that could not be subscribed only
        /// to be drawn.
        public let notDrawn: String?
    }

    public init(scheduler: Scheduler) { self.scheduler = scheduler }

    public func onSubscribe(_ s: Disposable) {
        if isDisposed { s.dispose() } else { subscription = s }
    }

    public func onNext(_ value: Value) {
        record(.next(value))
        guard !isDisposed, case .stream(let made) = value else { return }
        branchOff(made, at: scheduler.now)
    }

    /// How a stream this lane emitted is drawn as a lane nested under it,
    /// for `marbles(...)` as for `--trace` (which replays what its tracer
    /// recorded through `replaying`).
    private func branchOff(_ made: Observable, at time: TimeSpan) {
        if TraceDiagram.isOperatorMade(made) {
            // A group or a window: the subject the script's subscription
            // feeds, recorded as it plays (a tracer recorded it already).
            let branch = nestedRecorder()
            madeBranches.append(Branch(stream: made, started: time, recorder: branch, notDrawn: nil))
            if let recordedStreams {
                for event in recordedStreams(made) ?? [] { branch.replay(event) }
            } else {
                made.subscribe(branch, on: scheduler)
            }
        } else if let marble = made as? ColdStream {
            let branch = nestedRecorder()
            for event in marble.events { branch.replay(TimedEvent(time + event.time, event.event)) }
            madeBranches.append(Branch(stream: made, started: time, recorder: branch, notDrawn: nil))
        } else {
            drawOnlyBranches += 1
            let tooMany = drawOnlyBranches > Self.mostDrawnInnerStreams ? Self.beyondTheMostDrawn : nil
            if tooMany == nil { pendingDrawings.append(madeBranches.count) }
            madeBranches.append(Branch(stream: made, started: time, recorder: EventRecorder(scheduler: scheduler), notDrawn: tooMany))
        }
    }

    /// A lane recorded elsewhere (a traced stage's events, until
    /// `horizon`), with each stream it emitted drawn nested as
    /// `marbles(...)` draws it: the groups and windows from what was
    /// recorded of them as they played (`recordedStreams`, by stream),
    /// the other streams as `branchOff` draws any.
    public static func replaying(_ events: [TimedEvent], until horizon: TimeSpan,
                                 recordedStreams: @escaping (Observable) -> [TimedEvent]?) -> EventRecorder {
        let recorder = EventRecorder(scheduler: VirtualScheduler())
        recorder.finishedAt = horizon
        recorder.recordedStreams = recordedStreams
        for event in events { recorder.replay(event) }
        return recorder
    }

    /// What was recorded of the groups and windows a replayed lane emitted.
    private var recordedStreams: ((Observable) -> [TimedEvent]?)?

    /// The recorder of a stream this lane emitted: a replayed lane's is
    /// replayed too, up to the same horizon.
    private func nestedRecorder() -> EventRecorder {
        let nested = EventRecorder(scheduler: scheduler)
        if let recordedStreams {
            nested.recordedStreams = recordedStreams
            nested.finishedAt = finishedAt
        }
        return nested
    }

    /// An event of a marble stream at the time it would have come.
    private func replay(_ event: TimedEvent) {
        events.append(event)
        if case .next(.stream(let made)) = event.event { branchOff(made, at: event.time) }
    }
    public func onError(_ error: FlowError) { record(.error(error)) }
    public func onCompleted() { record(.completed) }

    private func record(_ event: Event) {
        guard !isDisposed else { return }
        events.append(TimedEvent(scheduler.now, event))
        if event.isTerminal { subscription = nil }
    }

    public func dispose() {
        if !isDisposed { finishedAt = scheduler.now }
        isDisposed = true
        let s = subscription
        subscription = nil
        s?.dispose()
        for branch in madeBranches { branch.recorder.dispose() }
    }

    /// The most streams of one lane subscribed only to be drawn: a lane of
    /// thousands of inner streams is drawn for no one.
    public static let mostDrawnInnerStreams = 200
    private static let beyondTheMostDrawn = "only the first \(mostDrawnInnerStreams) inner streams of a lane are drawn"

    /// Draws the branches still pending: once the recording has finished,
    /// for good; before (a live run's page following it), up to now, again
    /// on the next call.
    private func drawPendingBranches() {
        guard !pendingDrawings.isEmpty else { return }
        let horizon = finishedAt ?? scheduler.now
        var stillGoing: [Int] = []
        for index in pendingDrawings {
            let branch = madeBranches[index]
            let (recorder, refusal) = Self.drawOnly(branch.stream, from: branch.started, until: horizon)
            madeBranches[index] = Branch(stream: branch.stream, started: branch.started, recorder: recorder, notDrawn: refusal)
            // One that ended, or was refused, is drawn for good; one still
            // going is drawn again, further, while the recording goes on.
            if refusal == nil, recorder.events.last?.event.isTerminal != true, finishedAt == nil { stillGoing.append(index) }
        }
        pendingDrawings = stillGoing
    }
    /// How many branches were made to be subscribed only to be drawn.
    private var drawOnlyBranches = 0

    /// Subscribes `stream` only to be drawn: on a virtual clock of its own
    /// set to `started` (its subscription logs and shared state are that
    /// clock's, and it adds no work to the run's), refusing any node that
    /// is not free of side effects (`DrawingOnly`). It plays until it ends,
    /// but an endless or long one is cut at `horizon` or at its third
    /// event, whichever is later, and left open.
    static func drawOnly(_ stream: Observable, from started: TimeSpan, until horizon: TimeSpan) -> (EventRecorder, String?) {
        var refusal: String?
        let clock = VirtualScheduler()
        clock.tracer = DrawingOnly.guardTracer { reason in refusal = refusal ?? reason }
        clock.advance(to: started)
        let recorder = EventRecorder(scheduler: clock)
        recorder.stream = stream
        stream.subscribe(recorder, on: clock)
        let shown = 3
        clock.run(timeLimit: Swift.max(horizon, started) + farthestDrawnAhead, actionLimit: mostDrawingActions, checkEvery: 1) {
            refusal != nil || recorder.events.last?.event.isTerminal == true || clock.now > horizon && recorder.events.count >= shown
        }
        RunEnding.mark(clock)
        let ended = recorder.events.last?.event.isTerminal == true
        let cut = ended ? clock.now : Swift.max(horizon, recorder.events.count >= shown ? recorder.events[shown - 1].time : horizon)
        recorder.events.removeAll { $0.time > cut }
        recorder.dispose()
        recorder.finishedAt = cut
        return (recorder, refusal)
    }

    /// How far past the end of the recording an inner stream drawn alone
    /// may still play, and how much work its drawing may take.
    static let farthestDrawnAhead = TimeSpan(nanoseconds: 3_600 * 1_000_000_000)
    static let mostDrawingActions = 20_000

    /// The events, each stream that branched off written as what it sent
    /// from when it began (`cold("1---3--|")`): what an expectation of a
    /// stream of streams compares, and what its lane's legend prints. A
    /// stream that could not be drawn stays as it is.
    public var eventsAsWritten: [TimedEvent] {
        let branches = self.branches
        guard !branches.isEmpty else { return events }
        var recorded: [ObjectIdentifier: ColdStream] = [:]
        for branch in branches where branch.notDrawn == nil && recorded[ObjectIdentifier(branch.stream)] == nil {
            let relative = branch.recorder.eventsAsWritten.map { TimedEvent($0.time - branch.started, $0.event) }
            recorded[ObjectIdentifier(branch.stream)] = ColdStream.recording(relative, of: branch.stream)
        }
        return events.map { timed in
            guard case .next(.stream(let made)) = timed.event, let written = recorded[ObjectIdentifier(made)] else { return timed }
            return TimedEvent(timed.time, .next(.stream(written)))
        }
    }

    /// This recorder's lane, then a lane for each stream that branched off
    /// it, labelled by its key (`↳ group "odd"`) or as it is written
    /// (`↳ cold("-x|")`), and blank before it began.
    public func lanes(label: String) -> [LaneDiagram.Lane] {
        var lane = LaneDiagram.Lane(label: label, events: eventsAsWritten)
        lane.node = stream
        return [lane] + nestedLanes()
    }

    /// A lane for each stream that branched off this one (and theirs),
    /// labelled by its key or as it is written, blank before it began.
    public func nestedLanes() -> [LaneDiagram.Lane] {
        let branches = self.branches
        let beyond = branches.lazy.filter { $0.notDrawn == Self.beyondTheMostDrawn }.count
        var saidBeyond = false
        return branches.flatMap { branch -> [LaneDiagram.Lane] in
            let label = "  ↳ " + (branch.stream.label ?? branch.stream.writtenAs ?? branch.stream.displayName)
            if branch.notDrawn == Self.beyondTheMostDrawn {
                // Those past the most drawn are said once, counted.
                guard !saidBeyond else { return [] }
                saidBeyond = true
                var lane = LaneDiagram.Lane(label: "  ↳ …", events: [], start: branch.started)
                lane.note = "not drawn: \(beyond) more (\(Self.beyondTheMostDrawn))"
                return [lane]
            }
            if let notDrawn = branch.notDrawn {
                var lane = LaneDiagram.Lane(label: label, events: [], start: branch.started)
                lane.note = "not drawn: " + notDrawn
                lane.node = branch.stream
                return [lane]
            }
            return branch.recorder.lanes(label: label).enumerated().map { n, lane in
                var lane = lane
                if n == 0 { lane.start = branch.started }
                return lane
            }
        }
    }
}
