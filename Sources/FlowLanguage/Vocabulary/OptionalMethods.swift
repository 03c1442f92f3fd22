import FlowRuntime

/// Optional's methods, for a value that is not a collection: nil stays
/// nil, anything else is given to the closure. (An optional array or
/// string is its collection's `map`: values carry no optional type.)
extension ValueMethod {
    static let optionalMethods: [ValueMethod] = [
        optional("map", "the value transformed, or nil when there is none",
                 example: "let n: Int? = 3\nlet none: Int? = nil\nprint(n.map { $0 * 2 } ?? 0, none.map { $0 * 2 } ?? 0)"),
        optional("flatMap", "the closure's optional result, or nil when there is no value",
                 example: "let n: Int? = 3\nprint(n.flatMap { $0 > 2 ? $0 * 10 : nil } ?? 0)"),
    ]

    private static func optional(_ name: String, _ summary: String, example: String) -> ValueMethod {
        ValueMethod(name: name, receiver: .optional, forms: [[closureArg()]], summary: summary, example: example, body: .reading { receiver, args in
            try args.expect(1)
            let f = try args.function(0)
            return receiver.isNull ? .null : try f.call(receiver)
        })
    }
}
