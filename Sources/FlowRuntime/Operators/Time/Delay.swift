extension OperatorSpec {
    static let delay = method("delay", aliases: ["delay(for:)"], .time, "shifts values and completion later by a duration", [arg("dueTime", .duration).nonNegative()],
        example: #"""
            let source = cold("-a-b|")
            marbles(source, source.delay(2ms))
            """#,
        differences: "RxSwift `delay(_:scheduler:)`, Combine `delay(for:scheduler:)`, RxJS `delay`; an error is passed on at once, as in RxSwift and RxJS.") { $0.delay(try $1.duration(0)) }
}

extension Observable {
    /// Shifts every value and the completion by `dueTime`; an error is
    /// passed on at once, dropping values still in flight.
    public func delay(_ dueTime: TimeSpan) -> Observable {
        SinkNode("delay", self) { observer, scheduler in DelaySink(observer, scheduler: scheduler, dueTime: dueTime) }
    }
}

final class DelaySink: Sink {
    private let scheduler: Scheduler
    private let dueTime: TimeSpan
    private let inFlight = CompositeDisposable()

    init(_ downstream: Observer, scheduler: Scheduler, dueTime: TimeSpan) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        super.init(downstream)
    }

    override func onNext(_ value: Value) { later { $0.sendNext(value) } }

    override func onCompleted() {
        cancelUpstream()
        later { $0.sendCompleted() }
    }

    private func later(_ action: @escaping (DelaySink) -> Void) {
        var task: Disposable?
        task = scheduler.schedule(after: dueTime) { [weak self] in
            guard let self else { return }
            if let task { inFlight.remove(task) }
            action(self)
        }
        if let task { inFlight.insert(task) }
    }

    override func disposeResources() { inFlight.dispose() }
}
