import DequeModule

extension Observable {
    func flatten(name: String, strategy: FlattenStrategy, transform: Function?) -> Observable {
        SinkNode(name, self) { observer, scheduler in
            FlattenSink(observer, scheduler: scheduler, strategy: strategy, transform: transform, name: name)
        }
    }
}

/// Higher-order streams: flattening a stream of streams, and the static
/// `merge(a, b)` / `concat(a, b)` built on the same engine.
///
/// One sink serves every strategy. Subscribing queued inner streams is
/// trampolined: an inner that completes while it is being subscribed (a
/// `just`) does not subscribe the next one from inside that call, so a
/// `concat` of 100 000 streams uses constant stack.
///
/// For every strategy: an error from the outer stream or any inner stream
/// ends the result at once and cancels everything; the result completes
/// when the outer stream and every inner stream (running or queued) have
/// completed; disposing it cancels the outer and all inner subscriptions
/// and drops the queue.
///
/// Demand (Core/Demand.swift): the consumer's demand reaches the running
/// inners; the outer stream is asked to stop while `queueBound` inners
/// wait (`concatMap` behind a slow request) or the consumer has enough,
/// and to read on when the queue is down to half of that; on the live
/// clock, a bounded merge starts no queued inner while the consumer has
/// enough.
enum FlattenStrategy {
    /// Up to `maxConcurrent` inners at once (nil: no limit); the rest queue in order.
    case merge(maxConcurrent: Int?)
    /// A new inner cancels the current one (switchLatest, flatMapLatest).
    case latest
    /// New inners are ignored while one is running (flatMapFirst).
    case first
}

/// `merge(a, b, ...)` and `concat(a, b, ...)`.
final class StaticFlattenNode: Observable {
    private let strategy: FlattenStrategy

    init(_ name: String, _ sources: [Observable], strategy: FlattenStrategy) {
        self.strategy = strategy
        super.init(operatorName: name, inputs: sources)
    }

    /// The sources in order, with nested nodes of the same operator (and no
    /// concurrency limit of their own) expanded in place, without recursion.
    private func flattenedSources() -> [Observable] {
        var result: [Observable] = []
        var stack: [Observable] = inputs.reversed()
        while let node = stack.popLast() {
            if let nested = node as? StaticFlattenNode, nested.canInline(into: self) {
                stack.append(contentsOf: nested.inputs.reversed())
            } else {
                result.append(node)
            }
        }
        return result
    }

    private func canInline(into outer: StaticFlattenNode) -> Bool {
        switch (strategy, outer.strategy) {
        case (.merge(maxConcurrent: 1), .merge(maxConcurrent: 1)): return true
        case (.merge(maxConcurrent: nil), .merge(maxConcurrent: nil)): return true
        default: return false
        }
    }

    /// Its sink locates the errors it raises (see `Sink.origin`).
    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let sink = FlattenSink(observer, scheduler: scheduler, strategy: strategy, transform: nil, name: operatorName)
        sink.origin = origin
        sink.run(sources: flattenedSources())
    }
}

final class FlattenSink: Sink, InnerHost, ValueHolder {
    private let scheduler: Scheduler
    private let name: String
    private let strategy: FlattenStrategy
    private let transform: Function?
    /// Whether the run is traced, asked once: a traced run subscribes every
    /// inner stream, so the trace shows its lane.
    private let traced: Bool
    @exclusivity(unchecked) private var active = InnerSet()
    @exclusivity(unchecked) private var queue = Deque<Observable>()
    @exclusivity(unchecked) private var outerDone = false
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var drainAgain = false
    @exclusivity(unchecked) private var innerCount = 0
    /// Demand: whether the consumer wants more, and whether the outer
    /// stream was asked to stop.
    @exclusivity(unchecked) private var consumerWantsMore = true
    @exclusivity(unchecked) private var outerPaused = false
    @exclusivity(unchecked) private var isRegisteredHolder = false
    /// The drain that starts the inners held back while the consumer had
    /// enough, once it wants more.
    @exclusivity(unchecked) private var heldBack: Disposable?
    /// Whether queued inners wait while the consumer has enough: a bounded
    /// merge on the live clock. In virtual time nothing reads, so nothing
    /// is held back and marbles keep their frames.
    private let holdsInnersBack: Bool

    /// The most inners queued before the outer stream is asked to stop.
    static var queueBound: Int { 256 }

    init(_ downstream: Observer, scheduler: Scheduler, strategy: FlattenStrategy, transform: Function?, name: String) {
        self.scheduler = scheduler
        self.name = name
        self.strategy = strategy
        self.transform = transform
        self.traced = scheduler.tracer != nil
        if case .merge(_?) = strategy { holdsInnersBack = !scheduler.isVirtual } else { holdsInnersBack = false }
        super.init(downstream)
    }

    /// Static form: the sources are known, there is no outer stream.
    func run(sources: [Observable]) {
        announce()
        queue.append(contentsOf: sources)
        outerDone = true
        drain()
    }

