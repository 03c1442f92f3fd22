/// The operators of Swift's expressions flow reads, as the tree holds them:
/// the parser decides which operator a symbol is once, so nothing after it
/// compares operator spellings.

/// An operator between two operands, by precedence group as Swift has them.
public enum BinaryOperator: String, Sendable, CaseIterable {
    case multiply = "*", divide = "/", remainder = "%"
    case add = "+", subtract = "-"
    case halfOpenRange = "..<", closedRange = "..."
    case nilCoalescing = "??"
    case equal = "==", notEqual = "!=", identical = "===", notIdentical = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and = "&&"
    case or = "||"

    /// `&&`, `||` and `??` evaluate their right operand only when the left
    /// one does not decide.
    public var shortCircuits: Bool {
        switch self {
        case .and, .or, .nilCoalescing: true
        default: false
        }
    }

    public var isComparison: Bool {
        switch self {
        case .equal, .notEqual, .identical, .notIdentical, .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }

    public var isRange: Bool { self == .halfOpenRange || self == .closedRange }

    /// Those that may stand alone as a function (`reduce(0, +)`).
    public var isReferable: Bool {
        switch self {
        case .halfOpenRange, .closedRange, .nilCoalescing, .identical, .notIdentical: false
        default: true
        }
    }
}

/// An operator before its operand.
public enum PrefixOperator: String, Sendable {
    case negate = "-", not = "!"
}

/// `=` and the compound assignments.
public enum AssignmentOperator: String, Sendable, CaseIterable {
    case assign = "="
    case add = "+=", subtract = "-=", multiply = "*=", divide = "/=", remainder = "%="

    /// What a compound assignment computes before it stores: `+` for `+=`.
    public var computation: BinaryOperator? {
        switch self {
        case .assign: nil
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .remainder: .remainder
        }
    }
}
