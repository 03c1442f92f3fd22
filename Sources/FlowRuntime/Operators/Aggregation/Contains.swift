extension OperatorSpec {
    static let contains = method("contains", .aggregation, "whether some value equals the given one", [arg("element", .value)],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.contains(2))
            """#) { $0.contains($1.value(0)!) }
}

extension Observable {
    /// `true` at the first value equal to `element`, `false` if none.
    public func contains(_ element: Value) -> Observable {
        decide("contains", whenFound: true) { $0 == element }
    }
}
