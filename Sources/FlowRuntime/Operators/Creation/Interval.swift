extension OperatorSpec {
    static let interval = source("interval", aliases: [Spelling("Timer.publish", label: "every", ignored: ["on", "in", "tolerance"])], "emits 0, 1, 2, ... at period, 2·period, ...", [arg("period", .duration).positive()],
        example: #"""
            marbles(interval(2ms).take(4))
            """#,
        differences: "A bare number is milliseconds, as in RxJS (`interval(1000)`); after Combine's `Timer.publish(every:)` label it is seconds. All three emit 0, 1, 2, ... starting one period after subscription.", traits: .readsTheClock) { .interval(try $0.duration(0)) }
}

extension Observable {
    /// Emits 0, 1, 2, ... at `period`, 2·`period`, 3·`period`, ... Never completes.
    public static func interval(_ period: TimeSpan) -> Observable {
        timer(period, period: period, name: "interval")
    }
}
