extension OperatorSpec {
    static let replaceNil = method("replaceNil", aliases: ["replaceNil(with:)"], .transformation,
        "replaces each nil value with the given one (Combine)", [arg("value", .value)],
        example: #"""
            let source = cold("-a-n-b|", n: nil)
            marbles(source, source.replaceNil(with: "?"))
            """#,
        differences: "Combine's `replaceNil(with:)`; RxSwift writes `map { $0 ?? x }`, RxJS `map(v => v ?? x)`.") { source, args in
        let replacement = args.value(0)!
        return source.map(Function.unary(name: "replaceNil") { $0.isNull ? replacement : $0 })
    }
}
