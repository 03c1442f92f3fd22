extension OperatorSpec {
    static let window = OperatorSpec("window", aliases: [Spelling("windowCount", positional: ["count"]), Spelling("windowTime", positional: ["timeSpan"])], .transformation, .method,
        "splits values into a stream of window streams, by count or by time span", [
        Signature([labelled("count", .int).positive()]) { .stream(try $0.source().window(count: $0.int(0))) },
        Signature([labelled("timeSpan", .duration).positive(), labelled("count", .int, optional: true).positive()]) {
            .stream(try $0.source().window(timeSpan: $0.duration(0), count: $0.optionalInt(1)))
        },
    ], example: #"""
            let source = cold("-a-b-c-d|")
            let windows = source.window(count: 2)
            marbles(source, windows, windows.flatMap { $0.toArray() })
            """#,
        differences: "RxSwift `window(timeSpan:count:scheduler:)`, RxJS `windowCount` and `windowTime`; Combine has none.")
}

extension Observable {
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
}

final class WindowSink: Sink {
    private let scheduler: Scheduler
    private let span: TimeSpan?
    private let limit: Int?
    private var window: PublishSubject?
    private var countInWindow = 0
    private let timer = SerialDisposable()

    private var windowCount = 0

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
        windowCount += 1
        // Numbered from 1, it names the window in lanes and legends.
        next.label = "window \(windowCount)"
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
