extension OperatorSpec {
    static let first = method("first", aliases: ["first(where:)"], .filtering, "the first value (matching the predicate), then completion", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("--a-b|")
            let empty = cold("---|")
            marbles(source, source.first(), empty.first())
            """#,
        differences: "On a stream that completes with no (matching) value, flow and RxJS fail with \"no elements\"; Combine's `first()` just completes and RxSwift's `first()` emits nil. RxJS's error says \"no elements in sequence\". `import Combine`, `import RxSwift` and `import RxJS` give each library's behaviour; in any dialect, `take(1)` completes quietly and `find { _ in true }` emits nil.") {
        $0.first(try $1.optionalFunction(0), dialect: $1.context.dialect)
    }
}

extension Observable {
    /// The first value (matching `predicate`, when given), then completion;
    /// error "no elements" if there is none.
    public func first(_ predicate: Function? = nil, dialect: Dialect = .flow) -> Observable {
        SinkNode("first", self) { observer, _ in ElementSink(observer, mode: .first, predicate: predicate, dialect: dialect) }
    }
}
