extension OperatorSpec {
    static let measureInterval = method("measureInterval", .transformation, "the time since the previous value (or the subscription), in place of each value",
        [labelled("using", .value, optional: true), labelled("options", .value, optional: true)],
        example: #"""
            let source = cold("-a--b---c|")
            marbles(source, source.measureInterval(using: RunLoop.main))
            """#,
        differences: "Combine's `measureInterval(using:)` emits the stride alone; RxSwift's and RxJS's `timeInterval()` pair it with the value.") { source, _ in
        source.timeInterval().map(Function.unary(name: "measureInterval") { try $0.member("interval") })
    }
}
