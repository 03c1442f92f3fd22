extension OperatorSpec {
    static let first = method("first", aliases: ["first(where:)"], .filtering, "the first value (matching the predicate), then completion", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("--a-b|")
            marbles(source, source.first())
            """#,
        differences: "On a stream that completes with no (matching) value, flow and RxJS fail with \"no elements\"; Combine's `first()` just completes and RxSwift's `first()` emits nil. For Combine's behaviour write `take(1)`; for RxSwift's, `find { _ in true }`.") {
        $0.first(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// The first value (matching `predicate`, when given), then completion;
    /// error "no elements" if there is none.
    public func first(_ predicate: Function? = nil) -> Observable {
        SinkNode("first", self) { observer, _ in ElementSink(observer, mode: .first, predicate: predicate) }
    }
}
