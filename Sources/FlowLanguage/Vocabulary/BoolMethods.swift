import FlowRuntime

/// Bool's method.
extension ValueMethod {
    static let boolMethods: [ValueMethod] = [
        ValueMethod(name: "toggle", receiver: .bool, forms: [noArguments], summary: "turns true to false and false to true, in place",
                    example: "var on = false\non.toggle()\nprint(on)", body: .changing { receiver, args in
            guard case .bool(let b) = receiver else { throw ValueMethods.notMine("toggle", receiver) }
            try args.expect(0)
            receiver = .bool(!b)
            return .null
        }),
    ]
}
