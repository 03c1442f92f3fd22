extension OperatorSpec {
    static let min = method("min", .aggregation, "the smallest value, at completion", [],
        example: #"""
            let source = cold("-3-1-2|")
            marbles(source, source.min())
            """#,
        differences: "Combine `min()` and RxJS `min()`; RxSwift writes `reduce`.") { s, _ in s.min() }
}

extension Observable {
    /// The smallest value; an empty stream completes without one.
    public func min() -> Observable { extremum("min", keepIf: { $0 < 0 }) }

    func extremum(_ name: String, keepIf better: @escaping (Int) -> Bool) -> Observable {
        aggregate(name, nil) { state, value in
            guard let state else { return value }
            return better(try value.compare(to: state)) ? value : state
        } finish: { $0 }
    }
}
