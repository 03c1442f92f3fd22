/// Records what each stage of traced chains emits, for per-stage marble
/// diagrams: a lane per operator, and the inner streams a higher-order
/// operator subscribed, with where they started and were cancelled.
///
/// A scheduler with a tracer hands every subscription to it; without one,
/// subscribing costs one nil check.
public final class Tracer {
    /// One subscription of a traced node.
    public struct Record {
        public let node: Observable
        /// For an inner stream: the record of the stage it feeds (the
        /// higher-order operator that subscribed it).
        public let parent: Int?
        /// The record of the traced stage that subscribed it, if one did.
        public let subscriber: Int?
        public let subscribed: TimeSpan
        /// For an inner stream: the event being delivered when it was
        /// subscribed (the value a `flatMap` closure made it from). Its
        /// events that nothing else caused (a timer's) are made from that.
        public let subscribedFor: Cause?
        public internal(set) var events: [(time: TimeSpan, event: Event)] = []
        /// For each event, the event that was being delivered when it was
        /// emitted (the value it was made from), if one was: a timer's
        /// or a subject's send from outside has none.
        public internal(set) var causes: [Cause?] = []
        /// When it was cancelled before ending, if it was.
        public internal(set) var cancelled: TimeSpan?
        /// A stream an operator made and a traced stage emitted (a
        /// `groupBy`'s group, a `window`'s window), recorded as the
        /// script's own subscription fed it: no stage of the script
        /// subscribed it. `parent` is the stage that emitted it.
        public internal(set) var isEmittedStream = false
    }

    /// An event by its record and its place in the record's events.
    public struct Cause: Hashable, Sendable {
        public let record: Int
        public let event: Int
    }

    public private(set) var records: [Record] = []
    /// The chains asked for, in order (the last stage of each).
    public private(set) var chains: [Observable] = []
    private var traced: [ObjectIdentifier: Observable] = [:]
    /// Nodes being subscribed, innermost last.
    private var subscribing: [Observable] = []
    /// Records delivering a value right now, with the subscribing depth at
    /// the time, innermost last.
    private var delivering: [(record: Int, depth: Int)] = []
    /// The record of each node's latest subscription, to find the stage an
    /// inner stream feeds.
    private var latestRecord: [ObjectIdentifier: Int] = [:]
    /// Inner streams made for a value but subscribed later (queued behind
    /// a running one), with the values they were made for, oldest first.
    private var madeFor: [ObjectIdentifier: [Cause]] = [:]

    /// Notes that `node` was made for the value being delivered, for when
    /// it is subscribed later.
    func noteMadeForValueBeingDelivered(_ node: Observable) {
        guard let cause = eventBeingDelivered else { return }
        madeFor[ObjectIdentifier(node), default: []].append(cause)
    }

    /// The value a queued inner stream was made for, if one was noted.
    private func takeMadeFor(_ node: Observable) -> Cause? {
        let key = ObjectIdentifier(node)
        guard var causes = madeFor[key], !causes.isEmpty else { return nil }
        let first = causes.removeFirst()
        madeFor[key] = causes.isEmpty ? nil : causes
        return first
    }

    /// Asked before every subscription of the scheduler it traces: an
    /// error refuses the subscription (the subscriber gets that error and
    /// the node is never subscribed). A drawing-only run refuses nodes
    /// whose subscription someone could see (`DrawingOnly`).
    public var admits: ((Observable) -> FlowError?)?

    public init() {}

    /// Traces `last` and every stage it reads from.
    public func trace(_ last: Observable) {
        if traced[ObjectIdentifier(last)] == nil { chains.append(last) }
        var pending = [last]
        while let node = pending.popLast() {
            guard traced.updateValue(node, forKey: ObjectIdentifier(node)) == nil else { continue }
            pending += node.inputs
        }
    }

    public func isTraced(_ node: Observable) -> Bool { traced[ObjectIdentifier(node)] != nil }

    /// Nodes whose own subscriptions are recorded without tracing a chain:
    /// the streams a live run's `marbles(...)` and `--marbles` draw as the
    /// run saw them.
    private var watched: [ObjectIdentifier: Observable] = [:]

    public func watch(_ node: Observable) { watched[ObjectIdentifier(node)] = node }

    func isWatched(_ node: Observable) -> Bool { !watched.isEmpty && watched[ObjectIdentifier(node)] != nil }

    /// The subscriptions of `node` made by the run itself, in order.
    public func subscriptions(of node: Observable) -> [Record] {
        records.filter { $0.node === node && $0.parent == nil }
    }

    /// Subscribes `node`, recording it when it is traced or is an inner
    /// stream subscribed by a traced stage.
    func subscribe(_ node: Observable, _ observer: Observer, on scheduler: Scheduler, core: (Observer) -> Void) {
        if let admits, let refusal = admits(node) {
            // Refused before the node does anything: its stream fails at once.
            observer.onSubscribe(NopDisposable.shared)
            observer.onError(refusal)
            return
        }
        // The stage that subscribes an inner stream: the one its host
        // sink sends to (also for inners subscribed later, when a queued
        // `concatMap` inner starts or `catch` falls back), else the stage
        // reading from the value being delivered.
        let behind = Self.stage(behind: observer)
        let host = behind.isInner ? behind.record : nil
        let innerOf = host ?? delivering.last.flatMap { $0.depth == subscribing.count ? consumer(of: $0.record) : nil }
        let isWatched = isWatched(node)
        // The one subscription a recorded `share` makes of its input: the
        // request it shares, drawn once with its subscribers, also where
        // the share is an inner stream that no chain traces.
        let feedsARecordedShare = subscribing.last.map { share in
            share.sharesItsInput && share.inputs.contains { $0 === node } && latestRecord[ObjectIdentifier(share)] != nil
        } ?? false
        guard isTraced(node) || isWatched || innerOf != nil || feedsARecordedShare else {
            subscribing.append(node)
            defer { subscribing.removeLast() }
            return core(observer)
        }
        let index = records.count
        let parent = isTraced(node) || isWatched || feedsARecordedShare ? nil : innerOf
        let subscribedFor = parent == nil ? nil : takeMadeFor(node) ?? eventBeingDelivered
        records.append(Record(node: node, parent: parent, subscriber: behind.record, subscribed: scheduler.now, subscribedFor: subscribedFor))
        latestRecord[ObjectIdentifier(node)] = index
        subscribing.append(node)
        defer { subscribing.removeLast() }
        core(TraceObserver(observer, tracer: self, record: index, scheduler: scheduler))
    }

