extension OperatorSpec {
    static let allSatisfy = method("allSatisfy", aliases: ["every", "tryAllSatisfy"], .aggregation, "whether every value satisfies the predicate", [arg("predicate", .function)],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.allSatisfy { $0 < 3 })
            """#,
        differences: "Combine `allSatisfy`, RxJS `every`.") {
        $0.allSatisfy(try $1.function(0))
    }
}

extension Observable {
    /// `false` at the first value failing `predicate`, `true` if none does.
    public func allSatisfy(_ predicate: Function) -> Observable {
        decide("allSatisfy", whenFound: false) { try !predicate.test($0) }
    }
}
