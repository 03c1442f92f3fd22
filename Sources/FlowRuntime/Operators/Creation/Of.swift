extension OperatorSpec {
    static let of = source("of", "emits each argument in order, then completes", [variadic("values", .value)],
        example: #"""
            marbles(of(1, 2, 3))
            """#,
        differences: "RxSwift `Observable.of(a, b)`, RxJS `of(a, b)`; Combine writes `[a, b].publisher`.") { .from($0.all(0), name: "of") }
}
