import FlowRuntime

/// What a binary operator computes. A switch over the enum is cheaper per
/// event than calling an operator through a function value. `&&`, `||`
/// and `??` are compiled to evaluate their right side only when needed;
/// applied here to two values already computed, they give the same result.
extension BinaryOperator {
    @inline(__always)
    func apply(_ a: Value, _ b: Value) throws -> Value {
        switch self {
        case .add: return try Value.add(a, b)
        case .subtract: return try Value.subtract(a, b)
        case .multiply: return try Value.multiply(a, b)
        case .divide: return try Value.divide(a, b)
        case .remainder: return try Value.remainder(a, b)
        case .equal: return .bool(a == b)
        case .notEqual: return .bool(a != b)
        case .identical: return .bool(try Self.isIdentical(a, b))
        case .notIdentical: return .bool(try !Self.isIdentical(a, b))
        case .less: return .bool(try a.compare(to: b) < 0)
        case .lessOrEqual: return .bool(try a.compare(to: b) <= 0)
        case .greater: return .bool(try a.compare(to: b) > 0)
        case .greaterOrEqual: return .bool(try a.compare(to: b) >= 0)
        case .halfOpenRange: return try Self.range(a, b, closed: false)
        case .closedRange: return try Self.range(a, b, closed: true)
        case .and: return .bool(try a.asBool() && b.asBool())
        case .or: return .bool(try a.asBool() || b.asBool())
        case .nilCoalescing: return a.isNull ? b : a
        }
    }

    /// `a === b`: the same object (nil is identical to nil only, as
    /// Swift's optionals are).
    static func isIdentical(_ a: Value, _ b: Value) throws -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)): return x === y
        case (.null, .null): return true
        case (.object, .null), (.null, .object): return false
        default:
            let other = a.isNull || a.isObject ? b : a
            throw FlowError("'===' compares objects of classes, not \(other.typeName) \(other.literal)")
        }
    }

    /// The most integers a range holds: flow's ranges are arrays.
    static let rangeLimit = 10_000_000

    /// `a..<b` and `a...b`: the integers between, as an array.
    static func range(_ a: Value, _ b: Value, closed: Bool) throws -> Value {
        guard case .int(let low) = a, case .int(let high) = b else {
            throw FlowError("a range is made of two Ints, got \(a.typeName) \(a.literal) and \(b.typeName) \(b.literal)")
        }
        guard low <= high else { throw FlowError("a range cannot go down: \(low) is above \(high)") }
        let (count, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, count < rangeLimit else {
            throw FlowError("a range holds at most \(rangeLimit) numbers; for more, use range(start, count), a stream")
        }
        if !closed && low == high { return .array([]) }
        return .array((low...(closed ? high : high - 1)).map(Value.int))
    }

    /// Applies the operator; an error gets the operator's location.
    @inline(__always)
    func apply(_ a: Value, _ b: Value, at location: SourceLocation) throws -> Value {
        do { return try apply(a, b) } catch { throw FlowError.wrap(error).located(at: location) }
    }
}
