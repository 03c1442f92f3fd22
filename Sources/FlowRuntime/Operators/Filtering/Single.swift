extension OperatorSpec {
    static let single = method("single", .filtering, "the only value; an error if there are none or several", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("-a-b|")
            marbles(source, source.single())
            """#,
        differences: "RxSwift's and RxJS's `single()` fail when there is no value or more than one; Combine has none.") {
        $0.single(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// The only value (matching `predicate`), at completion. Error "no
    /// elements" if none, "more than one element" as soon as a second arrives.
    public func single(_ predicate: Function? = nil) -> Observable {
        SinkNode("single", self) { observer, _ in ElementSink(observer, mode: .single, predicate: predicate) }
    }
}
