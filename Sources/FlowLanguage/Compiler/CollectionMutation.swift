import FlowRuntime

/// Swift's mutating collection methods (`append`, `remove(at:)`, `sort`,
/// `toggle`, ...), called on a `var` or a member or element of one: they
/// change it where it lives.
enum CollectionMutation {
    /// Each method's forms, by labels; a trailing closure takes the last
    /// label of a form that ends in one.
    static let forms: [String: [[String?]]] = [
        "append": [[nil], ["contentsOf"]],
        "insert": [[nil, "at"], ["contentsOf", "at"]],
        "remove": [["at"]],
        "removeFirst": [[], [nil]], "removeLast": [[], [nil]], "popLast": [[]],
        "removeAll": [[], ["where"]],
        "removeValue": [["forKey"]], "updateValue": [[nil, "forKey"]],
        "sort": [[], ["by"]], "reverse": [[]], "toggle": [[]],
    ]

    static let names = Set(forms.keys)
    private static let closureLabels: Set<String> = ["where", "by"]

    /// The labels of a call, once a trailing closure has taken its label;
    /// nil when no form fits.
    static func labels(of name: String, given: [String?], trailingClosure: Bool) -> [String?]? {
        for form in forms[name] ?? [] {
            if form == given { return given }
            if trailingClosure, form.count == given.count, let last = form.last ?? nil, closureLabels.contains(last),
               Array(form.dropLast()) == Array(given.dropLast()) {
                return form
            }
        }
        return nil
    }

    static func describe(_ name: String) -> String {
        (forms[name] ?? []).map { form in "\(name)(" + form.map { "\($0 ?? "_"):" }.joined() + ")" }.joined(separator: " or ")
    }

    /// Changes `value` in place and returns what the method returns.
    ///
    /// The collection is taken out of `value` (left nil) before it changes,
    /// so that it is referenced once and Swift's copy on write does not
    /// copy it: a loop of appends is linear. (`if case` then clearing the
    /// value does this; a `switch` over it would keep a second reference
    /// for as long as the switch lasts.)
    static func apply(_ name: String, labels: [String?], to value: inout Value, arguments: [Value]) throws -> Value {
        if case .array(var array) = value {
            value = .null
            defer { value = .array(array) }
            return try apply(name, labels: labels, to: &array, arguments: arguments)
        }
        if case .dictionary(var dictionary) = value {
            switch (name, labels) {
            case ("removeValue", _), ("updateValue", _), ("removeAll", []):
                value = .null
                defer { value = .dictionary(dictionary) }
                switch name {
                case "removeValue": return dictionary.removeValue(forKey: arguments[0]) ?? .null
                case "updateValue": return dictionary.updateValue(arguments[0], forKey: arguments[1]) ?? .null
                default:
                    dictionary.removeAll()
                    return .null
                }
            default: break
            }
        }
        if case .string(var string) = value {
            switch (name, labels) {
            case ("append", _):
                let added = try arguments[0].asString()
                try MemoryBudget.checkString(bytes: string.utf8.count + added.utf8.count, "appending to a string")
                value = .null
                string += added
                value = .string(string)
                return .null
            case ("removeAll", []):
                value = .string("")
                return .null
            case ("removeLast", []), ("removeFirst", []):
                let which = name == "removeLast" ? "last" : "first"
                guard !string.isEmpty else { throw FlowError("cannot remove the \(which) character of an empty string") }
                value = .null
                let removed = name == "removeLast" ? string.removeLast() : string.removeFirst()
                value = .string(string)
                return .string(String(removed))
            default: break
            }
        }
        if case .bool(let b) = value, name == "toggle" {
            value = .bool(!b)
            return .null
        }
        throw FlowError("\(value.typeName) \(value.literal) has no mutating method \(name)(\(labels.map { "\($0 ?? "_"):" }.joined()))")
    }

