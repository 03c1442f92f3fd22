/// Rate limiting in time: `debounce`, `throttle` and `sample`.
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
extension Observable {
    /// Emits a value once `dueTime` passes with no newer value. A value still
    /// pending at completion is emitted, then completion; an error is passed
    /// on at once and drops the pending value.
    public func debounce(_ dueTime: TimeSpan) -> Observable {
        SinkNode("debounce", self) { observer, scheduler in DebounceSink(observer, scheduler: scheduler, dueTime: dueTime) }
    }

    /// Emits the first value at once and opens a window of `duration`.
    /// With `latest`, the latest value seen in a window is emitted at its
    /// end (opening a new window), and a completion that finds a value
    /// pending waits for the window's end to emit it. Without, values inside
    /// the window `[t, t + duration)` are dropped.
    public func throttle(_ duration: TimeSpan, latest: Bool = true) -> Observable {
        SinkNode("throttle", self) { observer, scheduler in
            ThrottleSink(observer, scheduler: scheduler, duration: duration, latest: latest)
        }
    }

    /// On each value of `trigger`, emits the latest source value if a new
    /// one arrived since the last sample. Completes when the source completes.
    public func sample(_ trigger: Observable) -> Observable {
        ClosureNode("sample", inputs: [self, trigger]) { observer, scheduler, inputs in
            SampleSink(observer, scheduler: scheduler).start(source: inputs[0], trigger: inputs[1])
        }
    }
}

final class DebounceSink: Sink {
    private let scheduler: Scheduler
    private let dueTime: TimeSpan
    private var pending: Value?
    private let timer = SerialDisposable()

    init(_ downstream: Observer, scheduler: Scheduler, dueTime: TimeSpan) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        pending = value
        timer.disposable = scheduler.schedule(after: dueTime) { [weak self] in self?.emitPending() }
    }

    private func emitPending() {
        guard let value = pending else { return }
        pending = nil
        sendNext(value)
    }

    override func onCompleted() {
        timer.disposable = nil
        emitPending()
        sendCompleted()
    }

    override func disposeResources() {
        timer.dispose()
        pending = nil
    }
}

final class ThrottleSink: Sink {
    private let scheduler: Scheduler
    private let duration: TimeSpan
    private let latest: Bool
    private var windowEnd: TimeSpan?
    private var pending: Value?
    private var completionPending = false
    private let timer = SerialDisposable()

    init(_ downstream: Observer, scheduler: Scheduler, duration: TimeSpan, latest: Bool) {
        self.scheduler = scheduler
        self.duration = duration
        self.latest = latest
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        let now = scheduler.now
        // A window ending at this very instant closes before the value is
        // seen, whichever of the two was scheduled first.
        if latest, let end = windowEnd, now >= end { windowClosed() }
        if let end = windowEnd, now < end {
            if latest { pending = value }
            return
        }
        emitAndOpenWindow(value, at: now)
    }

    private func emitAndOpenWindow(_ value: Value, at now: TimeSpan) {
        windowEnd = now + duration
        if latest {
            timer.disposable = scheduler.schedule(after: duration) { [weak self] in self?.windowClosed() }
        }
        sendNext(value)
    }

    private func windowClosed() {
        windowEnd = nil
        if let value = pending {
            pending = nil
            emitAndOpenWindow(value, at: scheduler.now)
        }
        if completionPending && pending == nil {
            timer.disposable = nil
            sendCompleted()
        }
    }

    override func onCompleted() {
        if latest, pending != nil {
            completionPending = true
            cancelUpstream()
            return
        }
        sendCompleted()
    }

    override func disposeResources() {
        timer.dispose()
        pending = nil
    }
}

final class SampleSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private var trigger: InnerObserver?
    private var latest: Value?

    init(_ downstream: Observer, scheduler: Scheduler) {
        self.scheduler = scheduler
        super.init(downstream)
    }

    func start(source: Observable, trigger triggerStream: Observable) {
        announce()
        source.subscribe(self, on: scheduler)
        guard !isStopped else { return }
        let inner = InnerObserver(host: self, index: 1)
        trigger = inner
        triggerStream.subscribe(inner, on: scheduler)
    }

    override func onNext(_ value: Value) { latest = value }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        guard let value = latest else { return }
        latest = nil
        sendNext(value)
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {}

    override func disposeResources() {
        trigger?.dispose()
        trigger = nil
    }
}
