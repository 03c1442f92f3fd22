extension OperatorSpec {
    static let withUnretained = method("withUnretained", .transformation, "each value paired with an object: (object, value), or the closure applied to both",
        [arg("object", .value), optionalArg("resultSelector", .function)],
        example: #"""
            let viewModel = ["name": "list"]
            let taps = cold("-t--t|")
            marbles(taps, taps.withUnretained(viewModel).map { owner, _ in owner.name })
            """#,
        differences: "RxSwift's `withUnretained(self)` holds `self` weakly and ends when it is gone; flow's values are never freed while a stream holds them, so it pairs each value with the object and goes on. Combine and RxJS have none.") {
        let object = $1.value(0)!
        guard let selector = try $1.optionalFunction(1) else {
            return $0.map(Function.unary(name: "withUnretained") { .tuple(Tuple([object, $0])) })
        }
        return $0.map(Function.unary(name: "withUnretained") { try selector.call(object, $0) })
    }
}
