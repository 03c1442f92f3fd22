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
    public static func recording(_ events: [TimedEvent]) -> ColdStream { ColdStream(events: events) }

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
    /// The streams emitted here (`groupBy`'s groups, `window`'s windows,
    /// `map { cold(...) }`'s marble streams), each from when it was
    /// emitted: drawn as lanes branching off this one. An operator's stream
    /// is recorded as it plays; a marble stream is what its marble says,
    /// replayed from where it was made without subscribing it (its
    /// subscription log would count that). Any other stream the script
    /// wrote is not drawn: subscribing it would run it a second time.
    public private(set) var branches: [Branch] = []

    public struct Branch {
        public let stream: Observable
        public let started: TimeSpan
        public let recorder: EventRecorder
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

    private func branchOff(_ made: Observable, at time: TimeSpan) {
        if TraceDiagram.isOperatorMade(made) {
            let branch = EventRecorder(scheduler: scheduler)
            branches.append(Branch(stream: made, started: time, recorder: branch))
            made.subscribe(branch, on: scheduler)
        } else if let marble = made as? ColdStream {
            let branch = EventRecorder(scheduler: scheduler)
            for event in marble.events { branch.replay(TimedEvent(time + event.time, event.event)) }
            branches.append(Branch(stream: made, started: time, recorder: branch))
        }
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
        isDisposed = true
        let s = subscription
        subscription = nil
        s?.dispose()
        for branch in branches { branch.recorder.dispose() }
    }

    /// The events, each stream that branched off written as what it sent
    /// from when it began (`cold("1---3--|")`): what an expectation of a
    /// stream of streams compares, and what its lane's legend prints.
    public var eventsAsWritten: [TimedEvent] {
        guard !branches.isEmpty else { return events }
        var recorded: [ObjectIdentifier: ColdStream] = [:]
        for branch in branches where recorded[ObjectIdentifier(branch.stream)] == nil {
            let relative = branch.recorder.eventsAsWritten.map { TimedEvent($0.time - branch.started, $0.event) }
            recorded[ObjectIdentifier(branch.stream)] = ColdStream.recording(relative)
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
        return [lane] + branches.flatMap { branch in
            branch.recorder.lanes(label: "  ↳ " + (branch.stream.label ?? branch.stream.writtenAs ?? branch.stream.displayName)).enumerated().map { n, lane in
                var lane = lane
                if n == 0 { lane.start = branch.started }
                return lane
            }
        }
    }
}
