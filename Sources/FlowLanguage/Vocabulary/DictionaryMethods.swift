import Collections
import FlowRuntime

/// Dictionary's methods. The rest of Array's read a dictionary as an array
/// of its `(key, value)` entries, in the order the keys were added
/// (`d.map { $0.key }`, `d.sorted { $0.value > $1.value }`).
extension ValueMethod {
    static let dictionaryMethods: [ValueMethod] = [
        dictionary("count", [noArguments], "the number of entries", example: #"print(["a": 1].count)"#) { d, args in
            try args.expect(0)
            return .int(d.count)
        },
        dictionary("isEmpty", [noArguments], "whether there are no entries", example: "print([String: Int]().isEmpty)") { d, args in
            try args.expect(0)
            return .bool(d.isEmpty)
        },
        dictionary("keys", [noArguments], "the keys, in the order they were added", example: #"print(["a": 1, "b": 2].keys)"#) { d, args in
            try args.expect(0)
            return .array(Array(d.keys))
        },
        dictionary("values", [noArguments], "the values, in their keys' order", example: #"print(["a": 1, "b": 2].values)"#) { d, args in
            try args.expect(0)
            return .array(Array(d.values))
        },
        dictionary("mapValues", [[closureArg()]], "the same keys, each value transformed",
                   example: #"print(["a": 1].mapValues { $0 * 10 })"#) { d, args in
            try args.expect(1)
            let f = try args.function(0)
            var out = OrderedDictionary<Value, Value>()
            for (k, v) in d { out[k] = try f.call(v) }
            return .dictionary(out)
        },
        dictionary("contains", [[arg("key", .value)], [closureArg("where")]], "whether a key is there (or an entry satisfies where:)",
                   example: #"print(["a": 1].contains("a"), ["a": 1].contains { $0.value > 1 })"#) { d, args in
            if args.labels == ["where"] {
                let f = try args.function(0)
                return .bool(try d.contains { try f.test(.tuple(Tuple([$0.key, $0.value], labels: ["key", "value"]))) })
            }
            try args.expect(1)
            return .bool(d[args.values[0]] != nil)
        },

        // Changing the dictionary where it lives: called on a var.
        .changingDictionary("removeValue", [[labelled("forKey", .value)]], "removes a key's entry and returns its value, or nil",
                            example: "var d = [\"a\": 1, \"b\": 2]\nprint(d.removeValue(forKey: \"a\")!)\nprint(d)") { d, args in
            d.removeValue(forKey: args.values[0]) ?? .null
        },
        .changingDictionary("updateValue", [[arg("value", .value), labelled("forKey", .value)]],
                            "sets a key's value and returns the one it replaced, or nil",
                            example: "var d = [\"a\": 1]\nprint(d.updateValue(5, forKey: \"a\")!)\nprint(d)") { d, args in
            d.updateValue(args.values[0], forKey: args.values[1]) ?? .null
        },
        .changingDictionary("removeAll", [noArguments], "removes every entry",
                            example: "var d = [\"a\": 1]\nd.removeAll()\nprint(d.isEmpty)") { d, args in
            try args.expect(0)
            d.removeAll()
            return .null
        },
    ]

    private static func dictionary(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                                   _ body: @escaping @Sendable (OrderedDictionary<Value, Value>, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .dictionary, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            guard case .dictionary(let d) = receiver else { throw ValueMethods.notMine(name, receiver) }
            return try body(d, args)
        })
    }
}