    private static func apply(_ name: String, labels: [String?], to array: inout [Value], arguments: [Value]) throws -> Value {
        func index(_ value: Value, allowingEnd: Bool) throws -> Int {
            let i = try value.asInt()
            guard i >= 0, i < array.count || (allowingEnd && i == array.count) else {
                throw FlowError("index \(i) out of range for an array of \(array.count) element\(array.count == 1 ? "" : "s")")
            }
            return i
        }
        func count(_ arguments: [Value]) throws -> Int {
            let n = try arguments.first?.asInt() ?? 1
            guard n >= 0, n <= array.count else {
                throw FlowError("cannot remove \(n) element\(n == 1 ? "" : "s") from an array of \(array.count)")
            }
            return n
        }
        switch (name, labels) {
        case ("append", [nil]):
            try MemoryBudget.checkElements(array.count + 1, "appending to an array")
            array.append(arguments[0])
        case ("append", _):
            let added = try arguments[0].asArray()
            try MemoryBudget.checkElements(array.count + added.count, "appending to an array")
            array += added
        case ("insert", [nil, "at"]): array.insert(arguments[0], at: try index(arguments[1], allowingEnd: true))
        case ("insert", _): array.insert(contentsOf: try arguments[0].asArray(), at: try index(arguments[1], allowingEnd: true))
        case ("remove", _): return array.remove(at: try index(arguments[0], allowingEnd: false))
        case ("removeFirst", _):
            if arguments.isEmpty {
                guard !array.isEmpty else { throw FlowError("cannot remove the first element of an empty array") }
                return array.removeFirst()
            }
            array.removeFirst(try count(arguments))
        case ("removeLast", _):
            if arguments.isEmpty {
                guard !array.isEmpty else { throw FlowError("cannot remove the last element of an empty array") }
                return array.removeLast()
            }
            array.removeLast(try count(arguments))
        case ("popLast", _): return array.popLast() ?? .null
        case ("removeAll", []): array.removeAll()
        case ("removeAll", _):
            let predicate = try arguments[0].asFunction()
            array = try array.filter { try !predicate.test($0) }
        case ("sort", _), ("reverse", _):
            let helper = name == "sort" ? "sorted" : "reversed"
            array = try CollectionHelpers.call(helper, on: .array(array), labels: labels, arguments: arguments).asArray()
        default:
            throw FlowError("Array has no mutating method \(name)(\(labels.map { "\($0 ?? "_"):" }.joined()))")
        }
        return .null
    }
}

extension Compiler {
    /// `list.append(x)`, `counts.removeValue(forKey: k)`, `done.toggle()`.
    /// Where the name is also a stream operator (`fallback`), a `var`
    /// holding a stream gets the operator.
    func compileCollectionMutation(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope,
                                   fallback: ((Expr) -> Code)?) -> Code? {
        guard CollectionMutation.names.contains(name) else { return nil }
        let labels = CollectionMutation.labels(of: name, given: arguments.map(\.label), trailingClosure: arguments.last?.isTrailing == true)
        if let fallback {
            // Only a var can be changed; anything else is the operator.
            guard labels != nil, Self.isPlace(base), let root = Self.placeRoot(base) else { return nil }
            if let entry = scope.resolve(root)?.entry, !entry.binding.isMutable {
                // A constant holding an array: say why it cannot change.
                let read = compile(base, in: scope), operatorCall = fallback(base)
                let location = self.location(nameSpan)
                return { frame in
                    if try !read(frame).isStream {
                        throw FlowError("'\(name)' changes the value it is called on, and '\(root)' is a constant: declare it with var",
                                        at: location)
                    }
                    return try operatorCall(frame)
                }
            }
            guard isChangeable(root: root, in: scope) else { return nil }
        }
        guard let labels else {
            error("no form of '\(name)' takes these arguments; it takes \(CollectionMutation.describe(name))", nameSpan)
            return { _ in .null }
        }
        guard Self.isPlace(base) else {
            error("'\(name)' changes the value it is called on: call it on a var", nameSpan,
                  help: "as in var list = [1]; list.\(name)(...)")
            return { _ in .null }
        }
        guard let place = compilePlace(base, in: scope) else { return { _ in .null } }
        let args = compileArguments(arguments, in: scope)
        let location = self.location(nameSpan)
        let (slot, other) = compileThroughHiddenSlot(fallback, base, nameSpan, in: scope)
        return { frame in
            if let other {
                var stream: Value?
                try place(frame) { value in if value.isStream { stream = value } }
                if let stream {
                    frame.slots[slot] = stream
                    return try other(frame)
                }
            }
            let values = try args.evaluate(frame)
            var result = Value.null
            try place(frame) { value in
                result = try located(location) { try CollectionMutation.apply(name, labels: labels, to: &value, arguments: values) }
            }
            return result
        }
    }
}
