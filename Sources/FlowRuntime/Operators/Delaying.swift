/// Shifting in time: `delay` and `delaySubscription`.
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
extension Observable {
    /// Shifts every value and the completion by `dueTime`; an error is
    /// passed on at once, dropping values still in flight.
    public func delay(_ dueTime: TimeSpan) -> Observable {
        SinkNode("delay", self) { observer, scheduler in DelaySink(observer, scheduler: scheduler, dueTime: dueTime) }
    }

    /// Subscribes to the source `dueTime` after being subscribed.
    public func delaySubscription(_ dueTime: TimeSpan) -> Observable {
        ClosureNode("delaySubscription", inputs: [self]) { observer, scheduler, inputs in
            let sink = ForwardingSink(observer)
            sink.announce()
            sink.pendingStart = scheduler.schedule(after: dueTime) { [weak sink] in
                guard let sink, !sink.isStopped else { return }
                inputs[0].subscribe(sink, on: scheduler)
            }
        }
    }
}

/// Passes everything through; owns a disposable for work not yet started.
final class ForwardingSink: Sink {
    var pendingStart: Disposable?
    override func disposeResources() {
        pendingStart?.dispose()
        pendingStart = nil
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
