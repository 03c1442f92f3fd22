extension OperatorSpec {
    static let buffer = OperatorSpec("buffer", aliases: ["bufferCount", "bufferTime"], .transformation, .method,
        "collects values into arrays by count or by time span", [
        Signature([labelled("count", .int).positive(), labelled("skip", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(count: $0.int(0), skip: $0.optionalInt(1)))
        },
        Signature([labelled("timeSpan", .duration).positive(), labelled("count", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(timeSpan: $0.duration(0), count: $0.optionalInt(1)))
        },
    ], example: #"""
            let source = cold("-a-b-c-d-e|")
            marbles(source, source.buffer(count: 2))
            """#)
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
