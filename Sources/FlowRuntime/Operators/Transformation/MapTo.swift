extension OperatorSpec {
    static let mapTo = method("mapTo", .transformation, "replaces each value with the same constant (RxJS)", [arg("value", .value)],
        example: #"""
            let clicks = cold("-x--x-|")
            marbles(clicks, clicks.mapTo(1))
            """#,
        differences: "RxJS's; RxSwift and Combine write `map { _ in x }`.") { source, args in
        let constant = args.value(0)!
        return source.map(Function.unary(name: "mapTo") { _ in constant })
    }
}
