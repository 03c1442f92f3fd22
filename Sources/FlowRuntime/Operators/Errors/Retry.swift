extension OperatorSpec {
    static let retry = OperatorSpec("retry", .errors, .method,
        "on error, subscribes again: at most count times (with no count, for ever), after delay when given", [
        // RxSwift's `retry(n)` counts attempts, the first one included.
        Signature([arg("count", .int).nonNegative()]) {
            let count = try $0.int(0)
            return .stream(try $0.source().retry($0.context.dialect == .rxSwift ? count - 1 : count))
        },
        Signature([]) { .stream(try $0.source().retry(Int.max)) },
        Signature([labelled("count", .int).nonNegative(), labelled("delay", .duration, optional: true).nonNegative()]) {
            .stream(try $0.source().retry(try $0.int(0), delay: try $0.optionalDuration(1)))
        },
        Signature([labelled("delay", .duration).nonNegative()]) {
            .stream(try $0.source().retry(Int.max, delay: try $0.optionalDuration(0)))
        },
    ], example: #"""
            let source = cold("-a#")
            marbles(source, source.retry(2), source.retry(count: 1, delay: 2ms))
            """#,
        differences: "`retry(n)` re-subscribes at most n times (n + 1 attempts) in flow, Combine and RxJS; RxSwift's `retry(n)` makes n attempts in all, the first included (`import RxSwift`). `retry()` with no count retries for ever in RxSwift and RxJS (Combine requires a count).")
}

extension Observable {
    /// On error, subscribes again, at most `count` times (`count + 1`
    /// attempts in all; `Int.max` is for ever), `delay` after the error when
    /// given; the last error is passed on.
    public func retry(_ count: Int, delay: TimeSpan? = nil) -> Observable {
        ClosureNode("retry", inputs: [self]) { observer, scheduler, inputs in
            RetrySink(observer, scheduler: scheduler, source: inputs[0], retries: Swift.max(0, count), delay: delay, on: .error).start()
        }
    }
}

/// Resubscribes after errors (`retry`) or after completion (`repeat`),
/// trampolined: a source that ends while it is being subscribed is
/// subscribed again by the loop in `start`, not recursively.
final class RetrySink: Sink, InnerHost {
    enum Trigger { case error, completion }
    private let scheduler: Scheduler
    private let source: Observable
    private var retriesLeft: Int
    private let delay: TimeSpan?
    private let trigger: Trigger
    private var attempt: InnerObserver?
    private var pause: Disposable?
    private var subscribing = false
    private var resubscribeRequested = false

    init(_ downstream: Observer, scheduler: Scheduler, source: Observable, retries: Int, delay: TimeSpan? = nil, on trigger: Trigger) {
        self.scheduler = scheduler
        self.source = source
        self.retriesLeft = retries
        self.delay = delay
        self.trigger = trigger
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
                let name = trigger == .error ? "retry" : "repeat"
                return sendError(FlowError(
                    "\(name) re-subscribed \(VirtualScheduler.synchronousValueLimit) times without time passing, the most virtual time allows; is the count meant to be endless?"))
            }
            if rounds % Interruption.stride == 0, scheduler.interruption?.isRequested == true {
                subscribing = false
                return
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
        guard trigger == .error, retriesLeft > 0 else { return sendError(error) }
        again()
    }

    func innerCompleted(_ inner: InnerObserver) {
        guard trigger == .completion, retriesLeft > 0 else { return sendCompleted() }
        again()
    }

    private func again() {
        if retriesLeft != Int.max { retriesLeft -= 1 }
        attempt = nil
        guard let delay, delay > .zero else { return subscribeAgain() }
        pause = scheduler.schedule(after: delay) { [weak self] in
            self?.pause = nil
            self?.subscribeAgain()
        }
    }

    override func disposeResources() {
        attempt?.dispose()
        attempt = nil
        pause?.dispose()
        pause = nil
    }
}
