/// Transformation: operators that change each value (`map`, `scan`, ...)
/// or regroup values (`buffer`, `window`, `groupBy`, `pairwise`).
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
extension Observable {
    /// Each value transformed by `transform`. A throw ends the stream with that error.
    public func map(_ transform: Function) -> Observable {
        PipelineNode(.map(transform), self)
    }

    /// Each value transformed; nil results are dropped.
    public func compactMap(_ transform: Function) -> Observable {
        PipelineNode(.compactMap(transform), self)
    }

    /// Running accumulation: emits `accumulator(state, value)` for each value,
    /// starting from `seed`. Without a seed the first value is the first state.
    public func scan(_ seed: Value?, _ accumulator: Function) -> Observable {
        PipelineNode(.scan(seed: seed, accumulator), self)
    }

    /// Each value paired with its position: `(index: 0, element: v)`.
    public func enumerated() -> Observable {
        PipelineNode(.enumerated, self)
    }

    /// Arrays of `count` values, a new one starting every `skip` values
    /// (default `count`). At completion the unfinished buffers are emitted
    /// if not empty; an error drops them.
    public func buffer(count: Int, skip: Int? = nil) -> Observable {
        let every = skip ?? count
        return SinkNode("buffer", self) { observer, _ in CountBufferSink(observer, count: Swift.max(1, count), every: Swift.max(1, every)) }
    }

    /// Arrays of the values of each `timeSpan`, emitted at its end (empty
    /// arrays included), or early once `count` values are in (which restarts
    /// the span). At completion the open buffer is emitted, then completion.
    public func buffer(timeSpan: TimeSpan, count: Int? = nil) -> Observable {
        SinkNode("buffer", self) { observer, scheduler in
            TimeBufferSink(observer, scheduler: scheduler, span: timeSpan, limit: count.map { Swift.max(1, $0) })
        }
    }

    /// A stream of windows: each window is a stream of `count` consecutive
    /// values. A new window opens at subscription and after every `count`
    /// values; completion and errors reach the open window and the outer stream.
    public func window(count: Int) -> Observable {
        SinkNode("window", self) { observer, scheduler in
            WindowSink(observer, scheduler: scheduler, span: nil, limit: Swift.max(1, count))
        }
    }

    /// Windows of `timeSpan` (closed early after `count` values, which restarts the span).
    public func window(timeSpan: TimeSpan, count: Int? = nil) -> Observable {
        SinkNode("window", self) { observer, scheduler in
            WindowSink(observer, scheduler: scheduler, span: timeSpan, limit: count.map { Swift.max(1, $0) })
        }
    }

    /// Splits values by `key`: emits one grouped stream (with a `key`
    /// member) per new key, and routes each value to its group. Completion
    /// and errors reach every group. Disposing the outer subscription stops
    /// the source for all groups.
    public func groupBy(_ key: Function) -> Observable {
        SinkNode("groupBy", self) { observer, _ in GroupBySink(observer, key: key) }
    }

    /// Each value with the one before it, as a tuple `(previous, current)`,
    /// or combined by `combine` when given. The first value emits nothing.
    public func pairwise(_ combine: Function? = nil) -> Observable {
        SinkNode("pairwise", self) { observer, _ in PairwiseSink(observer, combine: combine) }
    }

    /// Each value with the scheduler time it arrived: `(value: v, time: 5ms)`.
    public func timestamp() -> Observable {
        SinkNode("timestamp", self) { observer, scheduler in
            StampSink(observer, scheduler: scheduler, label: "time") { now, _ in now }
        }
    }

    /// Each value with the time since the previous one (or since
    /// subscription): `(value: v, interval: 3ms)`.
    public func timeInterval() -> Observable {
        SinkNode("timeInterval", self) { observer, scheduler in
            StampSink(observer, scheduler: scheduler, label: "interval") { now, last in now - last }
        }
    }
}

final class CountBufferSink: Sink {
    private let count: Int
    private let every: Int
    private var buffers: [[Value]] = []
    private var seen = 0

    init(_ downstream: Observer, count: Int, every: Int) {
        self.count = count
        self.every = every
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        if seen % every == 0 { buffers.append([]) }
        seen += 1
        for i in buffers.indices { buffers[i].append(value) }
        while let first = buffers.first, first.count >= count {
            buffers.removeFirst()
            sendNext(.array(first))
        }
    }

    override func onCompleted() {
        for buffer in buffers where !buffer.isEmpty { sendNext(.array(buffer)) }
        buffers = []
        sendCompleted()
    }
}

