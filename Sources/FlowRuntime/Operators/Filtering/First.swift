extension OperatorSpec {
    static let first = method("first", aliases: ["first(where:)"], .filtering, "the first value (matching the predicate), then completion", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("--a-b|")
            marbles(source, source.first())
            """#) {
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
