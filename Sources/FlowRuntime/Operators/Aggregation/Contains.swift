extension OperatorSpec {
    static let contains = OperatorSpec("contains", .aggregation, .method,
        "whether some value equals the given one (or, with where:, satisfies the predicate)", [
        Signature([arg("element", .value)]) { .stream(try $0.source().contains($0.value(0)!)) },
        Signature([labelled("where", .function)]) { args in
            let predicate = try args.function(0)
            return .stream(try args.source().decide("contains", whenFound: true) { try predicate.test($0) })
        },
    ], example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.contains(2), source.contains(where: { $0 > 2 }))
            """#,
        differences: "Combine's `contains(_:)` and `contains(where:)`.")
}

extension Observable {
    /// `true` at the first value equal to `element`, `false` if none.
    public func contains(_ element: Value) -> Observable {
        decide("contains", whenFound: true) { $0 == element }
    }
}
