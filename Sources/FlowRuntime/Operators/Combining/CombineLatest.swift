extension OperatorSpec {
    static let combineLatest = OperatorSpec("combineLatest", aliases: [
        "combineLatestWith", "CombineLatest", "CombineLatest3", "CombineLatest4", "combineLatestAll", "combineLatest(second:)",
    ], .combining, .both,
        "the latest value of each stream, whenever any emits; on a stream of streams, combines its inner streams once it completes", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) { args in
            if args.receiver != nil, try args.streams(0).isEmpty {
                return .stream(try args.source().combiningInnerStreams(name: "combineLatestAll", combine: args.optionalFunction(1)) {
                    .combineLatest($0, combine: $1)
                })
            }
            return .stream(.combineLatest(try args.allSources(0), combine: try args.optionalFunction(1)))
        },
    ], example: #"""
            let a = cold("-a---b|")
            let b = cold("--1-2---|")
            marbles(a, b, combineLatest(a, b) { "\($0)\($1)" })
            """#,
        differences: "Without a closure, flow emits a tuple, as Combine does (`$0`, `$1` in the next closure); RxJS emits an array and RxSwift needs a result selector. A source that completes without a value completes the result at once in all three. RxJS's `combineLatestAll` is `combineLatest()` on a stream of streams.")
}

extension Observable {
    /// RxJS's `combineLatestAll`, `zipAll`: collects the inner streams of a
    /// stream of streams until it completes, then combines them.
    func combiningInnerStreams(
        name: String, combine: Function?, _ make: @escaping ([Observable], Function?) -> Observable
    ) -> Observable {
        toArray().flatMap(Function.unary(name: name) { collected in
            .stream(make(try collected.asArray().map { try $0.asStream() }, combine))
        })
    }

    /// Once every source has a value, a tuple of the latest values (or
    /// `combine` applied to them) each time any source emits. Completes
    /// when all sources have completed; an error ends it at once.
    public static func combineLatest(_ sources: [Observable], combine: Function? = nil) -> Observable {
        CombiningNode("combineLatest", sources) { observer, scheduler, arity in
            CombineLatestSink(observer, scheduler: scheduler, arity: arity, combine: combine)
        }
    }
}

final class CombineLatestSink: CombiningSink {
    /// Each source's latest value, and whether it has one yet: two arrays
    /// rather than optionals, which cost a copy of the value per test.
    @exclusivity(unchecked) private var latest: [Value]
    @exclusivity(unchecked) private var hasValue: [Bool]
    @exclusivity(unchecked) private var missing: Int
    private var remaining: Int

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?) {
        latest = Array(repeating: .null, count: arity)
        hasValue = Array(repeating: false, count: arity)
        missing = arity
        remaining = arity
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        let i = inner.index
        if !hasValue[i] {
            hasValue[i] = true
            missing -= 1
        }
        latest[i] = value
        guard missing == 0 else { return }
        // Two sources and a closure, the common case, need no array per event.
        if let combine, latest.count == 2 {
            do { sendNext(try combine.call(latest[0], latest[1])) } catch { sendError(FlowError.wrap(error)) }
            return
        }
        emit(latest)
    }

    override func innerCompleted(_ inner: InnerObserver) {
        remaining -= 1
        // A source that ends without a value means no combination can
        // ever be made (as in RxSwift and RxJS).
        if remaining == 0 || !hasValue[inner.index] { sendCompleted() }
    }
}
