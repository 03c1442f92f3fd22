extension OperatorSpec {
    static let flatMapLatest = method("flatMapLatest", aliases: ["switchMap"], .higherOrder, "maps each value to a stream, cancelling the previous one",
        [arg("transform", .function)],
        example: #"""
            let source = cold("-a-b----|")
            marbles(source, source.flatMapLatest { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#,
        differences: "RxSwift `flatMapLatest`, RxJS `switchMap`; Combine writes `map` then `switchToLatest()`.") { $0.flatMapLatest(try $1.function(0)) }
}

extension Observable {
    /// Maps each value to a stream, cancelling the previous inner stream.
    public func flatMapLatest(_ transform: Function) -> Observable {
        flatten(name: "flatMapLatest", strategy: .latest, transform: transform)
    }
}
