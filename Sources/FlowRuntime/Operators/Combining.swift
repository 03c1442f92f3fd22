import DequeModule

/// Combining several streams: `zip`, `combineLatest`, `withLatestFrom`,
/// `amb`, `startWith`, `endWith` (and `merge`/`concat`, in Flattening).
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
extension Observable {
    /// Tuples of the n-th values of every source (or `combine` applied to
    /// them). Completes as soon as a completed source has nothing buffered.
    public static func zip(_ sources: [Observable], combine: Function? = nil) -> Observable {
        ClosureNode("zip", inputs: sources) { observer, scheduler, inputs in
            ZipSink(observer, scheduler: scheduler, arity: inputs.count, combine: combine).start(inputs)
        }
    }

    /// Once every source has a value, a tuple of the latest values (or
    /// `combine` applied to them) each time any source emits. Completes
    /// when all sources have completed; an error ends it at once.
    public static func combineLatest(_ sources: [Observable], combine: Function? = nil) -> Observable {
        ClosureNode("combineLatest", inputs: sources) { observer, scheduler, inputs in
            CombineLatestSink(observer, scheduler: scheduler, arity: inputs.count, combine: combine).start(inputs)
        }
    }

    /// On each value, a tuple of it and the latest value of each of
    /// `others` (or `combine` applied to them); dropped until every other
    /// stream has a value. Completes with the source; others' errors end it.
    public func withLatestFrom(_ others: [Observable], combine: Function? = nil) -> Observable {
        ClosureNode("withLatestFrom", inputs: [self] + others) { observer, scheduler, inputs in
            WithLatestFromSink(observer, scheduler: scheduler, others: inputs.count - 1, combine: combine)
                .start(source: inputs[0], others: Array(inputs.dropFirst()))
        }
    }

    /// Mirrors whichever source sends the first event, cancelling the others.
    public static func amb(_ sources: [Observable]) -> Observable {
        ClosureNode("amb", inputs: sources) { observer, scheduler, inputs in
            AmbSink(observer, scheduler: scheduler).start(inputs)
        }
    }

    /// `values` first, then the source.
    public func startWith(_ values: [Value]) -> Observable {
        let node = Observable.concat([.from(values, name: "of"), self])
        return ClosureNode("startWith", inputs: [node]) { o, s, inputs in inputs[0].subscribe(o, on: s) }
    }

    /// The source, then `values` once it completes.
    public func endWith(_ values: [Value]) -> Observable {
        let node = Observable.concat([self, .from(values, name: "of")])
        return ClosureNode("endWith", inputs: [node]) { o, s, inputs in inputs[0].subscribe(o, on: s) }
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

    override func disposeResources() {
        let all = inners
        inners = []
        for inner in all { inner.dispose() }
    }
}

final class ZipSink: CombiningSink {
    @exclusivity(unchecked) private var buffers: [Deque<Value>]
    private var completed: [Bool]

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?) {
        buffers = Array(repeating: [], count: arity)
        completed = Array(repeating: false, count: arity)
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        buffers[inner.index].append(value)
        if buffers.allSatisfy({ !$0.isEmpty }) {
            let row = buffers.indices.map { buffers[$0].removeFirst() }
            emit(row)
        }
        completeIfExhausted()
    }

    override func innerCompleted(_ inner: InnerObserver) {
        completed[inner.index] = true
        completeIfExhausted()
    }

    private func completeIfExhausted() {
        for i in buffers.indices where completed[i] && buffers[i].isEmpty {
            return sendCompleted()
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

final class AmbSink: CombiningSink {
    private var winner: Int?

    init(_ downstream: Observer, scheduler: Scheduler) {
        super.init(downstream, scheduler: scheduler, combine: nil)
    }

    /// The first input to speak wins; the rest are cancelled.
    private func claim(_ inner: InnerObserver) -> Bool {
        if let winner { return winner == inner.index }
        winner = inner.index
        for other in inners where other !== inner { other.dispose() }
        return true
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        if claim(inner) { sendNext(value) }
    }

    override func innerError(_ inner: InnerObserver, _ error: FlowError) {
        if claim(inner) { sendError(error) }
    }

    override func innerCompleted(_ inner: InnerObserver) {
        if claim(inner) { sendCompleted() }
    }
}
