extension OperatorSpec {
    static let flatMap = method("flatMap", aliases: ["mergeMap", Spelling("flatMap", label: "maxPublishers", means: "maxConcurrent")], .higherOrder, "maps each value to a stream and merges them",
        [labelled("maxConcurrent", .int, optional: true).positive(), arg("transform", .function)],
        example: #"""
            let source = cold("-a--b---|")
            marbles(source, source.flatMap { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#,
        differences: "RxSwift's and RxJS's flatMap/mergeMap merge without limit unless given one; Combine's `flatMap(maxPublishers: .max(n))` is `flatMap(maxConcurrent: n)`.") {
        $0.flatMap(maxConcurrent: try $1.optionalInt(0), try $1.function(1))
    }
}

extension Observable {
    /// Maps each value to a stream and merges them (`maxConcurrent` at a
    /// time, the rest queued in order). Completes when the source and every
    /// inner have completed; any error ends everything.
    public func flatMap(maxConcurrent: Int? = nil, _ transform: Function) -> Observable {
        flatten(name: "flatMap", strategy: .merge(maxConcurrent: maxConcurrent), transform: transform)
    }
}
