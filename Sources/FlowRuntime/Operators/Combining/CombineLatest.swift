extension OperatorSpec {
    static let combineLatest = OperatorSpec("combineLatest", .combining, .both, "the latest value of each stream, whenever any emits", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            .stream(.combineLatest(try $0.allSources(0), combine: try $0.optionalFunction(1)))
        },
    ], example: #"""
            let a = cold("-a---b|")
            let b = cold("--1-2---|")
            marbles(a, b, combineLatest(a, b) { "\($0)\($1)" })
            """#)
}

extension Observable {
    /// Once every source has a value, a tuple of the latest values (or
    /// `combine` applied to them) each time any source emits. Completes
    /// when all sources have completed; an error ends it at once.
    public static func combineLatest(_ sources: [Observable], combine: Function? = nil) -> Observable {
        ClosureNode("combineLatest", inputs: sources) { observer, scheduler, inputs in
            CombineLatestSink(observer, scheduler: scheduler, arity: inputs.count, combine: combine).start(inputs)
        }
    }
}

final class CombineLatestSink: CombiningSink {
    @exclusivity(unchecked) private var latest: [Value?]
    @exclusivity(unchecked) private var missing: Int
    private var remaining: Int

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?) {
        latest = Array(repeating: nil, count: arity)
        missing = arity
        remaining = arity
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        if latest[inner.index] == nil { missing -= 1 }
        latest[inner.index] = value
        if missing == 0 { emit(latest.map { $0! }) }
    }

    override func innerCompleted(_ inner: InnerObserver) {
        remaining -= 1
        if remaining == 0 { sendCompleted() }
    }
}
