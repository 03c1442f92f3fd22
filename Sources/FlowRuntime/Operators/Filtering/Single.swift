extension OperatorSpec {
    static let single = method("single", aliases: ["asSingle"], .filtering, "the only value; an error if there are none or several", [optionalArg("predicate", .function)],
        example: #"""
            let one = cold("--a|")
            let two = cold("-a-b|")
            marbles(one, one.single(), two, two.single())
            """#,
        differences: "RxSwift's and RxJS's `single()` fail when there is no value or more than one, each with its own message under its import; RxSwift's `asSingle()` (a `Single` trait) is the same. Combine has none.") {
        $0.single(try $1.optionalFunction(0), dialect: $1.context.dialect)
    }
}

extension Observable {
    /// The only value (matching `predicate`), at completion. Error "no
    /// elements" if none, "more than one element" as soon as a second arrives.
    public func single(_ predicate: Function? = nil, dialect: Dialect = .flow) -> Observable {
        SinkNode("single", self) { observer, _ in ElementSink(observer, mode: .single, predicate: predicate, dialect: dialect) }
    }
}