    /// The record of the traced stage an observer sends to, looking
    /// through the wrappers between them (an error locator, the sink of
    /// an operator, an inner stream's observer); `isInner` when the
    /// observer is an inner stream's.
    static func stage(behind observer: Observer) -> (record: Int?, isInner: Bool) {
        var current: Observer? = observer
        var isInner = false
        // A few wrappers deep at most; bounded all the same.
        for _ in 0..<8 {
            switch current {
            case let trace as TraceObserver: return (trace.index, isInner)
            case let locator as ErrorLocator: current = locator.downstream
            case let inner as InnerObserver:
                isInner = true
                current = inner.hostDownstream
            case let sink as Sink: current = sink.downstream
            default: return (nil, isInner)
            }
        }
        return (nil, isInner)
    }

    /// The subscription of the chain's last stage that `record` was made
    /// for: following who subscribed it, and the stage an inner stream
    /// feeds.
    public func root(of record: Int) -> Int {
        var current = record
        var steps = 0
        while let next = records[current].parent ?? records[current].subscriber, steps < records.count {
            current = next
            steps += 1
        }
        return current
    }

    /// The record of the traced stage that reads from `record`'s node.
    private func consumer(of record: Int) -> Int? {
        let source = records[record].node
        for (_, node) in traced where node.inputs.contains(where: { $0 === source }) {
            if let index = latestRecord[ObjectIdentifier(node)] { return index }
        }
        return nil
    }

    fileprivate func record(_ event: Event, at time: TimeSpan, in index: Int) {
        let delivered = eventBeingDelivered
        let cause = (delivered?.record == index ? nil : delivered) ?? records[index].subscribedFor
        records[index].events.append((time, event))
        records[index].causes.append(cause)
    }

    /// Records `made`, a group or a window the stage of `emitter` has just
    /// emitted, as it plays: the subject the script's own subscription
    /// feeds, observed from now on, so a diagram draws it nested under
    /// that stage whether or not the script reads it. It goes around
    /// `subscribe`, which would take it for an inner stream of the
    /// script's.
    fileprivate func recordEmittedStream(_ made: Observable, by emitter: Int, on scheduler: Scheduler) {
        let index = records.count
        var record = Record(node: made, parent: emitter, subscriber: nil, subscribed: scheduler.now,
                            subscribedFor: Cause(record: emitter, event: records[emitter].events.count - 1))
        record.isEmittedStream = true
        records.append(record)
        made.subscribeCore(TraceObserver(EmittedStreamEnd(), tracer: self, record: index, scheduler: scheduler), on: scheduler)
    }

    fileprivate func cancelled(_ index: Int, at time: TimeSpan) {
        if records[index].cancelled == nil && !(records[index].events.last?.event.isTerminal ?? false) {
            records[index].cancelled = time
        }
    }

    /// The event a traced stage is delivering right now: its record's latest.
    private var eventBeingDelivered: Cause? {
        delivering.last.map { Cause(record: $0.record, event: records[$0.record].events.count - 1) }
    }

    fileprivate func beginDelivery(_ index: Int) { delivering.append((index, subscribing.count)) }
    fileprivate func endDelivery() { delivering.removeLast() }
}

/// Sits between a traced node and its observer.
final class TraceObserver: Observer, Disposable {
    private let downstream: Observer
    private let tracer: Tracer
    let index: Int
    private unowned let scheduler: Scheduler
    private var upstream: Disposable?

    init(_ downstream: Observer, tracer: Tracer, record: Int, scheduler: Scheduler) {
        self.downstream = downstream
        self.tracer = tracer
        self.index = record
        self.scheduler = scheduler
    }

    func onSubscribe(_ subscription: Disposable) {
        upstream = subscription
        downstream.onSubscribe(self)
    }

    func onNext(_ value: Value) {
        tracer.record(.next(value), at: scheduler.now, in: index)
        if case .stream(let made) = value, DrawingOnly.isMadeByAnOperator(made) {
            tracer.recordEmittedStream(made, by: index, on: scheduler)
        }
        tracer.beginDelivery(index)
        defer { tracer.endDelivery() }
        downstream.onNext(value)
    }

    func onError(_ error: FlowError) {
        tracer.record(.error(error), at: scheduler.now, in: index)
        downstream.onError(error)
    }

    func onCompleted() {
        tracer.record(.completed, at: scheduler.now, in: index)
        downstream.onCompleted()
    }

    func dispose() {
        tracer.cancelled(index, at: scheduler.now)
        let up = upstream
        upstream = nil
        up?.dispose()
    }
}

/// Where the events of an emitted stream the tracer records go once
/// recorded: nowhere, the recording is all it is for.
private final class EmittedStreamEnd: Observer {
    func onSubscribe(_ subscription: Disposable) {}
    func onNext(_ value: Value) {}
    func onError(_ error: FlowError) {}
    func onCompleted() {}
}
