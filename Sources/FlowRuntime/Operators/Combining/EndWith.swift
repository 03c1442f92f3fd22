extension OperatorSpec {
    static let endWith = method("endWith", aliases: ["append"], .combining,
        "emits the given values after the source completes (given streams, Combine's append: their values, one stream after another)",
        [variadic("values", .value)],
        example: #"""
            let source = cold("-a|")
            marbles(source, source.endWith(9))
            """#,
        differences: "RxJS `endWith`, Combine `append`; RxSwift writes `concat(Observable.just(x))`.") {
        $0.endWith($1.all(0))
    }
}

extension Observable {
    /// The source, then `values` once it completes.
    public func endWith(_ values: [Value]) -> Observable {
        // A concat by another name, flattened with its neighbours as startWith is.
        StaticFlattenNode("endWith", [self] + (Observable.streams(in: values) ?? [.from(values, name: "of")]), strategy: .merge(maxConcurrent: 1))
    }
}
