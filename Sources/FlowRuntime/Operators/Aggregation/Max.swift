extension OperatorSpec {
    static let max = method("max", .aggregation, "the largest value, at completion", [],
        example: #"""
            let source = cold("-3-1-2|")
            marbles(source, source.max())
            """#,
        differences: "Combine `max()` and RxJS `max()`; RxSwift writes `reduce`.") { s, _ in s.max() }
}

extension Observable {
    /// The largest value; an empty stream completes without one.
    public func max() -> Observable { extremum("max", keepIf: { $0 > 0 }) }
}
