extension OperatorSpec {
    static let throttle = method("throttle", aliases: [Spelling("throttleTime", implied: [("latest", .bool(false))]), "throttle(for:)"], .filtering, "at most one value per window (the latest at its end, with latest: true)",
        [arg("duration", .duration).nonNegative(), labelled("latest", .bool, optional: true)],
        example: #"""
            let source = cold("-a-b-c-d|")
            marbles(source, source.throttle(3ms, latest: true), source.throttle(3ms, latest: false))
            """#,
        differences: "RxSwift's `throttle` defaults to `latest: true` (the latest value of each window at its end) and flow keeps that default; RxJS's `throttleTime(d)` is leading only, which is `throttle(d, latest: false)` and what the `throttleTime` spelling means. Combine's `throttle(for:scheduler:latest:)` requires the choice.") {
        $0.throttle(try $1.duration(0), latest: try $1.bool(1, default: true))
    }
}

extension Observable {
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
