import HeapModule

/// Deterministic virtual time: work is ordered by (time, order scheduled),
/// so ties run first-in first-out, and the clock jumps from one piece of
/// work to the next. Marble tests and `flow run --virtual` run on it.
public final class VirtualScheduler: Scheduler {
    @exclusivity(unchecked) public private(set) var now: TimeSpan = .zero
    public var isVirtual: Bool { true }
    /// Read at every subscription: without the dynamic exclusivity check.
    @exclusivity(unchecked) public var tracer: Tracer?
    /// Actions executed so far, to bound a run that never goes idle.
    @exclusivity(unchecked) public private(set) var executedActions = 0

    /// The most values one synchronous source (`range`) emits in virtual
    /// time, which cannot interrupt a loop as Ctrl-C does on the live
    /// clock: `range(0, Int.max)` ends in an error, not a hang. The same
    /// million as a run's action limit.
    public static let synchronousValueLimit = 1_000_000

    @exclusivity(unchecked) private var queue = Heap<Entry>()
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    private var store = RunStateStore()

    public init() {}

    @discardableResult
    public func schedule(at time: TimeSpan, _ action: @escaping () -> Void) -> Disposable {
        let item = ScheduledAction(action)
        queue.insert(Entry(time: max(time, now), sequence: nextSequence, item: item))
        nextSequence += 1
        return item
    }

    /// One action re-queued after each run: an `interval` allocates nothing per tick.
    public func schedulePeriodic(first: TimeSpan, period: TimeSpan, _ action: @escaping () -> Void) -> Disposable {
        let item = ScheduledAction(action, period: Swift.max(period, TimeSpan(nanoseconds: 1)))
        queue.insert(Entry(time: Swift.max(first, now), sequence: nextSequence, item: item))
        nextSequence += 1
        return item
    }

    public func runState<State: AnyObject>(for owner: AnyObject, create: () -> State) -> State {
        store.state(for: owner, create: create)
    }

    /// True while some scheduled action has not run or been cancelled.
    public var hasPendingWork: Bool {
        dropCancelled()
        return !queue.isEmpty
    }

    /// The time of the next pending action.
    public var nextDueTime: TimeSpan? {
        dropCancelled()
        return queue.min?.time
    }

    public enum RunOutcome: Equatable {
        /// No work is left.
        case idle
        /// Work remains past the time limit, or beyond the action limit.
        case limitReached
    }

    /// Runs until no work is left, or until the next action would start
    /// after `timeLimit` or exceed `actionLimit` actions.
    /// `stopsEarly` is asked every `checkEvery` actions whether the rest
    /// of the run still matters; when it says no, the run stops there as
    /// if a limit were reached.
    @discardableResult
    public func run(
        timeLimit: TimeSpan = TimeSpan(nanoseconds: .max), actionLimit: Int = .max, checkEvery: Int = 4096,
        stopsEarly: (() -> Bool)? = nil
    ) -> RunOutcome {
        var untilCheck = checkEvery
        while let entry = popNext(notAfter: timeLimit) {
            if executedActions >= actionLimit { requeue(entry); return .limitReached }
            execute(entry)
            if let stopsEarly {
                untilCheck -= 1
                if untilCheck == 0 {
                    untilCheck = checkEvery
                    if stopsEarly() { return hasPendingWork ? .limitReached : .idle }
                }
            }
        }
        return hasPendingWork ? .limitReached : .idle
    }

    /// Runs everything due up to and including `time`, then sets the clock to it.
    public func advance(to time: TimeSpan) {
        while let entry = popNext(notAfter: time) { execute(entry) }
        if time > now { now = time }
    }

    public func advance(by span: TimeSpan) { advance(to: now + span) }

    private func execute(_ entry: Entry) {
        now = entry.time
        executedActions += 1
        entry.item.run()
        if let period = entry.item.period, !entry.item.isCancelled {
            queue.insert(Entry(time: entry.time + period, sequence: nextSequence, item: entry.item))
            nextSequence += 1
        }
    }

    private func popNext(notAfter limit: TimeSpan) -> Entry? {
        dropCancelled()
        guard let head = queue.min, head.time <= limit else { return nil }
        return queue.removeMin()
    }

    private func requeue(_ entry: Entry) { queue.insert(entry) }

    private func dropCancelled() {
        while let head = queue.min, head.item.isCancelled { queue.removeMin() }
    }

    private struct Entry: Comparable {
        let time: TimeSpan
        let sequence: UInt64
        let item: ScheduledAction

        static func < (a: Entry, b: Entry) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
        static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.sequence == b.sequence }
    }
}

/// One scheduled action, or a periodic one; disposing it cancels what has
/// not run yet.
final class ScheduledAction: Disposable {
    @exclusivity(unchecked) private var action: (() -> Void)?
    let period: TimeSpan?

    init(_ action: @escaping () -> Void, period: TimeSpan? = nil) {
        self.action = action
        self.period = period
    }

    var isCancelled: Bool { action == nil }

    func run() {
        guard let action else { return }
        if period == nil { self.action = nil }
        action()
    }

    func dispose() { action = nil }
}
