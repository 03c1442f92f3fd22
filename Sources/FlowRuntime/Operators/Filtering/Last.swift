extension OperatorSpec {
    static let last = method("last", aliases: ["last(where:)"], .filtering, "the last value (matching the predicate), at completion", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("-a-b-|")
            marbles(source, source.last())
            """#,
        differences: "As for `first`: flow and RxJS fail with \"no elements\" on an empty stream; Combine completes, RxSwift emits nil. `takeLast(1)` completes quietly.") {
        $0.last(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// The last value (matching `predicate`), at completion; error "no elements" if none.
    public func last(_ predicate: Function? = nil) -> Observable {
        SinkNode("last", self) { observer, _ in ElementSink(observer, mode: .last, predicate: predicate) }
    }
}
