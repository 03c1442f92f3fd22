/// Arithmetic on values. Every fault (overflow, division by zero, a type
/// that has no such operation) throws a FlowError instead of trapping, so a
/// bad closure ends its stream, never the process.
extension Value {
    /// `a + b`: an Int fast path inlined into callers, the rest out of line.
    @inlinable
    public static func add(_ a: Value, _ b: Value) throws -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = x.addingReportingOverflow(y)
            if !overflow { return .int(result) }
        }
        return try addSlowly(a, b)
    }

    /// `a += b` for an array or a string, changed where it is: taken out
    /// of `a` first (left nil), so that it is referenced once and copy on
    /// write does not copy it. False when `a += b` is not such an append.
    public static func appendInPlace(_ a: inout Value, _ b: Value) throws -> Bool {
        if case .array(var x) = a, case .array(let y) = b {
            try MemoryBudget.checkElements(x.count + y.count, "appending to an array with +=")
            a = .null
            x += y
            a = .array(x)
            return true
        }
        if case .string(var x) = a, case .string(let y) = b {
            try MemoryBudget.checkString(bytes: x.utf8.count + y.utf8.count, "appending to a string with +=")
            a = .null
            x += y
            a = .string(x)
            return true
        }
        return false
    }

    @usableFromInline
    static func addSlowly(_ a: Value, _ b: Value) throws -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(try checked(x.addingReportingOverflow(y), "+"))
        case let (.string(x), .string(y)):
            try MemoryBudget.checkString(bytes: x.utf8.count + y.utf8.count, "joining two strings with +")
            // Made at its size: `x + y` copies x and grows the copy, which
            // holds three strings' worth at once (a doubled half-gigabyte
            // string peaked at 2.4 GB).
            var joined = ""
            joined.reserveCapacity(x.utf8.count + y.utf8.count)
            joined += x
            joined += y
            return .string(joined)
        case let (.array(x), .array(y)):
            try MemoryBudget.checkElements(x.count + y.count, "joining two arrays with +")
            return .array(x + y)
        case let (.duration(x), .duration(y)): return .duration(try durationChecked(x.adding(y), "+"))
        default: return try numeric(a, b, "+", (+))
        }
    }

    /// `a - b`: an Int fast path inlined into callers, the rest out of line.
    @inlinable
    public static func subtract(_ a: Value, _ b: Value) throws -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = x.subtractingReportingOverflow(y)
            if !overflow { return .int(result) }
        }
        return try subtractSlowly(a, b)
    }

    @usableFromInline
    static func subtractSlowly(_ a: Value, _ b: Value) throws -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(try checked(x.subtractingReportingOverflow(y), "-"))
        case let (.duration(x), .duration(y)): return .duration(try durationChecked(x.subtracting(y), "-"))
        default: return try numeric(a, b, "-", (-))
        }
    }

    /// `a * b`: an Int fast path inlined into callers, the rest out of line.
    @inlinable
    public static func multiply(_ a: Value, _ b: Value) throws -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = x.multipliedReportingOverflow(by: y)
            if !overflow { return .int(result) }
        }
        return try multiplySlowly(a, b)
    }

    @usableFromInline
    static func multiplySlowly(_ a: Value, _ b: Value) throws -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(try checked(x.multipliedReportingOverflow(by: y), "*"))
        case let (.duration(t), .int(k)), let (.int(k), .duration(t)):
            return .duration(try durationChecked(t.multiplied(by: Int64(k)), "*"))
        case let (.duration(t), .double(k)), let (.double(k), .duration(t)):
            return .duration(try durationChecked(t.multiplied(by: k), "*"))
        default: return try numeric(a, b, "*", (*))
        }
    }

    /// `a / b`: an Int fast path inlined into callers, the rest out of line.
    @inlinable
    public static func divide(_ a: Value, _ b: Value) throws -> Value {
        if case .int(let x) = a, case .int(let y) = b, y != 0, y != -1 { return .int(x / y) }
        return try divideSlowly(a, b)
    }

    @usableFromInline
    static func divideSlowly(_ a: Value, _ b: Value) throws -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)):
            if y == 0 { throw FlowError("division by zero") }
            return .int(try checked(x.dividedReportingOverflow(by: y), "/"))
        case let (.duration(t), .int(k)):
            if k == 0 { throw FlowError("division by zero") }
            return .duration(try durationChecked(t.divided(by: Int64(k)), "/"))
        case let (.duration(t), .double(k)):
            if k == 0 { throw FlowError("division by zero") }
            return .duration(try durationChecked(t.divided(by: k), "/"))
        case let (.duration(x), .duration(y)):
            if y.nanoseconds == 0 { throw FlowError("division by zero") }
            return .double(Double(x.nanoseconds) / Double(y.nanoseconds))
        default:
            return try numeric(a, b, "/", (/))
        }
    }

    /// `a % b`: an Int fast path inlined into callers, the rest out of line.
    @inlinable
    public static func remainder(_ a: Value, _ b: Value) throws -> Value {
        if case .int(let x) = a, case .int(let y) = b, y != 0, y != -1 { return .int(x % y) }
        return try remainderSlowly(a, b)
    }

    @usableFromInline
    static func remainderSlowly(_ a: Value, _ b: Value) throws -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)):
            if y == 0 { throw FlowError("division by zero") }
            return .int(try checked(x.remainderReportingOverflow(dividingBy: y), "%"))
        default:
            return try numeric(a, b, "%") { $0.truncatingRemainder(dividingBy: $1) }
        }
    }

    public static func negate(_ a: Value) throws -> Value {
        switch a {
        case .int(let x): return .int(try checked((0).subtractingReportingOverflow(x), "-"))
        case .double(let x): return .double(-x)
        case .duration(let t): return .duration(try durationChecked(t.negated, "-"))
        default: throw FlowError("cannot negate \(a.typeName) \(a.literal)")
        }
    }

    /// A duration that does not fit the clock (about ±292 years) is an
    /// error, never a wrapped or trapping value.
    private static func durationChecked(_ result: TimeSpan?, _ op: String) throws -> TimeSpan {
        guard let result else { throw FlowError("duration overflow in '\(op)': the result is not a number or longer than the clock can count (about 292 years)") }
        return result
    }

    private static func checked(_ r: (partialValue: Int, overflow: Bool), _ op: String) throws -> Int {
        if r.overflow { throw FlowError("integer overflow in '\(op)'") }
        return r.partialValue
    }

    private static func numeric(_ a: Value, _ b: Value, _ op: String, _ f: (Double, Double) -> Double) throws -> Value {
        switch (a, b) {
        case (.int, .double), (.double, .int), (.double, .double):
            return .double(f(try a.asDouble(), try b.asDouble()))
        default:
            if let arithmetic = NominalArithmetic.of(a, b), let operation = NominalArithmetic.Operation(rawValue: op) {
                return try arithmetic.apply(operation, a, b)
            }
            throw FlowError("cannot apply '\(op)' to \(a.typeName) \(a.literal) and \(b.typeName) \(b.literal)")
        }
    }
}
