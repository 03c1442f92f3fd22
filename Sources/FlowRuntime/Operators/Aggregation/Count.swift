extension OperatorSpec {
    static let count = method("count", .aggregation, "how many values (matching the predicate) there were", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.count())
            """#) {
        $0.count(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// How many values (matching `predicate`, when given) the stream had.
    public func count(_ predicate: Function? = nil) -> Observable {
        aggregate("count", .int(0)) { state, value in
            if let predicate, try !predicate.test(value) { return state! }
            return try Value.add(state!, .int(1))
        } finish: { $0! }
    }
}
