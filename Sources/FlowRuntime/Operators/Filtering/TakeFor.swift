extension OperatorSpec {
    static let takeFor = method("takeFor", aliases: ["take(for:)"], .filtering,
        "the values of the given duration from subscription, then completion (RxSwift's take(for:))",
        [arg("duration", .duration).nonNegative()],
        example: #"""
            let source = cold("-a-b-c-d|")
            marbles(source, source.takeFor(4ms))
            """#,
        differences: "RxSwift's `take(for:scheduler:)`; RxJS writes `takeUntil(timer(d))`, Combine `prefix(untilOutputFrom: Timer...)`.") { $0.takeUntil(.timer(try $1.duration(0))) }
}
