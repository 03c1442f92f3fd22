extension OperatorSpec {
    static let audit = OperatorSpec("audit", aliases: [Spelling("auditTime", positional: ["duration"])], .filtering, .method,
        "on a value, waits (a duration, or until the stream the closure returns emits), then emits the latest value (RxJS)", [
        Signature([labelled("duration", .duration).nonNegative()]) { args in
            let duration = try args.duration(0)
            return .stream(try args.source().audit(Function.unary(name: "auditTime") { _ in .stream(.timer(duration)) }))
        },
        Signature([arg("durationSelector", .function)]) { .stream(try $0.source().audit($0.function(0))) },
    ], example: #"""
            let source = cold("-a-b----c-d|")
            marbles(source, source.auditTime(3ms))
            """#,
        differences: "RxJS's `audit` and `auditTime`: the latest value at the end of the wait each value starts; RxSwift and Combine have none.")
}

extension Observable {
    /// RxJS's `audit`: a value with no window open opens one, lasting until
    /// the stream `durationSelector` returns for it emits (or completes);
    /// when the window closes, the latest value is emitted. A window still
    /// open at completion closes first, so its value is not lost.
    public func audit(_ durationSelector: Function) -> Observable {
        SinkNode("audit", self) { observer, scheduler in AuditSink(observer, scheduler: scheduler, durationSelector) }
    }
}

final class AuditSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let durationSelector: Function
    private var window: InnerObserver?
    private var latest: Value?
    private var sourceDone = false

    init(_ downstream: Observer, scheduler: Scheduler, _ durationSelector: Function) {
        self.scheduler = scheduler
        self.durationSelector = durationSelector
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        latest = value
        guard window == nil else { return }
        let duration: Observable
        do { duration = try durationSelector.call(value).asStream() } catch { return sendError(FlowError.wrap(error)) }
        let inner = InnerObserver(host: self, index: 1)
        window = inner
        duration.subscribe(inner, on: scheduler)
    }

    override func onCompleted() {
        sourceDone = true
        if window == nil { sendCompleted() }
    }

    private func closeWindow() {
        window?.dispose()
        window = nil
        if let value = latest {
            latest = nil
            sendNext(value)
        }
        if sourceDone { sendCompleted() }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { closeWindow() }
    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) { if window === inner { closeWindow() } }

    override func disposeResources() {
        window?.dispose()
        window = nil
    }
}
