extension OperatorSpec {
    static let sum = method("sum", .aggregation, "the sum of the values, at completion", [],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.sum())
            """#,
        differences: "None of the three has it: `reduce(0, +)`.") { s, _ in s.sum() }
}

extension Observable {
    /// The sum of the values (0 when there are none).
    public func sum() -> Observable {
        aggregate("sum", .int(0)) { state, value in try Value.add(state!, value) } finish: { $0! }
    }
}
