extension OperatorSpec {
    static let timestamp = method("timestamp", .transformation, "pairs each value with the time it arrived: (value:, time:)", [],
        example: #"""
            let source = cold("-a--b|")
            marbles(source, source.timestamp().map { $0.time })
            """#,
        differences: "RxJS's `timestamp()` (`{ value, timestamp }`); flow's time is the run's clock, exact in virtual time.") { s, _ in s.timestamp() }
}

extension Observable {
    /// Each value with the scheduler time it arrived: `(value: v, time: 5ms)`.
    public func timestamp() -> Observable {
        SinkNode("timestamp", self) { observer, scheduler in
            StampSink(observer, scheduler: scheduler, label: "time") { now, _ in now }
        }
    }
}

final class StampSink: Sink {
    private let scheduler: Scheduler
    private let label: String
    private let stamp: (TimeSpan, TimeSpan) -> TimeSpan
    private var last: TimeSpan

    init(_ downstream: Observer, scheduler: Scheduler, label: String, stamp: @escaping (TimeSpan, TimeSpan) -> TimeSpan) {
        self.scheduler = scheduler
        self.label = label
        self.stamp = stamp
        self.last = scheduler.now
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        let now = scheduler.now
        let time = stamp(now, last)
        last = now
        sendNext(.tuple(Tuple([value, .duration(time)], labels: ["value", label])))
    }
}
