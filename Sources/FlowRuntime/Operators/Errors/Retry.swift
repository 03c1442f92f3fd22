extension OperatorSpec {
    static let retry = method("retry", .errors, "on error, subscribes again, at most n times", [arg("count", .int).nonNegative()],
        example: #"""
            let source = cold("-a#")
            marbles(source, source.retry(2))
            """#) { $0.retry(try $1.int(0)) }
}

extension Observable {
    /// On error, subscribes again, at most `count` times (`count + 1`
    /// attempts in all); the last error is passed on.
    public func retry(_ count: Int) -> Observable {
        ClosureNode("retry", inputs: [self]) { observer, scheduler, inputs in
            RetrySink(observer, scheduler: scheduler, source: inputs[0], retries: Swift.max(0, count)).start()
        }
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
