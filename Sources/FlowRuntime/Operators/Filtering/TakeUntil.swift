extension OperatorSpec {
    static let takeUntil = method("takeUntil", aliases: ["take(until:)", "prefix(untilOutputFrom:)"], .filtering, "values until another stream emits, then completion",
        [arg("other", .stream)],
        example: #"""
            let source = cold("-a-b-c-d|")
            let stop = cold("----x")
            marbles(source, stop, source.takeUntil(stop))
            """#,
        differences: "RxSwift `take(until:)`, Combine `prefix(untilOutputFrom:)`, RxJS `takeUntil(notifier)`; in RxSwift and RxJS only a value of the other stream ends the source, not its completion.") { $0.takeUntil(try $1.stream(0)) }
}

extension Observable {
    /// Values until `other` emits a value, then completion. `other`
    /// completing changes nothing; its error is the stream's error.
    public func takeUntil(_ other: Observable) -> Observable {
        ClosureNode("takeUntil", inputs: [self, other]) { observer, scheduler, inputs in
            GateSink(observer, scheduler: scheduler, mode: .takeUntil).start(source: inputs[0], gate: inputs[1])
        }
    }
}

/// takeUntil and skipUntil: a source whose values are let through or not
/// depending on a second stream, the gate.
final class GateSink: Sink, InnerHost {
    enum Mode { case takeUntil, skipUntil }
    private let mode: Mode
    private let scheduler: Scheduler
    private var gate: InnerObserver?
    private var isOpen = false

    init(_ downstream: Observer, scheduler: Scheduler, mode: Mode) {
        self.mode = mode
        self.scheduler = scheduler
        super.init(downstream)
    }

    func start(source: Observable, gate gateStream: Observable) {
        announce()
        let inner = InnerObserver(host: self, index: 1)
        gate = inner
        gateStream.subscribe(inner, on: scheduler)
        if !isStopped { source.subscribe(self, on: scheduler) }
    }

    override func onNext(_ value: Value) {
        switch mode {
        case .takeUntil: sendNext(value)
        case .skipUntil: if isOpen { sendNext(value) }
        }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        switch mode {
        case .takeUntil:
            sendCompleted()
        case .skipUntil:
            isOpen = true
            inner.dispose()
        }
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        gate?.dispose()
        gate = nil
    }
}
