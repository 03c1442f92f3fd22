extension OperatorSpec {
    static let range = OperatorSpec("range", .creation, .function, "emits count consecutive integers from start, then completes", [
        Signature([arg("start", .int), arg("count", .int).nonNegative()]) { .stream(.range(start: try $0.int(0), count: try $0.int(1))) },
        Signature([labelled("start", .int), labelled("count", .int).nonNegative()]) {
            .stream(.range(start: try $0.int(0), count: try $0.int(1)))
        },
    ], example: #"""
            marbles(range(5, 3))
            """#,
        differences: "RxSwift `Observable.range(start:count:)` and RxJS `range(start, count)`; Combine writes `(start..<start + count).publisher`.")
}

extension Observable {
    /// Emits `count` consecutive integers from `start`, then completes.
    /// A negative count is an error when subscribed.
    public static func range(start: Int, count: Int) -> Observable {
        RangeNode(start: start, count: count)
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
        let downstream = StopSignal(subscribing: observer)
        guard count >= 0 else { return observer.onError(FlowError.argumentOutOfRange("range count \(count) is negative").located(at: location)) }
        let (end, overflow) = start.addingReportingOverflow(count)
        guard !overflow else { return observer.onError(FlowError.argumentOutOfRange("range end overflows").located(at: location)) }
        var i = start
        // Virtual time bounds a loop it cannot interrupt.
        let stop = count > VirtualScheduler.synchronousValueLimit && scheduler.isVirtual ? start + VirtualScheduler.synchronousValueLimit : end
        var untilLook = Interruption.stride
        while i < end {
            untilLook -= 1
            if untilLook == 0 {
                untilLook = Interruption.stride
                // The run is being stopped: its subscriptions are cancelled
                // once the loop is free.
                if scheduler.interruption?.isRequested == true { return }
            }
            if i == stop {
                return observer.onError(FlowError(
                    "range stopped after \(VirtualScheduler.synchronousValueLimit) values, the most one synchronous source emits in virtual time; is it meant to be endless?",
                    at: location))
            }
            if downstream.isStopped { return }
            observer.onNext(.int(i))
            i += 1
        }
        if !downstream.isStopped { observer.onCompleted() }
    }
}
