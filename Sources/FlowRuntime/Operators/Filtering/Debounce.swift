extension OperatorSpec {
    static let debounce = method("debounce", aliases: ["debounceTime", "debounce(for:)", "debounce(interval:)"], .filtering,
        "emits a value after a quiet period with no newer value; flushOnClose says whether a value pending at completion is emitted",
        [arg("dueTime", .duration).nonNegative(), labelled("flushOnClose", .bool, optional: true)],
        example: #"""
            let source = cold("-a-b----c|")
            marbles(source, source.debounce(2ms))
            """#,
        differences: "flow, RxSwift and RxJS emit a value pending at completion before completing; Combine's `debounce` drops it and finishes at once, as CwlSignal's does unless given `flushOnClose: true` (`import Combine`, `import CwlSignal`); `flushOnClose:` chooses in any dialect. RxJS's `debounce(selector)` with a closure per value is not supported: use `debounce(d)` (RxJS `debounceTime`).") {
        $0.debounce(try $1.duration(0), keepsPendingAtCompletion: try $1.bool(1, default: ![.combine, .cwlSignal].contains($1.context.dialect)))
    }
}

extension Observable {
    /// Emits a value once `dueTime` passes with no newer value. A value still
    /// pending at completion is emitted, then completion; an error is passed
    /// on at once and drops the pending value. Without
    /// `keepsPendingAtCompletion` (Combine's), completion drops it too.
    public func debounce(_ dueTime: TimeSpan, keepsPendingAtCompletion: Bool = true) -> Observable {
        SinkNode("debounce", self) { observer, scheduler in
            DebounceSink(observer, scheduler: scheduler, dueTime: dueTime, keepsPending: keepsPendingAtCompletion)
        }
    }
}

final class DebounceSink: Sink {
    private let scheduler: Scheduler
    private let dueTime: TimeSpan
    private var pending: Value?
    private let timer = SerialDisposable()
    private let keepsPending: Bool

    init(_ downstream: Observer, scheduler: Scheduler, dueTime: TimeSpan, keepsPending: Bool) {
        self.scheduler = scheduler
        self.dueTime = dueTime
        self.keepsPending = keepsPending
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
        if keepsPending { emitPending() }
        sendCompleted()
    }

    override func disposeResources() {
        timer.dispose()
        pending = nil
    }
}
