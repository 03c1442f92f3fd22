import FlowRuntime

/// The binary operators that compute (`&&`, `||` and `??` short-circuit
/// and are compiled apart). A switch over this enum is cheaper per event
/// than calling an operator through a function value.
enum BinaryOperator: String {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

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
        case .less: return .bool(try a.compare(to: b) < 0)
        case .lessOrEqual: return .bool(try a.compare(to: b) <= 0)
        case .greater: return .bool(try a.compare(to: b) > 0)
        case .greaterOrEqual: return .bool(try a.compare(to: b) >= 0)
        }
    }

    /// Applies the operator; an error gets the operator's location.
    @inline(__always)
    func apply(_ a: Value, _ b: Value, at location: SourceLocation) throws -> Value {
        do { return try apply(a, b) } catch { throw FlowError.wrap(error).located(at: location) }
    }
}
