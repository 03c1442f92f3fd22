extension OperatorSpec {
    static let flatMapFirst = OperatorSpec("flatMapFirst", aliases: ["exhaustMap", "exhaustAll", "exhaust"], .higherOrder, .method,
        "maps each value to a stream, ignoring values while one runs; with no closure, on a stream of streams, follows one inner stream at a time", [
        Signature([arg("transform", .function)]) { .stream(try $0.source().flatMapFirst($0.function(0))) },
        Signature([]) { .stream(try $0.source().flatten(name: "exhaustAll", strategy: .first, transform: nil)) },
    ], example: #"""
            let source = cold("-a-b---c|")
            marbles(source, source.flatMapFirst { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#,
        differences: "RxSwift `flatMapFirst`, RxJS `exhaustMap`; Combine has none.")
}

extension Observable {
    /// Maps each value to a stream, ignoring values while an inner is running.
    public func flatMapFirst(_ transform: Function) -> Observable {
        flatten(name: "flatMapFirst", strategy: .first, transform: transform)
    }
}