    override func onNext(_ value: Value) {
        let inner: Observable
        if transform == nil, case .stream(let stream) = value {
            inner = stream
        } else {
            do {
                inner = try (transform.map { try $0.call(value) } ?? value).asStream()
            } catch {
                return sendError(FlowError.wrap(error).located(at: nil))
            }
        }
        if !traced, let scalar = inner as? JustNode {
            return deliverInPlace(scalar)
        }
        switch strategy {
        case .merge:
            // A traced run remembers the value a queued inner was made for,
            // to label its lane when it starts (`concatMap`'s, later).
            if traced { scheduler.tracer?.noteMadeForValueBeingDelivered(inner) }
            queue.append(inner)
            if queue.count >= Self.queueBound { queueGrew() }
            drain()
        case .latest:
            active.disposeAll()
            subscribeInner(inner)
        case .first:
            if active.isEmpty { subscribeInner(inner) }
        }
    }

    /// A `just` inner, delivered without subscribing it (the scalar fast
    /// path RxJava's flatMap has too): subscribing would allocate an
    /// observer and a subscription only to see one value and the end at
    /// once. The result is the same as subscribing, where the inner would
    /// start at once; where it would queue (behind a running `concatMap`
    /// inner) it is queued as any stream. Traced runs subscribe it, so
    /// the trace shows its lane.
    private func deliverInPlace(_ scalar: JustNode) {
        switch strategy {
        case .merge:
            if draining || !queue.isEmpty || active.count >= limit {
                queue.append(scalar)
                if queue.count >= Self.queueBound { queueGrew() }
                drain()
            } else {
                sendNext(scalar.value)
            }
        case .latest:
            active.disposeAll()
            sendNext(scalar.value)
        case .first:
            if active.isEmpty { sendNext(scalar.value) }
        }
    }

    override func onCompleted() {
        outerDone = true
        cancelUpstream()
        drain()
    }

    private var limit: Int {
        if case .merge(let max?) = strategy { return Swift.max(1, max) }
        return .max
    }

    /// Subscribes queued inners while there is room; completes when nothing
    /// is left. Re-entrant calls only ask the running loop to go round again.
    /// A bounded merge (`concatMap`, `concat`, `maxConcurrent:`) on the live
    /// clock starts no inner while its consumer has enough: an inner that
    /// cannot stop (a request, one page of an API) would deliver what
    /// nobody asked for, and the next, and the next. The queue waits
    /// instead, and the outer stream with it, until demand comes back.
    private func drain() {
        if draining { drainAgain = true; return }
        draining = true
        repeat {
            drainAgain = false
            while !isStopped, active.count < limit, consumerWantsMore || !holdsInnersBack, let next = queue.popFirst() {
                subscribeInner(next)
            }
        } while drainAgain && !isStopped
        draining = false
        if outerPaused { resumeOuterIfRoom() }
        if outerDone && active.isEmpty && queue.isEmpty { sendCompleted() }
    }

    private func subscribeInner(_ stream: Observable) {
        let inner = InnerObserver(host: self, index: innerCount)
        innerCount += 1
        active.insert(inner)
        // An inner started while the consumer has enough is told at once
        // (one told during its subscription needs no second word).
        let startsPaused = !consumerWantsMore
        stream.subscribe(inner, on: scheduler)
        if startsPaused && !consumerWantsMore { inner.demand(false) }
    }

    /// The queue is long: the outer stream stops until it is half as long;
    /// past the registration threshold (an outer that cannot stop: a
    /// subject, a `range`) it is a holder `--max-memory` can name. Kept out
    /// of line: inlined, it made `onNext` dearer for every strategy.
    @inline(never)
    private func queueGrew() {
        if !outerPaused {
            outerPaused = true
            upstream?.passDemand(false)
        }
        if !isRegisteredHolder && queue.count >= HeldValues.registrationThreshold {
            isRegisteredHolder = true
            HeldValues.of(scheduler).register(self)
        }
    }

    /// The outer stream reads on once the queue is half as long, if the
    /// consumer wants more.
    @inline(never)
    private func resumeOuterIfRoom() {
        guard consumerWantsMore, queue.count <= Self.queueBound / 2 else { return }
        outerPaused = false
        upstream?.passDemand(true)
    }

    override func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        for inner in active.members { inner.demand(wantsMore) }
        if !wantsMore && !outerPaused {
            outerPaused = true
            upstream?.passDemand(false)
        } else if wantsMore && holdsInnersBack && !queue.isEmpty && !isStopped {
            // The inners held back while the consumer had enough start on
            // the next turn, as a source reads on, so none delivers inside
            // the consumer's own call; the outer stream reads on once the
            // queue has room.
            if heldBack == nil {
                heldBack = scheduler.schedule(after: .zero) { [weak self] in
                    self?.heldBack = nil
                    self?.drain()
                }
            }
        } else if wantsMore && outerPaused && queue.count <= Self.queueBound / 2 {
            outerPaused = false
            upstream?.passDemand(true)
        }
    }

    var heldValueCount: Int { queue.count }
    var heldValueDescription: (stage: String, what: String) { (name, "streams queued") }
    var heldValueLocation: SourceLocation? { origin?.location }

    func innerNext(_ inner: InnerObserver, _ value: Value) { sendNext(value) }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }

    func innerCompleted(_ inner: InnerObserver) {
        active.remove(inner)
        drain()
    }

    override func disposeResources() {
        queue = []
        active.disposeAll()
        heldBack?.dispose()
        heldBack = nil
    }
}
