extension OperatorSpec {
    static let timeout = method("timeout", aliases: ["timeout(interval:)"], .errors, "fails with \"timeout\" (or switches to other) if no value comes in time",
        [arg("dueTime", .duration).nonNegative(), labelled("resetOnValue", .bool, optional: true), labelled("other", .stream, optional: true)],
        example: #"""
            let source = cold("-a----b|")
            marbles(source, source.timeout(3ms))
            """#,
        differences: "flow's error is \"timeout\"; RxSwift's is RxError.timeout (\"Sequence timeout.\"), RxJS's TimeoutError (\"Timeout has occurred\"), each under its import; Combine's `timeout` just completes (`import Combine`). `resetOnValue: false` makes it one deadline for the whole stream, as CwlSignal's `timeout(interval:resetOnValue:)`.") {
        $0.timeout(try $1.duration(0), resetOnValue: try $1.bool(1, default: true), other: $1.has(2) ? try $1.stream(2) : nil,
                   error: $1.context.dialect.timeoutError)
    }
}

extension Observable {
    /// Fails with error "timeout" (or switches to `other`, when given) if
    /// `dueTime` passes without a value since subscription or, with
    /// `resetOnValue`, since the last value. Without `resetOnValue` there is
    /// one deadline, `dueTime` after subscription. With `error` nil, the
    /// stream completes when the time is up, as Combine's does.
    public func timeout(_ dueTime: TimeSpan, resetOnValue: Bool = true, other: Observable? = nil,
                        error: FlowError? = .timeout) -> Observable {
        SinkNode("timeout", self) { observer, scheduler in
            TimeoutSink(observer, scheduler: scheduler, dueTime: dueTime, resetOnValue: resetOnValue, fallback: other, error: error)
        }
    }
}

final class TimeoutSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let dueTime: TimeSpan
    private let resetOnValue: Bool
    private let fallbackStream: Observable?
    private let timer = SerialDisposable()
    private var fallback: InnerObserver?
    private let expiry: FlowError?

    init(_ downstream: Observer, scheduler: Scheduler, dueTime: TimeSpan, resetOnValue: Bool, fallback: Observable?, error: FlowError?) {
        expiry = error
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
        guard let fallbackStream else {
            guard let expiry else {
                cancelUpstream()
                return sendCompleted()
            }
            return sendError(expiry)
        }
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
