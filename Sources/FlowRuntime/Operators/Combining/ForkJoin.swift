import Collections

extension OperatorSpec {
    static let forkJoin = OperatorSpec("forkJoin", .combining, .function,
        "when every stream has completed, one tuple of their last values (or the closure applied to them); completes without a value if one ends empty (RxJS)", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            .stream(.forkJoin(try $0.streams(0), combine: try $0.combine(1, sources: 0)))
        },
        // RxJS's `forkJoin({ a, b })`: a dictionary of the last values by key.
        Signature([arg("sources", .value)]) { args in
            guard case .dictionary(let named) = args.value(0)! else {
                let v = args.value(0)!
                throw FlowError("forkJoin takes streams, an array of streams or a dictionary of streams, got \(v.typeName) \(v.literal)",
                                at: args.context.location)
            }
            let keys = Array(named.keys)
            let streams = try named.values.map { stream in
                do { return try stream.asStream() } catch {
                    throw FlowError("forkJoin: every value of the dictionary must be a stream, got \(stream.typeName) \(stream.literal)",
                                    at: args.context.location)
                }
            }
            let byKey = Function.variadic(name: "forkJoin") { values in
                var result = OrderedDictionary<Value, Value>()
                for (key, value) in Swift.zip(keys, values) { result[key] = value }
                return .dictionary(result)
            }
            return .stream(.forkJoin(streams, combine: byKey))
        },
    ], example: #"""
            let a = cold("-a--b|")
            let b = cold("--1|")
            marbles(a, b, forkJoin(a, b), forkJoin(["first": a, "second": b]))
            """#,
        differences: "RxJS only. A tuple of the last values (RxJS: an array, under `import RxJS` too); given a dictionary of streams, a dictionary of their last values, as RxJS's `forkJoin({ a, b })`. Combine's nearest is `Publishers.Zip` of `last()`s; RxSwift's is `Observable.zip` of `takeLast(1)`s.")
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
