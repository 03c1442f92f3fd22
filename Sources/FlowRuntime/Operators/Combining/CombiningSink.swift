/// A node that combines its sources through a `CombiningSink`. The sink
/// locates the errors it raises (see `Sink.origin`), so no wrapper stands
/// between it and downstream on every event.
final class CombiningNode: Observable {
    private let makeSink: (Observer, Scheduler, Int) -> CombiningSink

    init(_ name: String, _ sources: [Observable], makeSink: @escaping (_ downstream: Observer, Scheduler, _ arity: Int) -> CombiningSink) {
        self.makeSink = makeSink
        super.init(operatorName: name, inputs: sources)
    }

    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let sink = makeSink(observer, scheduler, inputs.count)
        sink.origin = origin
        sink.start(inputs)
    }
}

/// Shared part of sinks that subscribe every source and combine them.
class CombiningSink: Sink, InnerHost {
    final let scheduler: Scheduler
    final var inners: [InnerObserver] = []
    final let combine: Function?

    init(_ downstream: Observer, scheduler: Scheduler, combine: Function?) {
        self.scheduler = scheduler
        self.combine = combine
        super.init(downstream)
    }

    func start(_ sources: [Observable]) {
        announce()
        inners = sources.indices.map { InnerObserver(host: self, index: $0) }
        if sources.isEmpty { return sendCompleted() }
        for (source, inner) in zip(sources, inners) where !isStopped {
            source.subscribe(inner, on: scheduler)
        }
    }

    final func emit(_ values: [Value]) {
        guard let combine else { return sendNext(.tuple(values)) }
        do {
            sendNext(values.count == 2 ? try combine.call(values[0], values[1]) : try combine.call(values))
        } catch {
            sendError(FlowError.wrap(error))
        }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {}
    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    /// Demand reaches every source: a consumer that has enough stops them
    /// all (two files combined into a database sink), and what each keeps
    /// is its own latest value or, for `zip`, its bounded buffer.
    override func demand(_ wantsMore: Bool) {
        for inner in inners { inner.demand(wantsMore) }
    }

    override func disposeResources() {
        let all = inners
        inners = []
        for inner in all { inner.dispose() }
    }
}

/// What a combining operator emits when no closure is given: flow's and
/// Combine's tuple, or the array RxJS emits (and RxSwift's forms that take
/// a collection of sources).
public enum CombinedShape: Sendable {
    case tuple, array

    /// The shape for a call in `dialect`; `givenAsArray` says whether the
    /// sources came as one array (`combineLatest([a, b])`).
    static func of(_ dialect: Dialect, givenAsArray: Bool) -> CombinedShape {
        switch dialect {
        case .rxJS: .array
        case .rxSwift where givenAsArray: .array
        default: .tuple
        }
    }

    /// The closure that makes this shape, where it is not the default tuple.
    var combine: Function? {
        switch self {
        case .tuple: nil
        case .array: ClosureFunction(name: "array", parameterCount: nil, unary: { .array([$0]) },
                                     binary: { .array([$0, $1]) }, variadic: { .array($0) })
        }
    }
}

extension Arguments {
    /// The closure combining values for parameter `i`, or the dialect's
    /// shape for the sources of parameter `sources` when none is given.
    func combine(_ i: Int, sources: Int) throws -> Function? {
        if let given = try optionalFunction(i) { return given }
        return CombinedShape.of(context.dialect, givenAsArray: all(sources).contains(where: \.isArray)).combine
    }

    /// The same for a stream of streams (`combineLatestAll`, `zipAll`):
    /// arrays in RxJS, whose forms these are; RxSwift has none.
    func combineOfInnerStreams(_ i: Int) throws -> Function? {
        try optionalFunction(i) ?? (context.dialect == .rxJS ? CombinedShape.array.combine : nil)
    }
}