final class TimeBufferSink: Sink {
    private let scheduler: Scheduler
    private let span: TimeSpan
    private let limit: Int?
    private var buffer: [Value] = []
    private let timer = SerialDisposable()

    init(_ downstream: Observer, scheduler: Scheduler, span: TimeSpan, limit: Int?) {
        self.scheduler = scheduler
        self.span = span
        self.limit = limit
        super.init(downstream)
    }

    override func onSubscribe(_ subscription: Disposable) {
        super.onSubscribe(subscription)
        startSpan()
    }

    private func startSpan() {
        timer.disposable = scheduler.schedule(after: span) { [weak self] in self?.flush() }
    }

    private func flush() {
        let full = buffer
        buffer = []
        startSpan()
        sendNext(.array(full))
    }

    override func onNext(_ value: Value) {
        buffer.append(value)
        if let limit, buffer.count >= limit { flush() }
    }

    override func onCompleted() {
        let rest = buffer
        buffer = []
        sendNext(.array(rest))
        sendCompleted()
    }

    override func disposeResources() { timer.dispose() }
}

final class WindowSink: Sink {
    private let scheduler: Scheduler
    private let span: TimeSpan?
    private let limit: Int?
    private var window: PublishSubject?
    private var countInWindow = 0
    private let timer = SerialDisposable()

    init(_ downstream: Observer, scheduler: Scheduler, span: TimeSpan?, limit: Int?) {
        self.scheduler = scheduler
        self.span = span
        self.limit = limit
        super.init(downstream)
    }

    override func onSubscribe(_ subscription: Disposable) {
        super.onSubscribe(subscription)
        openWindow()
    }

    private func openWindow() {
        let next = PublishSubject()
        window = next
        countInWindow = 0
        if let span {
            timer.disposable = scheduler.schedule(after: span) { [weak self] in self?.rollOver() }
        }
        sendNext(.stream(next))
    }

    private func rollOver() {
        window?.complete()
        openWindow()
    }

    override func onNext(_ value: Value) {
        window?.send(value)
        countInWindow += 1
        if let limit, countInWindow >= limit { rollOver() }
    }

    override func onError(_ error: FlowError) {
        window?.fail(error)
        sendError(error)
    }

    override func onCompleted() {
        window?.complete()
        sendCompleted()
    }

    override func disposeResources() {
        timer.dispose()
        window = nil
    }
}

/// A group of `groupBy`: a stream of the values with one key.
public final class GroupedSubject: Subject {
    public let key: Value
    init(key: Value) {
        self.key = key
        super.init(name: "group")
    }
}

final class GroupBySink: Sink {
    private let key: Function
    private var groups: [Value: GroupedSubject] = [:]
    private var order: [GroupedSubject] = []

    init(_ downstream: Observer, key: Function) {
        self.key = key
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        let k: Value
        do { k = try key.call(value) } catch { return onError(FlowError.wrap(error)) }
        if let group = groups[k] {
            group.send(value)
            return
        }
        let group = GroupedSubject(key: k)
        groups[k] = group
        order.append(group)
        sendNext(.stream(group))
        group.send(value)
    }

    override func onError(_ error: FlowError) {
        for group in order { group.fail(error) }
        sendError(error)
    }

    override func onCompleted() {
        for group in order { group.complete() }
        sendCompleted()
    }

    override func disposeResources() {
        groups = [:]
        order = []
    }
}

final class PairwiseSink: Sink {
    private let combine: Function?
    private var previous: Value?

    init(_ downstream: Observer, combine: Function?) {
        self.combine = combine
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        defer { previous = value }
        guard let previous else { return }
        if let combine {
            do { sendNext(try combine.call(previous, value)) } catch { sendError(FlowError.wrap(error)) }
        } else {
            sendNext(.tuple([previous, value]))
        }
    }
}

final class StampSink: Sink {
    private let scheduler: Scheduler
    private let label: String
    private let stamp: (TimeSpan, TimeSpan) -> TimeSpan
    private var last: TimeSpan

    init(_ downstream: Observer, scheduler: Scheduler, label: String, stamp: @escaping (TimeSpan, TimeSpan) -> TimeSpan) {
        self.scheduler = scheduler
        self.label = label
        self.stamp = stamp
        self.last = scheduler.now
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        let now = scheduler.now
        let time = stamp(now, last)
        last = now
        sendNext(.tuple(Tuple([value, .duration(time)], labels: ["value", label])))
    }
}
