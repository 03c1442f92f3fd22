extension OperatorSpec {
    static let forkJoin = OperatorSpec("forkJoin", .combining, .function,
        "when every stream has completed, one tuple of their last values (or the closure applied to them); completes without a value if one ends empty (RxJS)", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            .stream(.forkJoin(try $0.streams(0), combine: try $0.optionalFunction(1)))
        },
    ], example: #"""
            let a = cold("-a--b|")
            let b = cold("--1|")
            marbles(a, b, forkJoin(a, b))
            """#,
        differences: "RxJS only. A tuple of the last values (RxJS: an array). Combine's nearest is `Publishers.Zip` of `last()`s; RxSwift's is `Observable.zip` of `takeLast(1)`s.")
}

extension Observable {
    /// RxJS's `forkJoin`: waits for every source to complete, then emits a
    /// tuple of their last values and completes. A source that completes
    /// without a value completes the result at once, with no value.
    public static func forkJoin(_ sources: [Observable], combine: Function? = nil) -> Observable {
        CombiningNode("forkJoin", sources) { observer, scheduler, arity in
            ForkJoinSink(observer, scheduler: scheduler, arity: arity, combine: combine)
        }
    }
}

final class ForkJoinSink: CombiningSink {
    private var last: [Value?]
    private var remaining: Int

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?) {
        last = Array(repeating: nil, count: arity)
        remaining = arity
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) { last[inner.index] = value }

    override func innerCompleted(_ inner: InnerObserver) {
        guard last[inner.index] != nil else { return sendCompleted() }
        remaining -= 1
        guard remaining == 0 else { return }
        emit(last.map { $0! })
        sendCompleted()
    }
}
