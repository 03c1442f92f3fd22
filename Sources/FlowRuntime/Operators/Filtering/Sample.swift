extension OperatorSpec {
    static let sample = method("sample", .filtering, "the latest value each time a trigger stream emits", [arg("trigger", .stream)],
        example: #"""
            let source = cold("-a-b---c-|")
            let trigger = cold("--x---x-x-x|")
            marbles(source, trigger, source.sample(trigger))
            """#,
        differences: "A value is sampled at most once in all three. RxJS's `sampleTime(d)` is `sample(interval(d))`.") {
        $0.sample(try $1.stream(0))
    }
}

extension Observable {
    /// On each value of `trigger`, emits the latest source value if a new
    /// one arrived since the last sample. Completes when the source completes.
    public func sample(_ trigger: Observable) -> Observable {
        ClosureNode("sample", inputs: [self, trigger]) { observer, scheduler, inputs in
            SampleSink(observer, scheduler: scheduler).start(source: inputs[0], trigger: inputs[1])
        }
    }
}

final class SampleSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private var trigger: InnerObserver?
    private var latest: Value?

    init(_ downstream: Observer, scheduler: Scheduler) {
        self.scheduler = scheduler
        super.init(downstream)
    }

    func start(source: Observable, trigger triggerStream: Observable) {
        announce()
        source.subscribe(self, on: scheduler)
        guard !isStopped else { return }
        let inner = InnerObserver(host: self, index: 1)
        trigger = inner
        triggerStream.subscribe(inner, on: scheduler)
    }

    override func onNext(_ value: Value) { latest = value }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        guard let value = latest else { return }
        latest = nil
        sendNext(value)
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        trigger?.dispose()
        trigger = nil
    }
}
