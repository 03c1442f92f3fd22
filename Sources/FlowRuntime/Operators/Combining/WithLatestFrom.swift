extension OperatorSpec {
    static let withLatestFrom = method("withLatestFrom", .combining, "each value with the latest values of other streams",
        [variadic("others", .stream), optionalArg("combine", .function)],
        example: #"""
            let source = cold("-a--b--c|")
            let other = cold("--1----2|")
            marbles(source, other, source.withLatestFrom(other) { "\($0)\($1)" })
            """#,
        differences: "Without a closure, flow emits a tuple of the value and the latest others, as RxJS does with an array; RxSwift's `withLatestFrom(other)` emits only the other's value: write `withLatestFrom(other) { $1 }` for that.") {
        $0.withLatestFrom(try $1.streams(0), combine: try $1.optionalFunction(1))
    }
}

extension Observable {
    /// On each value, a tuple of it and the latest value of each of
    /// `others` (or `combine` applied to them); dropped until every other
    /// stream has a value. Completes with the source; others' errors end it.
    public func withLatestFrom(_ others: [Observable], combine: Function? = nil) -> Observable {
        ClosureNode("withLatestFrom", inputs: [self] + others) { observer, scheduler, inputs in
            WithLatestFromSink(observer, scheduler: scheduler, others: inputs.count - 1, combine: combine)
                .start(source: inputs[0], others: Array(inputs.dropFirst()))
        }
    }
}

final class WithLatestFromSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let combine: Function?
    private var others: [InnerObserver] = []
    private var latest: [Value?]

    init(_ downstream: Observer, scheduler: Scheduler, others count: Int, combine: Function?) {
        self.scheduler = scheduler
        self.combine = combine
        latest = Array(repeating: nil, count: count)
        super.init(downstream)
    }

    func start(source: Observable, others streams: [Observable]) {
        announce()
        others = streams.indices.map { InnerObserver(host: self, index: $0) }
        for (stream, inner) in zip(streams, others) where !isStopped {
            stream.subscribe(inner, on: scheduler)
        }
        if !isStopped { source.subscribe(self, on: scheduler) }
    }

    override func onNext(_ value: Value) {
        var row = [value]
        for v in latest {
            guard let v else { return }
            row.append(v)
        }
        guard let combine else { return sendNext(.tuple(row)) }
        do { sendNext(try combine.call(row)) } catch { sendError(FlowError.wrap(error)) }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { latest[inner.index] = value }
    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        let all = others
        others = []
        for inner in all { inner.dispose() }
    }
}
