/// Error handling: `catch`, `catchAndReturn`, `retry`, `timeout`.
extension Observable {
    /// On error, continues with the stream `handler` returns for the
    /// error's value. A throwing handler ends the stream with its error.
    public func `catch`(_ handler: Function) -> Observable {
        SinkNode("catch", self) { observer, scheduler in
            CatchSink(observer, scheduler: scheduler) { error in try handler.call(error.value).asStream() }
        }
    }

    /// On error, emits `value` and completes.
    public func catchAndReturn(_ value: Value) -> Observable {
        SinkNode("catchAndReturn", self) { observer, scheduler in
            CatchSink(observer, scheduler: scheduler) { _ in .just(value) }
        }
    }

    /// On error, subscribes again, at most `count` times (`count + 1`
    /// attempts in all); the last error is passed on.
    public func retry(_ count: Int) -> Observable {
        ClosureNode("retry", inputs: [self]) { observer, scheduler, inputs in
            RetrySink(observer, scheduler: scheduler, source: inputs[0], retries: Swift.max(0, count)).start()
        }
    }

    /// Fails with error "timeout" (or switches to `other`, when given) if
    /// `dueTime` passes without a value since subscription or, with
    /// `resetOnValue`, since the last value. Without `resetOnValue` there is
    /// one deadline, `dueTime` after subscription.
    public func timeout(_ dueTime: TimeSpan, resetOnValue: Bool = true, other: Observable? = nil) -> Observable {
        SinkNode("timeout", self) { observer, scheduler in
            TimeoutSink(observer, scheduler: scheduler, dueTime: dueTime, resetOnValue: resetOnValue, fallback: other)
        }
    }
}

/// Passes the source on; on error, switches to a replacement stream.
final class CatchSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let replacement: (FlowError) throws -> Observable
    private var fallback: InnerObserver?

    init(_ downstream: Observer, scheduler: Scheduler, replacement: @escaping (FlowError) throws -> Observable) {
        self.scheduler = scheduler
        self.replacement = replacement
        super.init(downstream)
    }

    override func onError(_ error: FlowError) {
        let next: Observable
        do { next = try replacement(error) } catch { return sendError(FlowError.wrap(error)) }
        cancelUpstream()
        switchTo(next)
    }

    /// Continue with `next` in place of the source.
    func switchTo(_ next: Observable) {
        let inner = InnerObserver(host: self, index: 1)
        fallback = inner
        next.subscribe(inner, on: scheduler)
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { sendNext(value) }
    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) { sendCompleted() }

    override func disposeResources() {
        fallback?.dispose()
        fallback = nil
    }
}

/// Resubscribes after errors, trampolined: a source that fails while it is
/// being subscribed is retried by the loop in `start`, not recursively.
final class RetrySink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let source: Observable
    private var retriesLeft: Int
    private var attempt: InnerObserver?
    private var subscribing = false
    private var resubscribeRequested = false

    init(_ downstream: Observer, scheduler: Scheduler, source: Observable, retries: Int) {
        self.scheduler = scheduler
        self.source = source
        self.retriesLeft = retries
        super.init(downstream)
    }

    func start() {
        announce()
        subscribeAgain()
    }

    private func subscribeAgain() {
        if subscribing { resubscribeRequested = true; return }
        subscribing = true
        // A source that fails at once is re-subscribed in this loop; in
        // virtual time nothing can interrupt it, so it is bounded there.
        var rounds = 0
        repeat {
            rounds += 1
            if rounds > VirtualScheduler.synchronousValueLimit, scheduler.isVirtual {
                subscribing = false
                return sendError(FlowError(
                    "retry re-subscribed \(VirtualScheduler.synchronousValueLimit) times without time passing, the most virtual time allows; is the count meant to be endless?"))
            }
            resubscribeRequested = false
            let inner = InnerObserver(host: self, index: 0)
            attempt = inner
            source.subscribe(inner, on: scheduler)
        } while resubscribeRequested && !isStopped
        subscribing = false
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { sendNext(value) }

    func innerError(_ inner: InnerObserver, _ error: FlowError) {
        guard retriesLeft > 0 else { return sendError(error) }
        retriesLeft -= 1
        attempt = nil
        subscribeAgain()
    }

    func innerCompleted(_ inner: InnerObserver) { sendCompleted() }

    override func disposeResources() {
        attempt?.dispose()
        attempt = nil
    }
}

final class TimeoutSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let dueTime: TimeSpan
    private let resetOnValue: Bool
    private let fallbackStream: Observable?
    private let timer = SerialDisposable()
    private var fallback: InnerObserver?

    init(_ downstream: Observer, scheduler: Scheduler, dueTime: TimeSpan, resetOnValue: Bool, fallback: Observable?) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.resetOnValue = resetOnValue
        self.fallbackStream = fallback
        super.init(downstream)
    }

    override func onSubscribe(_ subscription: Disposable) {
        super.onSubscribe(subscription)
        armTimer()
    }

    private func armTimer() {
        timer.disposable = scheduler.schedule(after: dueTime) { [weak self] in self?.fire() }
    }

    private func fire() {
        guard !isStopped, fallback == nil else { return }
        guard let fallbackStream else { return sendError(.timeout) }
        cancelUpstream()
        let inner = InnerObserver(host: self, index: 1)
        fallback = inner
        fallbackStream.subscribe(inner, on: scheduler)
    }

    override func onNext(_ value: Value) {
        if resetOnValue { armTimer() }
        sendNext(value)
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { sendNext(value) }
    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) { sendCompleted() }

    override func disposeResources() {
        timer.dispose()
        fallback?.dispose()
        fallback = nil
    }
}
