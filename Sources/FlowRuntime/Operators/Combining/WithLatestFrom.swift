extension OperatorSpec {
    static let withLatestFrom = method("withLatestFrom", .combining, "each value with the latest values of other streams",
        [variadic("others", .stream), optionalArg("combine", .function)],
        example: #"""
            let source = cold("-a--b--c|")
            let other = cold("--1----2|")
            marbles(source, other, source.withLatestFrom(other) { "\($0)\($1)" })
            """#,
        differences: "Without a closure, flow emits a tuple of the value and the latest others; RxJS emits them as an array, and RxSwift's and CwlSignal's `withLatestFrom(other)` emit only the other's value (`import RxJS`, `import RxSwift`, or in any dialect `withLatestFrom(other) { $1 }`). CwlSignal's also ends when the other stream ends. Combine has no such operator.") {
        $0.withLatestFrom(try $1.streams(0), combine: try $1.optionalFunction(1) ?? .withLatestFromResult(in: $1.context.dialect),
                          endsWithOthers: $1.context.dialect == .cwlSignal)
    }
}

extension Observable {
    /// On each value, a tuple of it and the latest value of each of
    /// `others` (or `combine` applied to them); dropped until every other
    /// stream has a value. Completes with the source; others' errors end it.
    /// With `endsWithOthers` (CwlSignal's), an other stream's completion ends it too.
    public func withLatestFrom(_ others: [Observable], combine: Function? = nil, endsWithOthers: Bool = false) -> Observable {
        ClosureNode("withLatestFrom", inputs: [self] + others) { observer, scheduler, inputs in
            WithLatestFromSink(observer, scheduler: scheduler, others: inputs.count - 1, combine: combine, endsWithOthers: endsWithOthers)
                .start(source: inputs[0], others: Array(inputs.dropFirst()))
        }
    }
}

final class WithLatestFromSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let combine: Function?
    private var others: [InnerObserver] = []
    private var latest: [Value?]
    private let endsWithOthers: Bool

    init(_ downstream: Observer, scheduler: Scheduler, others count: Int, combine: Function?, endsWithOthers: Bool) {
        self.scheduler = scheduler
        self.combine = combine
        self.endsWithOthers = endsWithOthers
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
    func innerCompleted(_ inner: InnerObserver) {
        if endsWithOthers { sendCompleted() }
    }

    override func disposeResources() {
        let all = others
        others = []
        for inner in all { inner.dispose() }
    }
}

extension Function {
    /// What `withLatestFrom` emits without a closure where the dialect
    /// does not take flow's tuple: RxSwift's and CwlSignal's latest value of
    /// the other stream alone, RxJS's array.
    static func withLatestFromResult(in dialect: Dialect) -> Function? {
        switch dialect {
        case .rxSwift, .cwlSignal: ClosureFunction(name: "withLatestFrom", parameterCount: nil, unary: { $0 }, binary: { $1 },
                                       variadic: { $0.last ?? .null })
        case .rxJS: CombinedShape.array.combine
        default: nil
        }
    }
}
