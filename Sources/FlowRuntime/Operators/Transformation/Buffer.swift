extension OperatorSpec {
    static let buffer = OperatorSpec("buffer", aliases: [
        Spelling("bufferCount", positional: ["count", "skip"]), Spelling("bufferTime", positional: ["timeSpan"]),
        Spelling("collect", positional: ["count"]),
    ], .transformation, .method,
        "collects values into arrays: by count, by time span, or each time a boundary stream emits", [
        Signature([labelled("count", .int).positive(), labelled("skip", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(count: $0.int(0), skip: $0.optionalInt(1)))
        },
        Signature([labelled("timeSpan", .duration).positive(), labelled("count", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(timeSpan: $0.duration(0), count: $0.optionalInt(1)))
        },
        // RxJS: buffer(closingNotifier).
        Signature([arg("boundary", .stream)]) { .stream(try $0.source().buffer(boundary: $0.stream(0))) },
    ], example: #"""
            let source = cold("-a-b-c-d-e|")
            marbles(source, source.buffer(count: 2), source.collect(.byTime(RunLoop.main, .milliseconds(4))))
            """#,
        differences: "RxSwift's `buffer(timeSpan:count:scheduler:)`, RxJS's `bufferCount`, `bufferTime` and `buffer(notifier)`, and Combine's `collect(n)`, `collect(.byTime(s, d))` and `collect(.byTimeOrCount(s, d, n))` all emit the values still held at completion, as flow does (RxJS since version 7).")
}

extension Observable {
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
        do { try MemoryBudget.checkElements(buffer.count + 1, "holding values in buffer") } catch {
            return onError(FlowError.wrap(error))
        }
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

extension Observable {
    /// RxJS's `buffer(notifier)`: the values since the last boundary, as an
    /// array, each time `boundary` emits; at completion, the values still
    /// held (RxJS 7). The boundary's error fails the stream.
    public func buffer(boundary: Observable) -> Observable {
        ClosureNode("buffer", inputs: [self, boundary]) { observer, scheduler, inputs in
            BoundaryBufferSink(observer, scheduler: scheduler).start(source: inputs[0], boundary: inputs[1])
        }
    }
}

final class BoundaryBufferSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private var boundary: InnerObserver?
    private var held: [Value] = []

    init(_ downstream: Observer, scheduler: Scheduler) {
        self.scheduler = scheduler
        super.init(downstream)
    }

    func start(source: Observable, boundary stream: Observable) {
        announce()
        let inner = InnerObserver(host: self, index: 1)
        boundary = inner
        stream.subscribe(inner, on: scheduler)
        if !isStopped { source.subscribe(self, on: scheduler) }
    }

    override func onNext(_ value: Value) {
        do { try MemoryBudget.checkElements(held.count + 1, "holding values in buffer") } catch {
            return onError(FlowError.wrap(error))
        }
        held.append(value)
    }

    override func onCompleted() {
        if !held.isEmpty { sendNext(.array(held)) }
        sendCompleted()
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        let batch = held
        held = []
        sendNext(.array(batch))
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        boundary?.dispose()
        boundary = nil
        held = []
    }
}
