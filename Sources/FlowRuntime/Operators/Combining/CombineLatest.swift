extension OperatorSpec {
    static let combineLatest = OperatorSpec("combineLatest", aliases: [
        "combineLatestWith", "CombineLatest", "CombineLatest3", "CombineLatest4", "combineLatestAll", "combineLatest(second:)",
    ], .combining, .both,
        "the latest value of each stream, whenever any emits; on a stream of streams, combines its inner streams once it completes", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) { args in
            let completion = CombineLatestCompletion(args.context.dialect)
            if args.receiver != nil, try args.streams(0).isEmpty {
                return .stream(try args.source().combiningInnerStreams(name: "combineLatestAll", combine: args.combineOfInnerStreams(1)) {
                    .combineLatest($0, combine: $1, completion: completion)
                })
            }
            return .stream(.combineLatest(try args.allSources(0), combine: try args.combine(1, sources: 0), completion: completion))
        },
    ], example: #"""
            let a = cold("-a---b|")
            let b = cold("--1-2---|")
            let empty = cold("--|")
            marbles(a, b, combineLatest(a, b) { "\($0)\($1)" }, combineLatest([a, b]), combineLatest(empty, b))
            """#,
        differences: "Without a closure, flow emits a tuple, as Combine does (`$0`, `$1` in the next closure) and RxSwift does for sources listed one by one; RxJS emits an array, and so does RxSwift for an array of sources (`import RxJS`, `import RxSwift`). A source that completes without a value completes flow's result at once, since no combination can be made; RxJS and Combine wait until every source has completed, RxSwift until the others have completed and the last one emits or completes; CwlSignal's ends when any source ends, even one with a value. RxJS's `combineLatestAll` is `combineLatest()` on a stream of streams.")
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
    public static func combineLatest(
        _ sources: [Observable], combine: Function? = nil, completion: CombineLatestCompletion = .whenNoneCanCombine
    ) -> Observable {
        CombiningNode("combineLatest", sources) { observer, scheduler, arity in
            CombineLatestSink(observer, scheduler: scheduler, arity: arity, combine: combine, completion: completion)
        }
    }
}

/// When the result completes, where a source completes without a value.
public enum CombineLatestCompletion: Sendable {
    /// flow: at once, since no combination can ever be made.
    case whenNoneCanCombine
    /// RxJS and Combine: only when every source has completed.
    case whenAllComplete
    /// RxSwift: when every source has completed, or when a value
    /// arrives that cannot combine while all the others have completed.
    case whenAllOthersCompleted
    /// CwlSignal: when any source completes.
    case whenAnyCompletes

    init(_ dialect: Dialect) {
        switch dialect {
        case .flow: self = .whenNoneCanCombine
        case .rxJS, .combine: self = .whenAllComplete
        case .rxSwift: self = .whenAllOthersCompleted
        case .cwlSignal: self = .whenAnyCompletes
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
    private let completion: CombineLatestCompletion

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?, completion: CombineLatestCompletion) {
        latest = Array(repeating: .null, count: arity)
        hasValue = Array(repeating: false, count: arity)
        missing = arity
        remaining = arity
        self.completion = completion
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        let i = inner.index
        if !hasValue[i] {
            hasValue[i] = true
            missing -= 1
        }
        latest[i] = value
        guard missing == 0 else {
            // Only this source is still running, and another never had a value.
            if completion == .whenAllOthersCompleted, remaining == 1 { sendCompleted() }
            return
        }
        // Two sources and a closure, the common case, need no array per event.
        if let combine, latest.count == 2 {
            do { sendNext(try combine.call(latest[0], latest[1])) } catch { sendError(FlowError.wrap(error)) }
            return
        }
        emit(latest)
    }

    override func innerCompleted(_ inner: InnerObserver) {
        remaining -= 1
        if remaining == 0 || completion == .whenAnyCompletes || completion == .whenNoneCanCombine && !hasValue[inner.index] {
            sendCompleted()
        }
    }
}
