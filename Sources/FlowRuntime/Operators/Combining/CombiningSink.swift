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

    override func disposeResources() {
        let all = inners
        inners = []
        for inner in all { inner.dispose() }
    }
}
