/// Sources: streams made from values, ranges and the clock.
///
/// Synchronous sources are plain loops that poll their subscription's flag
/// between values, so a downstream `take` stops them early.
extension Observable {
    /// Emits `value`, then completes.
    public static func just(_ value: Value) -> Observable {
        JustNode(value)
    }

    /// Emits each value in order, then completes. (`of`, and `from` on an array.)
    public static func from(_ values: [Value], name: String = "from") -> Observable {
        ClosureNode(name) { observer, _, _ in
            let flag = BooleanDisposable()
            observer.onSubscribe(flag)
            for value in values {
                if flag.isDisposed { return }
                observer.onNext(value)
            }
            if !flag.isDisposed { observer.onCompleted() }
        }
    }

    /// Emits `count` consecutive integers from `start`, then completes.
    /// A negative count is an error when subscribed.
    public static func range(start: Int, count: Int) -> Observable {
        RangeNode(start: start, count: count)
    }

    /// Completes at once.
    public static func empty() -> Observable {
        ClosureNode("empty") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
            observer.onCompleted()
        }
    }

    /// Never emits and never ends.
    public static func never() -> Observable {
        ClosureNode("never") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
        }
    }

    /// Fails at once with `error`.
    public static func error(_ error: FlowError) -> Observable {
        ClosureNode("error") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
            observer.onError(error)
        }
    }

    /// Calls `factory` on each subscription and subscribes to the stream it
    /// returns; an error thrown by the factory is the stream's error.
    public static func deferred(_ factory: Function) -> Observable {
        ClosureNode("deferred") { observer, scheduler, _ in
            let stream: Observable
            do {
                stream = try factory.call([]).asStream()
            } catch {
                observer.onSubscribe(NopDisposable.shared)
                observer.onError(FlowError.wrap(error))
                return
            }
            stream.subscribe(observer, on: scheduler)
        }
    }

    /// Emits 0, 1, 2, ... at `period`, 2·`period`, 3·`period`, ... Never completes.
    public static func interval(_ period: TimeSpan) -> Observable {
        timer(period, period: period, name: "interval")
    }

    /// Emits 0 after `delay` and completes; with a `period`, keeps emitting
    /// 1, 2, ... every `period` after that instead of completing.
    public static func timer(_ delay: TimeSpan, period: TimeSpan? = nil, name: String = "timer") -> Observable {
        ClosureNode(name) { observer, scheduler, _ in
            let first = scheduler.now + delay
            guard let period else {
                let task = scheduler.schedule(at: first) {
                    observer.onNext(.int(0))
                    observer.onCompleted()
                }
                observer.onSubscribe(task)
                return
            }
            var tick = 0
            let task = scheduler.schedulePeriodic(first: first, period: period) {
                observer.onNext(.int(tick))
                tick += 1
            }
            observer.onSubscribe(task)
        }
    }
}

/// `just`: common enough inside `flatMap` closures to deserve a node that
/// allocates nothing but itself.
final class JustNode: Observable {
    let value: Value

    init(_ value: Value) {
        self.value = value
        super.init(operatorName: "just")
    }

    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let flag = BooleanDisposable()
        observer.onSubscribe(flag)
        if !flag.isDisposed { observer.onNext(value) }
        if !flag.isDisposed { observer.onCompleted() }
    }
}

/// `range`: a node of its own, since scripts build ranges inside closures
/// called per event (`flatMap { _ in range(0, 10) }`).
final class RangeNode: Observable {
    let start: Int
    let count: Int

    init(start: Int, count: Int) {
        self.start = start
        self.count = count
        super.init(operatorName: "range")
    }

    /// Made per event in scripts (`flatMap { range(0, 10) }`): it locates
    /// its two errors itself rather than through a wrapper.
    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let flag = BooleanDisposable()
        observer.onSubscribe(flag)
        guard count >= 0 else { return observer.onError(FlowError.argumentOutOfRange("range count \(count) is negative").located(at: location)) }
        let (end, overflow) = start.addingReportingOverflow(count)
        guard !overflow else { return observer.onError(FlowError.argumentOutOfRange("range end overflows").located(at: location)) }
        var i = start
        // Virtual time bounds a loop it cannot interrupt.
        let stop = count > VirtualScheduler.synchronousValueLimit && scheduler.isVirtual ? start + VirtualScheduler.synchronousValueLimit : end
        while i < end {
            if i == stop {
                return observer.onError(FlowError(
                    "range stopped after \(VirtualScheduler.synchronousValueLimit) values, the most one synchronous source emits in virtual time; is it meant to be endless?",
                    at: location))
            }
            if flag.isDisposed { return }
            observer.onNext(.int(i))
            i += 1
        }
        if !flag.isDisposed { observer.onCompleted() }
    }
}
