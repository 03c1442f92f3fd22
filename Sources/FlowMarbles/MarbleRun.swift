import FlowRuntime

/// One virtual-time run with marble expectations, as in RxJS's
/// `testScheduler.run`: each `expect` subscribes at frame 0 (or at its
/// subscription marble's `^`) before any other work of that frame, the
/// clock then runs until no work is left, and every expectation is checked.
public final class MarbleRun {
    public let scheduler = VirtualScheduler()
    private var checks: [() -> ExpectationFailure?] = []
    private var recorders: [EventRecorder] = []
    /// Each recorder (of an expectation or a drawn lane) and its place, to
    /// say which stream kept a run from going idle.
    private var expectations: [(recorder: EventRecorder, location: SourceLocation?)] = []
    /// What each recorder is still waiting for, to stop a runaway run as
    /// soon as nothing it could still do changes a verdict or a drawing.
    private var verdicts: [Verdict] = []
    /// Where the run is written (a test block), for failures of the run itself.
    public var location: SourceLocation?

    /// Bounds for a run that never goes idle (an endless `interval`).
    public var timeLimit = TimeSpan.seconds(24 * 3600)
    public var actionLimit = 1_000_000
    /// Actions after which a run whose outcome is settled is stopped.
    static let longRun = 100_000

    public init() {}

    /// What an expectation that carries points is worth (`toBe(...,
    /// points: 3, partial: .perEvent)`), for a grader.
    public struct Credit: Sendable {
        public var points: Int
        /// Credit per right event, not all or nothing.
        public var perEvent: Bool
        public init(points: Int, perEvent: Bool) {
            self.points = points
            self.perEvent = perEvent
        }
    }

    /// The points each credited expectation earned, of those it carries,
    /// once the run is checked.
    public private(set) var scores: [(earned: Int, possible: Int)] = []

    /// Per event: each expected event the stream sent with the same value
    /// at the same frame is right (each actual event answers one expected
    /// event at most); the credit is the points times the right events
    /// over the longer of the two lanes, so extra events cost as missing
    /// ones do, rounded down to whole points.
    public static func partialCredit(points: Int, expected: [TimedEvent], actual: [TimedEvent], errorGiven: Bool) -> Int {
        let longer = max(expected.count, actual.count)
        guard longer > 0 else { return points }
        var unused = Array(actual.indices)
        var right = 0
        for event in expected {
            if let i = unused.firstIndex(where: { actual[$0].time == event.time
                && MarbleComparison.matches(event.event, actual[$0].event, errorGiven: errorGiven) }) {
                unused.remove(at: i)
                right += 1
            }
        }
        return points * right / longer
    }

    public struct ExpectationFailure: CustomStringConvertible {
        public var location: SourceLocation?
        public var message: String
        /// The run as a whole failed (it never went idle), not one
        /// expectation: `location` is the stream that kept it going.
        public var isRunFailure = false
        /// The comparison that failed, when an expectation did.
        public var mismatch: MarbleMismatch?
        public var description: String { message }
    }

    /// Expects `stream`, subscribed as `subscription` says (default: at
    /// frame 0, never unsubscribed), to produce `marbles`.
    public func expect(
        _ stream: Observable, subscription: SubscriptionLog = SubscriptionLog(subscribed: .zero, unsubscribed: nil),
        toBe marbles: String, values: [String: Value] = [:], error: Value? = nil, location: SourceLocation? = nil, credit: Credit? = nil
    ) throws {
        let expected = try MarbleParser.parseEvents(marbles, values: values, error: error).events
        let recorder = observe(stream, subscription: subscription, location: location)
        verdicts[verdicts.count - 1].expected = expected
        verdicts[verdicts.count - 1].errorGiven = error != nil
        checks.append { [unowned self] in
            let failure = MarbleComparison.compare(expected: expected, actual: recorder.eventsAsWritten, values: values, errorGiven: error != nil)
                .map { ExpectationFailure(location: location, message: $0.description, mismatch: $0) }
            if let credit {
                let earned = failure == nil ? credit.points
                    : credit.perEvent ? Self.partialCredit(points: credit.points, expected: expected, actual: recorder.eventsAsWritten, errorGiven: error != nil)
                    : 0
                scores.append((earned, credit.points))
            }
            return failure
        }
    }

    /// Queues the recorder's subscription and unsubscription as scheduler
    /// work, as RxJS's `expectObservable` does: queued before the run, they
    /// come before any event their frame produces.
    public func observe(_ stream: Observable, subscription: SubscriptionLog, location: SourceLocation? = nil) -> EventRecorder {
        let recorder = EventRecorder(scheduler: scheduler)
        recorder.stream = stream
        recorders.append(recorder)
        expectations.append((recorder, location))
        verdicts.append(Verdict(recorder: recorder, location: location))
        scheduler.schedule(at: subscription.subscribed) { [scheduler] in stream.subscribe(recorder, on: scheduler) }
        if let end = subscription.unsubscribed {
            scheduler.schedule(at: end) { recorder.dispose() }
        }
        return recorder
    }

    /// Expects the subscription log of a marble stream, checked after the run.
    public func expectSubscriptions(_ stream: LoggedStream, toBe marbles: [String], location: SourceLocation? = nil) throws {
        let expected = try marbles.map(MarbleParser.parseSubscription)
        checks.append { [scheduler] in
            MarbleComparison.compare(expected: expected, actual: stream.subscriptions(on: scheduler))
                .map { ExpectationFailure(location: location, message: $0) }
        }
    }

    /// Asked every few actions of `run`: true stops the run there, as if a
    /// limit were reached (an editor cancelled the hover it ran for).
    public var stopRequested: (() -> Bool)?

