extension OperatorSpec {
    static let partition = OperatorSpec("partition", .filtering, .both,
        "two streams: the values for which the predicate is true, and the others", [
        Signature([arg("predicate", .function)]) { args in try partitioned(args.source(), args.function(0)) },
        Signature([arg("source", .stream), arg("predicate", .function)]) { args in try partitioned(args.stream(0), args.function(1)) },
    ], example: #"""
            let source = cold("-1-2-3-4|")
            let (evens, odds) = partition(source) { $0 % 2 == 0 }
            marbles(source, evens, odds)
            """#,
        differences: "RxJS's `partition(source, predicate)` returns the pair as an array, `[matching, others]`; here it is a tuple, read as `let (a, b) = ...`, `p.0` or `p[0]`. Each of the two subscribes to the source on its own. RxSwift and Combine have none.")

    private static func partitioned(_ source: Observable, _ predicate: Function) -> Value {
        let others = Function.unary(name: "partition") { .bool(!(try predicate.test($0))) }
        return .tuple(Tuple([.stream(source.filter(predicate)), .stream(source.filter(others))]))
    }
}
