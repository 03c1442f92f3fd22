/// The per-subscription half of an operator: receives from upstream,
/// forwards to downstream, and is the disposable downstream cancels.
///
/// It enforces the contract for every operator: nothing after a terminal
/// event or disposal, and resources released once, on whichever comes first.
class Sink: Observer, Disposable, DemandControl {
    final let downstream: Observer
    // Touched at every subscription and disposal: without Swift's dynamic
    // exclusivity checks (see architecture.md).
    @exclusivity(unchecked) final private(set) var upstream: Disposable?
    /// No event may be sent any more.
    @exclusivity(unchecked) final var isStopped = false
    @exclusivity(unchecked) private final var isReleased = false
    @exclusivity(unchecked) private final var isAnnounced = false
    /// The node's origin, when its node passes it on: an error the sink
    /// sends without a location gets the node's.
    @exclusivity(unchecked) final var origin: NodeOrigin?

    init(_ downstream: Observer) { self.downstream = downstream }

    func onSubscribe(_ subscription: Disposable) {
        if isStopped { subscription.dispose(); return }
        upstream = subscription
        announce()
    }

    /// Hands this sink to downstream as its subscription. Operators that
    /// subscribe several sources, or emit before their source does, call it
    /// first; otherwise the source's `onSubscribe` does.
    final func announce() {
        guard !isAnnounced else { return }
        isAnnounced = true
        downstream.onSubscribe(self)
    }

    func onNext(_ value: Value) { sendNext(value) }
    func onError(_ error: FlowError) { sendError(error) }
    func onCompleted() { sendCompleted() }

    @inline(__always)
    final func sendNext(_ value: Value) {
        if !isStopped { downstream.onNext(value) }
    }

    final func sendError(_ error: FlowError) {
        guard !isStopped else { return }
        isStopped = true
        downstream.onError(error.located(at: origin?.location))
        release()
    }

    final func sendCompleted() {
        guard !isStopped else { return }
        isStopped = true
        downstream.onCompleted()
        release()
    }

    final func dispose() {
        isStopped = true
        release()
    }

    /// Stop listening upstream without ending downstream (an operator that
    /// keeps going on other inputs after its source ends, for example).
    final func cancelUpstream() {
        let up = upstream
        upstream = nil
        up?.dispose()
    }

    private final func release() {
        guard !isReleased else { return }
        isReleased = true
        cancelUpstream()
        disposeResources()
    }

    /// Release timers, inner subscriptions and buffers. Called once.
    func disposeResources() {}

    /// Demand passes upstream unchanged: right for every operator of one
    /// input that holds no queue of its own (see Core/Demand.swift).
    func demand(_ wantsMore: Bool) { upstream?.passDemand(wantsMore) }
}

/// A sink with several inputs (merge, zip, flatMap's inner streams): each
/// input is observed through an `InnerObserver` that reports to it.
protocol InnerHost: AnyObject {
    func innerNext(_ inner: InnerObserver, _ value: Value)
    func innerError(_ inner: InnerObserver, _ error: FlowError)
    func innerCompleted(_ inner: InnerObserver)
}

final class InnerObserver: Observer, Disposable, DemandControl {
    @exclusivity(unchecked) private var host: InnerHost?
    let index: Int
    @exclusivity(unchecked) private var subscription: Disposable?
    @exclusivity(unchecked) private(set) var isDone = false
    /// Position in the host's `InnerSet`, if it keeps one.
    @exclusivity(unchecked) var slot = -1

    init(host: InnerHost, index: Int) {
        self.host = host
        self.index = index
    }

    /// Where the host sends its events: a tracer finds the stage that
    /// subscribed an inner stream through it.
    var hostDownstream: Observer? { (host as? Sink)?.downstream }

    func onSubscribe(_ s: Disposable) {
        if isDone && host == nil { s.dispose(); return }
        subscription = s
    }

    func onNext(_ value: Value) {
        guard !isDone, let host else { return }
        host.innerNext(self, value)
    }

    func onError(_ error: FlowError) {
        guard !isDone, let host else { return }
        finish()
        host.innerError(self, error)
    }

    func onCompleted() {
        guard !isDone, let host else { return }
        finish()
        host.innerCompleted(self)
    }

    private func finish() {
        isDone = true
        subscription = nil
    }

    /// Its host's demand, passed to the inner stream.
    func demand(_ wantsMore: Bool) { subscription?.passDemand(wantsMore) }

    func dispose() {
        isDone = true
        host = nil
        let s = subscription
        subscription = nil
        s?.dispose()
    }
}

/// A unary operator node whose behaviour lives entirely in its sink.
final class SinkNode: Observable {
    private let makeSink: (Observer, Scheduler) -> Sink

    init(_ name: String, _ source: Observable, makeSink: @escaping (Observer, Scheduler) -> Sink) {
        self.makeSink = makeSink
        super.init(operatorName: name, input: source)
    }

    /// Its sink locates the errors it raises (see `Sink.origin`), at no
    /// cost per event.
    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let sink = makeSink(observer, scheduler)
        sink.origin = origin
        input.subscribe(sink, on: scheduler)
    }
}

/// A node whose subscription is written as one closure: sources, and
/// operators that coordinate several inputs.
final class ClosureNode: Observable {
    private let body: (Observer, Scheduler, [Observable]) -> Void

    init(_ name: String, inputs: [Observable] = [], body: @escaping (Observer, Scheduler, [Observable]) -> Void) {
        self.body = body
        super.init(operatorName: name, inputs: inputs)
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        body(observer, scheduler, inputs)
    }
}

/// The running inner subscriptions of a sink: insertion and removal in
/// constant time without hashing (each inner remembers its slot).
struct InnerSet {
    private(set) var members: [InnerObserver] = []

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    mutating func insert(_ inner: InnerObserver) {
        inner.slot = members.count
        members.append(inner)
    }

    mutating func remove(_ inner: InnerObserver) {
        let slot = inner.slot
        guard slot >= 0, slot < members.count, members[slot] === inner else { return }
        let last = members.removeLast()
        if slot < members.count {
            members[slot] = last
            last.slot = slot
        }
        inner.slot = -1
    }

    /// Empties the set, disposing every member. Disposing an inner never
    /// calls back into its host, so the members can be walked in place.
    mutating func disposeAll() {
        // Per event in switchLatest, which mostly has nothing running.
        guard !members.isEmpty else { return }
        for inner in members {
            inner.slot = -1
            inner.dispose()
        }
        members.removeAll(keepingCapacity: true)
    }
}