    /// For a run that draws rather than checks (an editor's hover): it is
    /// stopped as soon as each lane it records has ended or holds this many
    /// events, so an endless stream shows its beginning; `cutAt` says where.
    public var laneBudget: Int?
    /// Where a run that never went idle was stopped (its lane budget, a
    /// limit, a request): what its lanes hold came before it.
    public private(set) var cutAt: TimeSpan?

    /// Runs the clock until idle and checks every expectation. `hotStreams`
    /// (in the order they were made) start first, as in RxJS.
    public func run(startingFirst hotStreams: [HotStream] = []) -> [ExpectationFailure] {
        for hot in hotStreams { hot.start(on: scheduler) }
        var stoppedBy: Verdict?
        var spentBudget = false
        // A run that may be stopped looks often: one action can be long;
        // one cut at its budget looks at each, so it stops at the event.
        let checkEvery = laneBudget != nil ? 1 : stopRequested == nil ? 4096 : 16
        let outcome = scheduler.run(timeLimit: timeLimit, actionLimit: actionLimit, checkEvery: checkEvery) { [verdicts, scheduler, stopRequested, laneBudget] in
            // Whoever asked for the run no longer wants it (an editor's hover).
            if stopRequested?() == true { return true }
            // Drawn far enough: every lane has ended or shows its budget
            // (an expectation, until its verdict is sure).
            if let laneBudget, verdicts.contains(where: { !$0.hasEnded }), verdicts.allSatisfy({ verdict in
                verdict.hasEnded || (verdict.expected == nil ? verdict.recorder.events.count >= laneBudget : verdict.isSettled)
            }) {
                spentBudget = true
                return true
            }
            // Everything is settled, and something is still going only to
            // be drawn past its lane's end or to fail an expectation that
            // has failed already: a forgotten take(n) fails at once. (Not
            // before a run is long: a finite stream is let end.)
            guard scheduler.executedActions >= Self.longRun, verdicts.allSatisfy({ $0.isSettled }) else { return false }
            stoppedBy = verdicts.first { !$0.hasEnded }
            return stoppedBy != nil
        }
        if outcome == .limitReached {
            // Stopped at the time limit, the run went that far with nothing due.
            cutAt = scheduler.nextDueTime.map { $0 > timeLimit } == true ? timeLimit : scheduler.now
        }
        RunEnding.mark(scheduler)
        for recorder in recorders { recorder.dispose() }
        var failures: [ExpectationFailure] = []
        if spentBudget {
            // A drawing cut where it was asked to be is no failure.
        } else if let stoppedBy, outcome == .limitReached {
            let why = stoppedBy.expected == nil
                ? "its lane had more than \(LaneDiagram.longestLane) events and was still going"
                : "its expectation had already failed and the stream was still going"
            failures.append(ExpectationFailure(location: stoppedBy.location ?? location, message: """
                the run was stopped at virtual time \(scheduler.now) after \(scheduler.executedActions) actions: \(why) \
                (an endless interval or timer without take(n)?)
                """, isRunFailure: true))
        } else if outcome == .limitReached {
            // Point at the first expectation whose stream was still going.
            let endless = expectations.first { !$0.recorder.events.contains { $0.event.isTerminal } }
            // Work waiting past the time limit is not endless work: a finite
            // marble or timer can simply be further ahead than a run goes.
            let message = if scheduler.executedActions < actionLimit, let next = scheduler.nextDueTime, next > timeLimit {
                """
                the run stopped at its virtual-time limit of \(timeLimit): the next event is due at \(next), further ahead \
                than a virtual-time run goes; shorten the marble's time or the timer's delay, or run it on the live clock (--live)
                """
            } else {
                """
                the run never went idle: stopped at virtual time \(scheduler.now) after \(scheduler.executedActions) actions \
                (limits: \(timeLimit), \(actionLimit) actions); is there an endless interval or timer without take(n)?
                """
            }
            failures.append(ExpectationFailure(location: endless?.location ?? location, message: message, isRunFailure: true))
        }
        failures += checks.compactMap { $0() }
        return failures
    }
}

/// Where one recorded stream stands during a run: settled when its stream
/// has ended, when its expectation has already failed (nothing it does
/// later can make it pass), or when a drawn lane has more events than a
/// diagram shows.
final class Verdict {
    let recorder: EventRecorder
    let location: SourceLocation?
    var expected: [TimedEvent]?
    var errorGiven = false
    /// Events compared with the expectation so far, all equal.
    private var matched = 0
    private var failed = false

    init(recorder: EventRecorder, location: SourceLocation?) {
        self.recorder = recorder
        self.location = location
    }

    var hasEnded: Bool { recorder.isDisposed || recorder.events.last?.event.isTerminal == true }

    var isSettled: Bool {
        if hasEnded || failed { return true }
        let events = recorder.events
        guard let expected else { return events.count > LaneDiagram.longestLane }
        // Compared as it grows: only the events recorded since last time.
        while matched < events.count {
            guard matched < expected.count, expected[matched].time == events[matched].time,
                  Self.mayMatch(expected[matched].event, events[matched].event, errorGiven: errorGiven) else {
                failed = true
                return true
            }
            matched += 1
        }
        return false
    }

    /// Whether a recorded event may still turn out to match: an inner
    /// stream is compared by what it sent, known only once the run is over.
    private static func mayMatch(_ expected: Event, _ actual: Event, errorGiven: Bool) -> Bool {
        if case .next(.stream) = expected, case .next(.stream) = actual { return true }
        return MarbleComparison.matches(expected, actual, errorGiven: errorGiven)
    }
}
