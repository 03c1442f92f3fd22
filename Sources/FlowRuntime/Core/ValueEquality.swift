/// Equality, hashing and ordering of values.
///
/// Numbers compare by value across Int and Double (`1 == 1.0`), as a script
/// writer expects; dictionaries compare regardless of insertion order;
/// closures and streams compare by identity.
extension Value: Hashable {
    @inlinable
    public static func == (lhs: Value, rhs: Value) -> Bool {
        if case .int(let a) = lhs, case .int(let b) = rhs { return a == b }
        return equalSlowly(lhs, rhs)
    }

    @usableFromInline
    static func equalSlowly(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): return Double(a) == b
        case let (.string(a), .string(b)): return a == b
        case let (.duration(a), .duration(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case (.tuple, _), (_, .tuple):
            // A number of a type the language defines equals any number of the same value (`Decimal(5) == 5`).
            if let arithmetic = NominalArithmetic.of(lhs, rhs) { return (try? arithmetic.compare(lhs, rhs)) == 0 }
            guard case let (.tuple(a), .tuple(b)) = (lhs, rhs) else { return false }
            return a.nominal == b.nominal && a.elements == b.elements
        case let (.dictionary(a), .dictionary(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a where b[key] != value { return false }
            return true
        case let (.function(a), .function(b)): return a === b
        case let (.stream(a), .stream(b)): return a === b
        case let (.object(a), .object(b)): return a === b
        case let (.event(a, _), .event(b, _)):
            switch (a, b) {
            case let (.next(x), .next(y)): return x == y
            case let (.error(x), .error(y)): return x.value == y.value
            case (.completed, .completed): return true
            default: return false
            }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .duration(let t): hasher.combine(t)
        case .array(let a): hasher.combine(a)
        case .tuple(let t):
            if let arithmetic = t.nominal?.arithmetic {
                hasher.combine(arithmetic.approximation(t))
                return
            }
            hasher.combine(t.nominal)
            hasher.combine(t.elements)
        case .dictionary(let d):
            // Order-independent, to agree with ==.
            hasher.combine(d.count)
            var sum = 0
            for (k, v) in d { sum = sum &+ k.hashValue &+ 31 &* v.hashValue }
            hasher.combine(sum)
        case .function(let f): hasher.combine(ObjectIdentifier(f))
        case .stream(let s): hasher.combine(ObjectIdentifier(s))
        case .object(let o): hasher.combine(ObjectIdentifier(o))
        case .event(let e, _):
            switch e {
            case .next(let v): hasher.combine(1); hasher.combine(v)
            case .error(let err): hasher.combine(2); hasher.combine(err.value)
            case .completed: hasher.combine(3)
            }
        }
    }

    /// Orders numbers, strings, durations, bools, and arrays or tuples
    /// element by element; anything else cannot be compared.
    public func compare(to other: Value) throws -> Int {
        switch (self, other) {
        case let (.int(a), .int(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int, .double), (.double, .int), (.double, .double):
            let a = try asDouble(), b = try other.asDouble()
            return a < b ? -1 : (a == b ? 0 : 1)
        case let (.string(a), .string(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.duration(a), .duration(b)): return a < b ? -1 : (a == b ? 0 : 1)
        case let (.bool(a), .bool(b)): return a == b ? 0 : (!a ? -1 : 1)
        case _ where NominalArithmetic.of(self, other) != nil:
            return try NominalArithmetic.of(self, other)!.compare(self, other)
        case (.array, .array), (.tuple, .tuple):
            let a = try asArray(), b = try other.asArray()
            for (x, y) in zip(a, b) {
                let c = try x.compare(to: y)
                if c != 0 { return c }
            }
            return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
        default:
            throw FlowError("cannot compare \(typeName) \(literal) with \(other.typeName) \(other.literal)")
        }
    }
}
