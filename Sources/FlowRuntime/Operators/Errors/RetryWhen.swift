extension OperatorSpec {
    static let retryWhen = method("retryWhen", aliases: ["retry(when:)"], .errors,
        "on error, sends the error into a stream of errors given to the closure; subscribes again each time the stream it returns emits, and ends when that stream ends",
        [arg("notifier", .function)],
        example: #"""
            let source = cold("-a#")
            marbles(source, source.retryWhen { errors in errors.delay(2ms).take(2) })
            """#,
        differences: "RxSwift `retry(when:)`, RxJS `retryWhen` (replaced in RxJS 7 by `retry({ delay })`); Combine has none. A closure of two parameters, `retry(when: { error, attempt in timer(1s) })`, is RxJS 7's `retry({ delay })` instead: called at each error with the error and the attempt (from 1), it retries at its stream's first value, for ever.") { source, args in
            let notifier = try args.function(0)
            if notifier.reads == 2 { return source.retry(Int.max, delay: .notifier(notifier)) }
            return source.retryWhen(notifier)
        }
}

extension Observable {
    /// RxJS's `retryWhen`, RxSwift's `retry(when:)`: `notifier` is called
    /// once per subscription with the stream of the source's errors; each
    /// value of the stream it returns subscribes to the source again. Its
    /// completion completes the result and its error fails it.
    public func retryWhen(_ notifier: Function) -> Observable {
        ClosureNode("retryWhen", inputs: [self]) { observer, scheduler, inputs in
            RetryWhenSink(observer, scheduler: scheduler, source: inputs[0]).start(notifier)
        }
    }
}

final class RetryWhenSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let source: Observable
    private let errors = PublishSubject()
    private var attempt: InnerObserver?
    private var trigger: InnerObserver?

    init(_ downstream: Observer, scheduler: Scheduler, source: Observable) {
        self.scheduler = scheduler
        self.source = source
        super.init(downstream)
    }

    func start(_ notifier: Function) {
        announce()
        let retries: Observable
        do { retries = try notifier.call(.stream(errors)).asStream() } catch { return sendError(FlowError.wrap(error)) }
        let inner = InnerObserver(host: self, index: 1)
        trigger = inner
        retries.subscribe(inner, on: scheduler)
        if !isStopped { subscribeSource() }
    }

    private func subscribeSource() {
        let inner = InnerObserver(host: self, index: 0)
        attempt = inner
        source.subscribe(inner, on: scheduler)
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        if inner.index == 0 { return sendNext(value) }
        // The notifier says: try again (if the source is not running).
        if attempt == nil { subscribeSource() }
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) {
        guard inner.index == 0 else { return sendError(error) }
        attempt = nil
        errors.send(error.value)
    }

    func innerCompleted(_ inner: InnerObserver) { sendCompleted() }

    override func disposeResources() {
        attempt?.dispose()
        attempt = nil
        trigger?.dispose()
        trigger = nil
    }
}
