extension OperatorSpec {
    static let timeInterval = method("timeInterval", .transformation, "pairs each value with the time since the previous: (value:, interval:)", [],
        example: #"""
            let source = cold("-a--b|")
            marbles(source, source.timeInterval().map { $0.interval })
            """#,
        differences: "RxJS's `timeInterval()` (`{ value, interval }`); Combine's `measureInterval(using:)` emits the interval alone.") { s, _ in
        s.timeInterval()
    }
}

extension Observable {
    /// Each value with the time since the previous one (or since
    /// subscription): `(value: v, interval: 3ms)`.
    public func timeInterval() -> Observable {
        SinkNode("timeInterval", self) { observer, scheduler in
            StampSink(observer, scheduler: scheduler, label: "interval") { now, last in now - last }
        }
    }
}
