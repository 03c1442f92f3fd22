import Dispatch
import FlowRuntime
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time on a swift-nio event loop. Every event of a live run is
/// delivered on that loop's one thread; I/O that completes on other
/// threads hops onto it with `post` or a callback from `makeCallback`.
///
/// The scheduler counts outstanding work (timers not yet run or cancelled,
/// and `hold`s taken by I/O in flight) so a program can end when none is left.
public final class LiveScheduler: LiveLoop {
    public let eventLoop: EventLoop
    private let start: NIODeadline
    private var outstanding = 0
    private var idleHandler: (() -> Void)?
    private var store = RunStateStore()
    /// Open while the loop takes work: I/O threads that finish after the run
    /// has ended (a cancelled request failing late) must not hand work to a
    /// loop that is shutting down.
    let gate: LoopGate

    /// Must be created on `eventLoop`'s thread.
    public convenience init(eventLoop: EventLoop) {
        self.init(eventLoop: eventLoop, gate: LoopGate())
    }

    init(eventLoop: EventLoop, gate: LoopGate) {
        eventLoop.preconditionInEventLoop()
        self.eventLoop = eventLoop
        self.start = .now()
        self.gate = gate
    }

    public var isVirtual: Bool { false }
    /// Read at every subscription: without the dynamic exclusivity check.
    @exclusivity(unchecked) public var tracer: Tracer?
    public let interruption: Interruption? = Interruption()

    public var now: TimeSpan {
        TimeSpan(nanoseconds: Int64(NIODeadline.now().uptimeNanoseconds) - Int64(start.uptimeNanoseconds))
    }

    /// True while timers or holds are outstanding.
    public var hasPendingWork: Bool { outstanding > 0 }

    @discardableResult
    public func schedule(at time: TimeSpan, _ action: @escaping () -> Void) -> Disposable {
        let timer = LiveTimer(scheduler: self, action: action)
        beginWork()
        let deadline = start + .nanoseconds(Swift.max(time.nanoseconds, 0))
        timer.task = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { timer.fire() }
        return timer
    }

    public func runState<State: AnyObject>(for owner: AnyObject, create: () -> State) -> State {
        store.state(for: owner, create: create)
    }

    /// Keeps the run alive until the returned disposable is disposed: taken
    /// by I/O for as long as it may still deliver events.
    public func hold() -> Disposable {
        beginWork()
        return ActionDisposable { [weak self] in self?.endWork() }
    }

    /// A script's `signals("HUP")`: the signal is routed to it (not to the
    /// run's stop) for as long as it watches. It does not hold the run
    /// open: a job that only waits for signals waits on something else too.
    public func watchSignal(_ name: String, _ handler: @escaping () -> Void) -> Disposable? {
        guard let number = SignalRoutes.names[name] else { return nil }
        let hop = makeCallback { (_: Int32) in handler() }
        return SignalRoutes.shared.route(number, takesOver: true) { hop(number) }
    }

    /// Called (on the loop) whenever outstanding work drops to zero.
    public func whenIdle(_ handler: @escaping () -> Void) {
        idleHandler = handler
    }

    /// Runs `action` on the loop, from any thread.
    public func post(_ action: @escaping @Sendable () -> Void) {
        gate.execute(action, on: eventLoop)
    }

    /// Wraps a loop-bound handler into one any thread may call: the call
    /// hops onto the loop before the handler runs.
    public func makeCallback<Payload: Sendable>(_ handler: @escaping (Payload) -> Void) -> @Sendable (Payload) -> Void {
        let bound = NIOLoopBound(handler, eventLoop: eventLoop)
        let loop = eventLoop, gate = self.gate
        return { payload in gate.execute({ bound.value(payload) }, on: loop) }
    }

    fileprivate func beginWork() { outstanding += 1 }

    fileprivate func endWork() {
        outstanding -= 1
        if outstanding == 0 { notifyIfIdle() }
    }

    /// Reports idleness after the current event has finished, since it may
    /// still schedule more work.
    public func notifyIfIdle() {
        eventLoop.assumeIsolated().execute { [self] in
            if outstanding == 0 { idleHandler?() }
        }
    }

    /// Runs `body` on a new event loop whose thread has a large stack (so
    /// deep operator graphs have room), and returns when the loop stops.
    /// The loop stops when `body`'s scheduler goes idle, or when `stop` is
    /// called on the handle passed to it.
    public static func run(stackSize: Int = 512 << 20, _ body: @escaping (LiveScheduler, LiveRunHandle) -> Void) {
        runOnNewThread(stackSize: stackSize) {
            // The run owns its scheduler until the loop stops: timers and
            // holds only refer to it weakly.
            var scheduler: LiveScheduler?
            MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
                let gate = LoopGate()
                let live = LiveScheduler(eventLoop: loop, gate: gate)
                scheduler = live
                let handle = LiveRunHandle(loop: loop, gate: gate)
                live.whenIdle { handle.stop() }
                body(live, handle)
                live.notifyIfIdle()
            }
            withExtendedLifetime(scheduler) {}
        }
    }
}

/// Stops a live run from the loop or any other thread. Stopping twice (an
/// interrupt, then the idleness it causes) is stopping once: the loop may
/// only be shut down once.
public final class LiveRunHandle: Sendable {
    private let loop: EventLoop
    private let gate: LoopGate

    init(loop: EventLoop, gate: LoopGate) {
        self.loop = loop
        self.gate = gate
    }

    public func stop() {
        if gate.close() { loop.shutdownGracefully { _ in } }
    }
}

/// Whether a live loop still takes work from other threads. Closing and
/// handing over work take the same lock, so no work reaches a loop after
/// its shutdown has begun; work offered later is dropped (the run it was
/// for has ended).
final class LoopGate: Sendable {
    private let open = NIOLockedValueBox(true)

    func execute(_ work: @escaping @Sendable () -> Void, on loop: EventLoop) {
        open.withLockedValue { if $0 { loop.execute(work) } }
    }

    /// Closes the gate; true the first time.
    func close() -> Bool {
        open.withLockedValue { isOpen in
            defer { isOpen = false }
            return isOpen
        }
    }
}

final class LiveTimer: Disposable {
    private weak var scheduler: LiveScheduler?
    private var action: (() -> Void)?
    var task: Scheduled<Void>?

    init(scheduler: LiveScheduler, action: @escaping () -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    func fire() {
        guard let action else { return }
        self.action = nil
        task = nil
        action()
        scheduler?.endWork()
    }

    func dispose() {
        guard action != nil else { return }
        action = nil
        task?.cancel()
        task = nil
        scheduler?.endWork()
    }
}

