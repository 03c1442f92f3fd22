extension OperatorSpec {
    static let timer = OperatorSpec("timer", aliases: ["timer(interval:)"], .creation, .function,
        "emits 0 after a delay, then completes (or keeps emitting every period)", [
        Signature([arg("delay", .duration).nonNegative(), labelled("period", .duration, optional: true).positive()]) {
            .stream(.timer(try $0.duration(0), period: try $0.optionalDuration(1)))
        },
        // CwlSignal: Signal.timer(interval: d, value: v).
        Signature([arg("delay", .duration).nonNegative(), labelled("value", .value)]) {
            let value = $0.value(1)!
            return .stream(.timer(try $0.duration(0)).map(Function.unary(name: "timer") { _ in value }))
        },
        // RxJS: timer(dueTime, period).
        Signature([arg("delay", .duration).nonNegative(), arg("period", .duration).positive()]) {
            .stream(.timer(try $0.duration(0), period: try $0.optionalDuration(1)))
        },
    ], example: #"""
            marbles(timer(3ms), timer(2ms, period: 3ms).take(3))
            """#,
        differences: "A bare number is milliseconds, as in RxJS (`timer(1000)`); Combine and RxSwift write durations (`.seconds(1)`), which flow reads too. RxJS's `timer(due, period)` is `timer(due, period: p)`; CwlSignal's `Signal.timer(interval: d, value: v)` emits v at d.", traits: .readsTheClock)
}

extension Observable {
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
