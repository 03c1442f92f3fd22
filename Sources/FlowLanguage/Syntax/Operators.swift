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

/// The side a one-sided range leaves open: `2...` (from its bound up),
/// `..<5` (below it), `...5` (up to it and with it).
public enum OneSidedRange: String, Sendable {
    case from = "...", upTo = "..<", through = "...@"

    /// As written, with its bound's text.
    public func written(_ bound: String) -> String {
        switch self {
        case .from: bound + "..."
        case .upTo: "..<" + bound
        case .through: "..." + bound
        }
    }

    /// Whether `order` (the value compared with the bound: -1 below, 0
    /// equal, 1 above) lies in the range.
    public func contains(order: Int) -> Bool {
        switch self {
        case .from: order >= 0
        case .upTo: order < 0
        case .through: order <= 0
        }
    }
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
