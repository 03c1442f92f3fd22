extension OperatorSpec {
    static let last = method("last", aliases: ["last(where:)"], .filtering, "the last value (matching the predicate), at completion", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("-a-b-|")
            let empty = cold("---|")
            marbles(source, source.last(), empty.last())
            """#,
        differences: "On an empty stream flow and RxJS fail (RxJS: \"no elements in sequence\"); Combine's `last()` completes (`import Combine`). RxSwift has no `last()`. `takeLast(1)` completes quietly in any dialect.") {
        $0.last(try $1.optionalFunction(0), dialect: $1.context.dialect)
    }
}

extension Observable {
    /// The last value (matching `predicate`), at completion; error "no elements" if none.
    public func last(_ predicate: Function? = nil, dialect: Dialect = .flow) -> Observable {
        SinkNode("last", self) { observer, _ in ElementSink(observer, mode: .last, predicate: predicate, dialect: dialect) }
    }
}
