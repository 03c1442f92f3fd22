import Synchronization

/// A clock and a serial queue of timed work. Every event of a run is
/// delivered from the one thread that drives its scheduler.
///
/// Two implementations: `VirtualScheduler` (deterministic, instant) here,
/// and FlowLive's `LiveScheduler` (a swift-nio event loop on the wall
/// clock), seen from this layer as a `LiveLoop`. Operators
/// are written once against this protocol and behave the same on both.
public protocol Scheduler: AnyObject {
    /// Time since the scheduler started.
    var now: TimeSpan { get }
    /// True for virtual time, where marbles are exact.
    var isVirtual: Bool { get }
    /// Runs `action` at `time` (at once, after already queued work, if
    /// `time` has passed). Work at equal times runs in the order scheduled.
    @discardableResult
    func schedule(at time: TimeSpan, _ action: @escaping () -> Void) -> Disposable
    /// Runs `action` at `first`, then every `period` after it, measured from
    /// `first` so that the ticks do not drift.
    func schedulePeriodic(first: TimeSpan, period: TimeSpan, _ action: @escaping () -> Void) -> Disposable
    /// Per-run state of a stream that must be shared by every subscriber of
    /// the run (a hot source playing once), created on first use.
    func runState<State: AnyObject>(for owner: AnyObject, create: () -> State) -> State
    /// Records per-stage events of traced chains, when set.
    var tracer: Tracer? { get set }
    /// Set from any thread when the run is to stop (Ctrl-C, a page's Stop);
    /// nil where nothing can ask (virtual time bounds its loops instead).
    var interruption: Interruption? { get }
}

/// A request to stop a run, made from any thread. Stopping cancels every
/// subscription on the run's loop; a source that emits synchronously in a
/// loop (`range`, a `repeat` of what ends at once) keeps that loop busy, so
/// it looks here now and then and gives the loop back once asked.
public final class Interruption: Sendable {
    private let asked = Atomic(false)
    /// Which `Interrupt` asked first, by its position; -1 before any.
    private let askedBy = Atomic(-1)

    public init() {}

    public func request(_ kind: Interrupt = .interrupt) {
        _ = askedBy.compareExchange(expected: -1, desired: Interrupt.allCases.firstIndex(of: kind)!, ordering: .relaxed)
        asked.store(true, ordering: .releasing)
    }

    public var isRequested: Bool { asked.load(ordering: .acquiring) }

    /// What asked the run to stop, once something did.
    public var requestedBy: Interrupt? {
        let index = askedBy.load(ordering: .relaxed)
        return index < 0 ? nil : Interrupt.allCases[index]
    }

    /// How many values or rounds a synchronous loop runs between looks.
    static let stride = 4096
}

extension Scheduler {
    public var interruption: Interruption? { nil }

    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: @escaping () -> Void) -> Disposable {
        schedule(at: now + delay, action)
    }

    /// Periodic work built from one-shot work, for schedulers without a
    /// native form.
    public func schedulePeriodic(first: TimeSpan, period: TimeSpan, _ action: @escaping () -> Void) -> Disposable {
        let task = PeriodicTask(scheduler: self, first: first, period: max(period, TimeSpan(nanoseconds: 1)), action: action)
        task.arm()
        return task
    }
}

/// Per-run state keyed by the identity of the stream that owns it and the
/// kind of state. The owner is kept alive with its state so that its
/// identity cannot be reused.
public struct RunStateStore {
    private struct Key: Hashable {
        let owner: ObjectIdentifier
        let kind: ObjectIdentifier
    }
    private var entries: [Key: (owner: AnyObject, state: AnyObject)] = [:]
    public init() {}

    public mutating func state<State: AnyObject>(for owner: AnyObject, create: () -> State) -> State {
        let key = Key(owner: ObjectIdentifier(owner), kind: ObjectIdentifier(State.self))
        if let existing = entries[key]?.state as? State { return existing }
        let state = create()
        entries[key] = (owner, state)
        return state
    }
}

final class PeriodicTask: Disposable {
    private unowned let scheduler: Scheduler
    private let first: TimeSpan
    private let period: TimeSpan
    private var action: (() -> Void)?
    private var tick: Int64 = 0
    private let current = SerialDisposable()

    init(scheduler: Scheduler, first: TimeSpan, period: TimeSpan, action: @escaping () -> Void) {
        self.scheduler = scheduler
        self.first = first
        self.period = period
        self.action = action
    }

    func arm() {
        let due = first + period * tick
        current.disposable = scheduler.schedule(at: due) { [self] in
            guard let action else { return }
            tick += 1
            action()
            if self.action != nil { arm() }
        }
    }

    func dispose() {
        action = nil
        current.dispose()
    }
}
