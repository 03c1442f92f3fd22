extension OperatorSpec {
    static let flatMap = OperatorSpec("flatMap", aliases: ["mergeMap", Spelling("flatMap", label: "maxPublishers", means: "maxConcurrent")],
        .higherOrder, .method, "maps each value to a stream and merges them", [
        Signature([labelled("maxConcurrent", .int, optional: true).positive(), arg("transform", .function)]) {
            .stream(try $0.source().flatMap(maxConcurrent: $0.optionalInt(0), $0.function(1)))
        },
        // RxJS: mergeMap(project, concurrent).
        Signature([arg("transform", .function), arg("maxConcurrent", .int).positive()]) {
            .stream(try $0.source().flatMap(maxConcurrent: $0.optionalInt(1), $0.function(0)))
        },
    ], example: #"""
            let source = cold("-a--b---|")
            marbles(source, source.flatMap { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#,
        differences: "RxSwift's and RxJS's flatMap/mergeMap merge without limit unless given one; Combine's `flatMap(maxPublishers: .max(n))` and RxJS's `mergeMap(f, n)` are `flatMap(maxConcurrent: n)`.")
}

extension Observable {
    /// Maps each value to a stream and merges them (`maxConcurrent` at a
    /// time, the rest queued in order). Completes when the source and every
    /// inner have completed; any error ends everything.
    public func flatMap(maxConcurrent: Int? = nil, _ transform: Function) -> Observable {
        flatten(name: "flatMap", strategy: .merge(maxConcurrent: maxConcurrent), transform: transform)
    }
}
