extension OperatorSpec {
    static let of = source("of", "emits each argument in order, then completes", [variadic("values", .value)],
        example: #"""
            marbles(of(1, 2, 3))
            """#) { .from($0.all(0), name: "of") }
}
