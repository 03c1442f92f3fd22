import FlowRuntime

/// Reading and changing a value's elements and members: `a[i]`, `d[k]`,
/// `t.name`, and the same as places an assignment writes.
extension Value {
    var isStream: Bool { if case .stream = self { true } else { false } }
    var isObject: Bool { if case .object = self { true } else { false } }

    /// `value.name`: an array's, a string's or a dictionary's property
    /// from the methods of values (`count`, `first`, `keys`: `methods`,
    /// looked up where the access is compiled), else a member (a record's
    /// field, a dictionary's key, a tuple's position, …).
    func property(_ name: String, methods: ValueMethods.Group?) throws -> Value {
        if let methods {
            switch self {
            case .array, .string, .int, .double: return try methods.call(on: self, labels: [], arguments: [])
            // A key of that name wins: `r.count` of `["count": 3]` is 3.
            case .dictionary(let d) where d[.string(name)] == nil: return try methods.call(on: self, labels: [], arguments: [])
            default: break
            }
        }
        if case .function(let keyed as KeyedValues) = self {
            throw FlowError("\(keyed.keyedName) has no member '\(name)': \(keyed.howItIsRead)")
        }
        return try member(name)
    }

    /// `a[i]`, `d["k"]` (nil when missing), `s[i]`, `t[i]`.
    func subscripted(by key: Value) throws -> Value {
        switch self {
        case .array(let a):
            if case .array(let positions) = key { return try .array(Self.slice(a, at: positions)) }
            let i = try key.asInt()
            guard a.indices.contains(i) else { throw FlowError("index \(i) out of range for an array of \(a.count) element\(a.count == 1 ? "" : "s")") }
            return a[i]
        case .tuple(let t):
            let i = try key.asInt()
            guard t.elements.indices.contains(i) else { throw FlowError("index \(i) out of range for a tuple of \(t.elements.count)") }
            return t.elements[i]
        case .string(let s):
            let i = try key.asInt()
            guard i >= 0, i < s.count else { throw FlowError("index \(i) out of range for a string of \(s.count) characters") }
            return .string(String(s[s.index(s.startIndex, offsetBy: i)]))
        case .dictionary(let d):
            return d[key] ?? .null
        case .function(let f as KeyedValues):
            return try f.value(forKey: key)
        default:
            throw FlowError("\(typeName) \(literal) cannot be subscripted")
        }
    }

    /// `xs[2...]`, `xs[..<2]`, `xs[...1]`: an array's elements on one side of a bound.
    func subscripted(by side: OneSidedRange, _ bound: Value) throws -> Value {
        guard case .array(let a) = self else {
            throw FlowError("\(typeName) \(literal) cannot be subscripted by a range: only an array can")
        }
        let i = try bound.asInt()
        let (low, high): (Int, Int) = switch side {
        case .from: (i, a.count)
        case .upTo: (0, i)
        case .through: (0, i == Int.max ? i : i + 1)
        }
        guard low >= 0, low <= high, high <= a.count else {
            throw FlowError("range \(side.written(String(i))) out of range for an array of \(a.count) element\(a.count == 1 ? "" : "s")")
        }
        return .array(Array(a[low..<high]))
    }

    /// `xs[1..<3]`: the elements in a range, which the language makes as
    /// the array of its Ints.
    private static func slice(_ elements: [Value], at positions: [Value]) throws -> [Value] {
        try positions.map { position in
            let i = try position.asInt()
            guard elements.indices.contains(i) else {
                let (low, high) = (try positions.first!.asInt(), try positions.last!.asInt())
                throw FlowError("range \(low)...\(high) out of range for an array of \(elements.count) element\(elements.count == 1 ? "" : "s")")
            }
            return elements[i]
        }
    }

    var isString: Bool { if case .string = self { true } else { false } }

    /// Changes a member in place: a struct's or record's field, a tuple's
    /// position, a dictionary's key (nil removes it).
    mutating func updateMember(_ name: String, _ body: (inout Value) throws -> Void) throws {
        // Taken out before it changes (see `ValueMethod.changingArray`): a
        // tuple and the element changed are then referenced once.
        if case .tuple(var t) = self,
           let i = t.labels?.firstIndex(of: name) ?? Int(name).flatMap({ t.elements.indices.contains($0) ? $0 : nil }) {
            self = .null
            defer { self = .tuple(t) }
            var element = t.elements[i]
            t.elements[i] = .null
            defer { t.elements[i] = element }
            try body(&element)
            return
        }
        if case .dictionary = self {
            try updateSubscript(.string(name), body)
            return
        }
        // An object is changed where it is: every name holding it sees the change.
        if case .object(let object) = self, let i = object.objectClass.fieldIndex(name) {
            // Foundation's DateFormatter: its setters change more than the property.
            if object.objectClass === DateFormatterValue.objectClass {
                let old = object.fields[i]
                try object.updateField(i, body)
                return try DateFormatterValue.changed(object, field: i, from: old)
            }
            try object.updateField(i, body)
            return
        }
        throw FlowError("\(typeName) \(literal) has no member '\(name)' to change")
    }

    /// Changes an element in place: an array's (by index) or a
    /// dictionary's (by key; nil removes it, as in Swift).
    mutating func updateSubscript(_ key: Value, _ body: (inout Value) throws -> Void) throws {
        if case .array(var a) = self {
            let i = try key.asInt()
            guard a.indices.contains(i) else {
                throw FlowError("index \(i) out of range for an array of \(a.count) element\(a.count == 1 ? "" : "s")")
            }
            self = .null
            defer { self = .array(a) }
            var element = a[i]
            a[i] = .null
            defer { a[i] = element }
            try body(&element)
            return
        }
        guard case .dictionary(var d) = self else { throw FlowError("\(typeName) \(literal) cannot be changed by subscript") }
        self = .null
        defer { self = .dictionary(d) }
        var element = d[key] ?? .null
        // Kept in place (not removed) while it changes: a dictionary
        // keeps its keys in the order they were added.
        if !element.isNull { d[key] = .null }
        do { try body(&element) } catch {
            if !element.isNull { d[key] = element }
            throw error
        }
        d[key] = element.isNull ? Value?.none : element
    }
}
