import FlowRuntime

/// Array's methods. A string, a dictionary or a tuple without a method of
/// its own by the name reads as an array (of characters, of `(key, value)`
/// entries, of elements).
extension ValueMethod {
    static let arrayMethods: [ValueMethod] = [
        .array("count", [noArguments, [closureArg("where")]], "the number of elements (that satisfy where:)",
               example: "print([1, 2, 3].count, [1, 2, 3].count { $0 > 1 })") { a, args in
            if args.labels == ["where"] { let f = try args.function(0); return .int(try a.reduce(0) { try f.test($1) ? $0 + 1 : $0 }) }
            try args.expect(0)
            return .int(a.count)
        },
        .array("randomElement", [noArguments], "an element chosen at random, or nil when there is none (seeded in virtual time, so runs repeat)",
               example: "print([7, 7, 7].randomElement()!, [Int]().randomElement() == nil)") { a, args in
            try args.expect(0)
            var draws = args.randomDraws
            return a.randomElement(using: &draws) ?? .null
        },
        .array("shuffled", [noArguments], "the elements in a random order (seeded in virtual time, so runs repeat)",
               example: "print([1, 2, 3].shuffled().sorted(), [5].shuffled())") { a, args in
            try args.expect(0)
            var draws = args.randomDraws
            return .array(a.shuffled(using: &draws))
        },
        .array("isEmpty", [noArguments], "whether there are no elements", example: "print([Int]().isEmpty)") { a, args in
            try args.expect(0)
            return .bool(a.isEmpty)
        },
        .array("map", [[closureArg()]], "each element transformed", example: "print([1, 2].map { $0 * 10 })") { a, args in
            try args.expect(1)
            let f = try args.function(0)
            return .array(try a.map { try f.call($0) })
        },
        .array("compactMap", [[closureArg()]], "each element transformed, nils dropped",
               example: #"print(["1", "x", "3"].compactMap { Int($0) })"#) { a, args in
            try args.expect(1)
            let f = try args.function(0)
            return .array(try a.compactMap { element -> Value? in let v = try f.call(element); return v.isNull ? .none : v })
        },
        .array("flatMap", [[closureArg()]], "each element's array, joined", example: "print([1, 2].flatMap { [$0, $0] })") { a, args in
            try args.expect(1)
            let f = try args.function(0)
            return .array(try a.flatMap { try f.call($0).asArray() })
        },
        .array("forEach", [[closureArg()]], "calls the closure with each element, in order",
               example: "[1, 2].forEach { print($0 * 10) }") { a, args in
            try args.expect(1)
            let f = try args.function(0)
            for element in a { _ = try f.call(element) }
            return .null
        },
        .array("filter", [[closureArg()]], "the elements that satisfy the closure", example: "print([1, 2, 3, 4].filter { $0 % 2 == 0 })") { a, args in
            try args.expect(1)
            let f = try args.function(0)
            return .array(try a.filter { try f.test($0) })
        },
        .array("reduce", [[arg("initial", .value), closureArg()], [labelled("into", .value), closureArg()]],
               "folds the elements into one value; into: changes its inout state ($0) in place",
               example: "print([1, 2, 3].reduce(0) { $0 + $1 }, [1, 2, 3].reduce(into: [Int]()) { $0.insert($1, at: 0) })") { a, args in
            try args.expect(2)
            let f = try args.function(1)
            if args.labels.first == "into" {
                var state = args.values[0]
                for element in a { try f.update(&state, with: element) }
                return state
            }
            return try a.reduce(args.values[0]) { try f.call($0, $1) }
        },
        .array("contains", [[arg("element", .value)], [closureArg("where")]], "whether an element equals the value (or satisfies where:)",
               example: "print([1, 2].contains(2), [1, 2].contains { $0 > 5 })") { a, args in
            if args.labels == ["where"] { let f = try args.function(0); return .bool(try a.contains { try f.test($0) }) }
            try args.expect(1)
            return .bool(a.contains(args.values[0]))
        },
        .array("allSatisfy", [[closureArg()]], "whether every element satisfies the closure",
               example: "print([2, 4].allSatisfy { $0 % 2 == 0 })") { a, args in
            try args.expect(1)
            let f = try args.function(0)
            return .bool(try a.allSatisfy { try f.test($0) })
        },
        .array("first", [noArguments, [closureArg("where")]], "the first element (that satisfies where:), or nil",
               example: "print([5, 6, 7].first!, [5, 6, 7].first { $0 > 5 }!)") { a, args in
            if args.values.isEmpty { return a.first ?? .null }
            try args.expect(1, labels: ["where"])
            let f = try args.function(0)
            return try a.first { try f.test($0) } ?? .null
        },
        .array("last", [noArguments, [closureArg("where")]], "the last element (that satisfies where:), or nil",
               example: "print([5, 6, 7].last!, [5, 6, 7].last { $0 < 7 }!)") { a, args in
            if args.labels == ["where"] { let f = try args.function(0); return try a.last { try f.test($0) } ?? .null }
            try args.expect(0)
            return a.last ?? .null
        },
        .array("firstIndex", [[labelled("of", .value)], [closureArg("where")]], "the index of the first match, or nil",
               example: #"print(["a", "b"].firstIndex(of: "b")!)"#) { a, args in
            if args.labels == ["where"] { let f = try args.function(0); return try a.firstIndex { try f.test($0) }.map(Value.int) ?? .null }
            try args.expect(1, labels: ["of"])
            return a.firstIndex(of: args.values[0]).map(Value.int) ?? .null
        },
        .array("sorted", [noArguments, [closureArg("by")]], "the elements in order (by: says whether the first goes before the second)",
               example: "print([3, 1, 2].sorted(), [3, 1, 2].sorted { $0 > $1 })") { a, args in
            let less = try args.ordering()
            return .array(try ValueMethods.sort(a, by: less))
        },
        .array("reversed", [noArguments], "the elements from last to first", example: "print([1, 2, 3].reversed())") { a, args in
            try args.expect(0)
            return .array(a.reversed())
        },
        .array("min", [noArguments, [closureArg("by")]], "the least element, or nil", example: "print([3, 1, 2].min()!)") { a, args in
            try extreme(a, less: try args.ordering(), keepsLeast: true)
        },
        .array("max", [noArguments, [closureArg("by")]], "the greatest element, or nil", example: "print([3, 1, 2].max()!)") { a, args in
            try extreme(a, less: try args.ordering(), keepsLeast: false)
        },
        .array("sum", [noArguments], "the elements added up (flow's, as Swift writes reduce(0, +))", example: "print([1, 2, 3].sum())") { a, args in
            try args.expect(0)
            return try a.reduce(.int(0)) { try Value.add($0, $1) }
        },
        .array("joined", [noArguments, [labelled("separator", .string)]], "the elements as text, joined",
               example: #"print(["a", "b"].joined(separator: ", "))"#) { a, args in
            let separator = args.values.isEmpty ? "" : try args.string(0)
            if !args.values.isEmpty { try args.expect(1, labels: ["separator"]) }
            try MemoryBudget.checkJoining(a, separator: separator.utf8.count, "joining an array's elements")
            return .string(a.map(\.description).joined(separator: separator))
        },
        .array("prefix", [[arg("maxLength", .int).nonNegative()]], "the first n elements", example: "print([1, 2, 3].prefix(2))") { a, args in
            try args.expect(1)
            return .array(Array(a.prefix(try args.count())))
        },
        .array("suffix", [[arg("maxLength", .int).nonNegative()]], "the last n elements", example: "print([1, 2, 3].suffix(2))") { a, args in
            try args.expect(1)
            return .array(Array(a.suffix(try args.count())))
        },
        .array("dropFirst", [noArguments, [arg("k", .int).nonNegative()]], "all but the first (n) elements",
               example: "print([1, 2, 3].dropFirst())") { a, args in
            .array(Array(a.dropFirst(try args.count())))
        },
        .array("dropLast", [noArguments, [arg("k", .int).nonNegative()]], "all but the last (n) elements",
               example: "print([1, 2, 3].dropLast(2))") { a, args in
            .array(Array(a.dropLast(try args.count())))
        },
        .array("enumerated", [noArguments], "(offset, element) pairs",
               example: #"for (i, s) in ["a", "b"].enumerated() { print("\(i) \(s)") }"#) { a, args in
            try args.expect(0)
            return .array(a.enumerated().map { .tuple(Tuple([.int($0.offset), $0.element], labels: ["offset", "element"])) })
        },
        .array("appending", [[arg("element", .value)]], "a copy with the element added at the end",
               example: "print([1].appending(2))") { a, args in
            try args.expect(1)
            return .array(a + [args.values[0]])
        },

        // Changing the array where it lives: called on a var.
        .changingArray("append", [[arg("element", .value)], [labelled("contentsOf", .value)]], "adds an element (or an array's) at the end",
                       example: "var a = [1]\na.append(2)\na.append(contentsOf: [3, 4])\nprint(a)") { array, args in
            if args.labels == [nil] {
                try MemoryBudget.checkElements(array.count + 1, "appending to an array")
                array.append(args.values[0])
            } else {
                let added = try args.values[0].asArray()
                try MemoryBudget.checkElements(array.count + added.count, "appending to an array")
                array += added
            }
            return .null
        },
        .changingArray("insert", [[arg("element", .value), labelled("at", .int)], [labelled("contentsOf", .value), labelled("at", .int)]],
                       "puts an element (or an array's) at an index", example: "var a = [1, 3]\na.insert(2, at: 1)\nprint(a)") { array, args in
            let at = try index(args.values[1], in: array, allowingEnd: true)
            if args.labels.first == "contentsOf" { array.insert(contentsOf: try args.values[0].asArray(), at: at) } else { array.insert(args.values[0], at: at) }
            return .null
        },
        .changingArray("remove", [[labelled("at", .int)]], "removes the element at an index and returns it",
                       example: "var a = [1, 2, 3]\nprint(a.remove(at: 0))\nprint(a)") { array, args in
            array.remove(at: try index(args.values[0], in: array, allowingEnd: false))
        },
        .changingArray("removeFirst", [noArguments, [arg("k", .int)]], "removes the first element (and returns it) or the first n",
                       example: "var a = [1, 2, 3]\nprint(a.removeFirst())\nprint(a)") { array, args in
            if args.values.isEmpty {
                guard !array.isEmpty else { throw FlowError("cannot remove the first element of an empty array") }
                return array.removeFirst()
            }
            array.removeFirst(try removable(args, from: array))
            return .null
        },
        .changingArray("removeLast", [noArguments, [arg("k", .int)]], "removes the last element (and returns it) or the last n",
                       example: "var a = [1, 2, 3]\na.removeLast(2)\nprint(a)") { array, args in
            if args.values.isEmpty {
                guard !array.isEmpty else { throw FlowError("cannot remove the last element of an empty array") }
                return array.removeLast()
            }
            array.removeLast(try removable(args, from: array))
            return .null
        },
        .changingArray("popLast", [noArguments], "removes and returns the last element, or nil when empty",
                       example: "var a = [1]\nprint(a.popLast()!)\nprint(a.popLast() == nil)") { array, _ in
            array.popLast() ?? .null
        },
        .changingArray("removeAll", [noArguments, [closureArg("where")]], "removes every element (that satisfies where:)",
                       example: "var a = [1, 2, 3, 4]\na.removeAll { $0 % 2 == 0 }\nprint(a)") { array, args in
            if args.values.isEmpty {
                array.removeAll()
            } else {
                let predicate = try args.function(0)
                array = try array.filter { try !predicate.test($0) }
            }
            return .null
        },
        .changingArray("sort", [noArguments, [closureArg("by")]], "puts the elements in order, in place",
                       example: "var a = [3, 1, 2]\na.sort()\nprint(a)") { array, args in
            array = try ValueMethods.sort(array, by: try args.ordering())
            return .null
        },
        .changingArray("reverse", [noArguments], "reverses the elements, in place", example: "var a = [1, 2]\na.reverse()\nprint(a)") { array, _ in
            array.reverse()
            return .null
        },
    ]

    /// The least (or greatest) element by `less`; the first of equals.
    private static func extreme(_ a: [Value], less: (Value, Value) throws -> Bool, keepsLeast: Bool) throws -> Value {
        var best: Value?
        for v in a {
            if let current = best, try keepsLeast ? !less(v, current) : !less(current, v) { continue }
            best = v
        }
        return best ?? .null
    }

    private static func index(_ value: Value, in array: [Value], allowingEnd: Bool) throws -> Int {
        let i = try value.asInt()
        guard i >= 0, i < array.count || (allowingEnd && i == array.count) else {
            throw FlowError("index \(i) out of range for an array of \(array.count) element\(array.count == 1 ? "" : "s")")
        }
        return i
    }

    private static func removable(_ args: MethodArguments, from array: [Value]) throws -> Int {
        let n = try args.values.first?.asInt() ?? 1
        guard n >= 0, n <= array.count else {
            throw FlowError("cannot remove \(n) element\(n == 1 ? "" : "s") from an array of \(array.count)")
        }
        return n
    }
}
