extension OperatorSpec {
    static let observeOn = method("observeOn", aliases: ["observe(on:)", "receive(on:)"], .utility,
        "delivers each event on a later turn of the event loop, at the same time (the scheduler itself is not needed: flow has one loop)",
        [arg("scheduler", .value)],
        example: #"""
            let source = cold("-a-b|")
            marbles(source, source.observe(on: MainScheduler.instance))
            """#,
        differences: "In the libraries, the scheduler decides the thread; flow has one event loop, so any scheduler means the same: events keep their time and reach downstream on a later turn of the loop, after what that turn had queued. Code that relies on the hop (a value sent from inside a subscriber) gives the book's order.") { source, _ in source.observeOn() }
}

extension Observable {
    /// RxSwift's `observe(on:)`, Combine's `receive(on:)`: the events keep
    /// their time but reach downstream on a later turn of the loop, after
    /// whatever that turn had already queued, as an asynchronous hop does.
    public func observeOn() -> Observable {
        SinkNode("observeOn", self) { observer, scheduler in ObserveOnSink(observer, scheduler: scheduler) }
    }
}

final class ObserveOnSink: Sink {
    private let scheduler: Scheduler
    private var queued: [Event] = []
    private let flush = SerialDisposable()

    init(_ downstream: Observer, scheduler: Scheduler) {
        self.scheduler = scheduler
        super.init(downstream)
    }

    override func onNext(_ value: Value) { enqueue(.next(value)) }
    override func onError(_ error: FlowError) { enqueue(.error(error)) }
    override func onCompleted() { enqueue(.completed) }

    private func enqueue(_ event: Event) {
        queued.append(event)
        guard queued.count == 1 else { return }
        flush.disposable = scheduler.schedule(at: scheduler.now) { [weak self] in self?.deliver() }
    }

    private func deliver() {
        let events = queued
        queued = []
        for event in events where !isStopped {
            switch event {
            case .next(let value): sendNext(value)
            case .error(let error): sendError(error)
            case .completed: sendCompleted()
            }
        }
    }

    override func disposeResources() {
        flush.dispose()
        queued = []
    }
}
