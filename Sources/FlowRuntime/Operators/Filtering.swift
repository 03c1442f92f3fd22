import DequeModule

/// Filtering: operators that pass on some values and drop the rest.
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
extension Observable {
    /// Values for which `predicate` returns true.
    public func filter(_ predicate: Function) -> Observable {
        PipelineNode(.filter(predicate), self)
    }

    /// The first `count` values, then completion (the source is cancelled).
    /// `take(0)` completes at once without subscribing to the source.
    public func take(_ count: Int) -> Observable {
        guard count > 0 else { return ClosureNode("take") { o, s, _ in Observable.empty().subscribe(o, on: s) } }
        return PipelineNode(.take(count), self)
    }

    /// All but the first `count` values.
    public func skip(_ count: Int) -> Observable {
        PipelineNode(.skip(count), self)
    }

    /// Values while `predicate` holds; the first that fails completes the
    /// stream (and is emitted first when `inclusive`).
    public func takeWhile(_ predicate: Function, inclusive: Bool = false) -> Observable {
        PipelineNode(.takeWhile(predicate, inclusive: inclusive), self)
    }

    /// Drops values while `predicate` holds, then passes everything.
    public func skipWhile(_ predicate: Function) -> Observable {
        PipelineNode(.skipWhile(predicate), self)
    }

    /// Drops a value equal to the one before it (compared by `key` when given).
    public func distinctUntilChanged(key: Function? = nil) -> Observable {
        PipelineNode(.distinctUntilChanged(key: key), self)
    }

    /// Drops every value; passes completion or error.
    public func ignoreElements() -> Observable {
        PipelineNode(.ignoreElements, self)
    }

    /// Values never seen before in this subscription (compared by `key` when given).
    public func distinct(key: Function? = nil) -> Observable {
        SinkNode("distinct", self) { observer, _ in DistinctSink(observer, key: key) }
    }

    /// The last `count` values, emitted when the source completes.
    public func takeLast(_ count: Int) -> Observable {
        SinkNode("takeLast", self) { observer, _ in TakeLastSink(observer, count: Swift.max(0, count)) }
    }

    /// Values until `other` emits a value, then completion. `other`
    /// completing changes nothing; its error is the stream's error.
    public func takeUntil(_ other: Observable) -> Observable {
        ClosureNode("takeUntil", inputs: [self, other]) { observer, scheduler, inputs in
            GateSink(observer, scheduler: scheduler, mode: .takeUntil).start(source: inputs[0], gate: inputs[1])
        }
    }

    /// Drops values until `other` emits a value, then passes the rest. If
    /// `other` completes without a value, nothing passes.
    public func skipUntil(_ other: Observable) -> Observable {
        ClosureNode("skipUntil", inputs: [self, other]) { observer, scheduler, inputs in
            GateSink(observer, scheduler: scheduler, mode: .skipUntil).start(source: inputs[0], gate: inputs[1])
        }
    }

    /// The value at `index`, then completion; error "no elements" if the
    /// source completes first.
    public func elementAt(_ index: Int) -> Observable {
        SinkNode("elementAt", self) { observer, _ in
            ElementSink(observer, mode: .at(Swift.max(0, index)), predicate: nil)
        }
    }

    /// The first value (matching `predicate`, when given), then completion;
    /// error "no elements" if there is none.
    public func first(_ predicate: Function? = nil) -> Observable {
        SinkNode("first", self) { observer, _ in ElementSink(observer, mode: .first, predicate: predicate) }
    }

    /// The last value (matching `predicate`), at completion; error "no elements" if none.
    public func last(_ predicate: Function? = nil) -> Observable {
        SinkNode("last", self) { observer, _ in ElementSink(observer, mode: .last, predicate: predicate) }
    }

    /// The only value (matching `predicate`), at completion. Error "no
    /// elements" if none, "more than one element" as soon as a second arrives.
    public func single(_ predicate: Function? = nil) -> Observable {
        SinkNode("single", self) { observer, _ in ElementSink(observer, mode: .single, predicate: predicate) }
    }
}

final class DistinctSink: Sink {
    private let key: Function?
    private var seen = Set<Value>()

    init(_ downstream: Observer, key: Function?) {
        self.key = key
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            if seen.insert(try key?.call(value) ?? value).inserted { sendNext(value) }
        } catch {
            sendError(FlowError.wrap(error))
        }
    }

    override func disposeResources() { seen = [] }
}

final class TakeLastSink: Sink {
    private let count: Int
    private var buffer = Deque<Value>()

    init(_ downstream: Observer, count: Int) {
        self.count = count
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        guard count > 0 else { return }
        buffer.append(value)
        if buffer.count > count { buffer.removeFirst() }
    }

    override func onCompleted() {
        for value in buffer where !isStopped { sendNext(value) }
        sendCompleted()
    }

    override func disposeResources() { buffer = [] }
}

/// takeUntil and skipUntil: a source whose values are let through or not
/// depending on a second stream, the gate.
final class GateSink: Sink, InnerHost {
    enum Mode { case takeUntil, skipUntil }
    private let mode: Mode
    private let scheduler: Scheduler
    private var gate: InnerObserver?
    private var isOpen = false

    init(_ downstream: Observer, scheduler: Scheduler, mode: Mode) {
        self.mode = mode
        self.scheduler = scheduler
        super.init(downstream)
    }

    func start(source: Observable, gate gateStream: Observable) {
        announce()
        let inner = InnerObserver(host: self, index: 1)
        gate = inner
        gateStream.subscribe(inner, on: scheduler)
        if !isStopped { source.subscribe(self, on: scheduler) }
    }

    override func onNext(_ value: Value) {
        switch mode {
        case .takeUntil: sendNext(value)
        case .skipUntil: if isOpen { sendNext(value) }
        }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        switch mode {
        case .takeUntil:
            sendCompleted()
        case .skipUntil:
            isOpen = true
            inner.dispose()
        }
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        gate?.dispose()
        gate = nil
    }
}

final class ElementSink: Sink {
    enum Mode { case first, last, single, at(Int) }
    private let mode: Mode
    private let predicate: Function?
    @exclusivity(unchecked) private var found: Value?
    @exclusivity(unchecked) private var index = 0

    init(_ downstream: Observer, mode: Mode, predicate: Function?) {
        self.mode = mode
        self.predicate = predicate
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            if let predicate, try !predicate.test(value) { return }
        } catch {
            return sendError(FlowError.wrap(error))
        }
        switch mode {
        case .first:
            sendNext(value)
            sendCompleted()
        case .at(let target):
            if index == target {
                sendNext(value)
                sendCompleted()
            }
            index += 1
        case .last:
            found = value
        case .single:
            if found != nil { return sendError(.moreThanOneElement) }
            found = value
        }
    }

    override func onCompleted() {
        guard let found else { return sendError(.noElements) }
        sendNext(found)
        sendCompleted()
    }
}
