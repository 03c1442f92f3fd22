extension OperatorSpec {
    static let sampleTime = method("sampleTime", .filtering,
        "every period, the latest value if a new one arrived since the last (RxJS; sample with an interval)",
        [arg("period", .duration).positive()],
        example: #"""
            let source = cold("-a-b-----c--|")
            marbles(source, source.sampleTime(4ms))
            """#,
        differences: "RxJS's `sampleTime(d)`: `sample(interval(d))` in the other two.") { $0.sample(.interval(try $1.duration(0))) }
}
