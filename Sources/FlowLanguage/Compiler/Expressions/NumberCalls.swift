import FlowRuntime

/// What the compiler knows of calls on numbers before a script runs: the
/// types of numbers' methods and of the math functions (`x.rounded()` and
/// `sqrt(x)` are Doubles, so `Int(x.rounded())` is an Int), `pow`'s two
/// meanings as Swift's type checker picks them, Swift's error for a
/// Double's method on an Int, and a literal `String(format:)` checked
/// against its arguments.
extension Compiler {
    /// The type of a number's method or property, where it is one.
    static func numberMemberType(of receiver: StaticType, _ name: String) -> StaticType? {
        switch (name, receiver) {
        case ("rounded", _), ("squareRoot", _), ("truncatingRemainder", _), ("remainder", _): return .double
        case ("isNaN", _), ("isFinite", _), ("isInfinite", _), ("isZero", _), ("isMultiple", _): return .bool
        case ("description", .int), ("description", .double): return .string
        case ("sign", _): return .named("FloatingPointSign")
        case ("signum", _): return .int
        case ("magnitude", .int), ("advanced", .int), ("distance", .int): return .int
        case ("magnitude", .double), ("advanced", .double), ("distance", .double): return .double
        default: return nil
        }
    }

    /// Swift's error for a number's method its type has not (`n.rounded()`
    /// of an Int), where the receiver's type is sure; whether there was one.
    func refusesNumberMethod(_ name: String, of base: Expr, _ receiver: CompiledExpression, at nameSpan: Span) -> Bool {
        guard receiver.typeIsSure, receiver.type == .int || receiver.type == .double,
              let methods = ValueMethods.group(named: name), methods.methods.allSatisfy({ $0.receiver == .int || $0.receiver == .double }),
              !methods.methods.contains(where: { $0.receiver.rawValue == receiver.type.swiftName }) else { return false }
        let written = if case .name(let variable, _) = base { variable } else { "x" }
        let other = (receiver.type == .int ? "Double(" : "Int(") + written + ")." + name + "(...)"
        error("value of type '\(receiver.type.swiftName)' has no member '\(name)'", nameSpan, help: "convert it first, as in \(other)")
        return true
    }

    /// A math function's call, typed: `pow` picks Double's or Decimal's.
    func compileMathCall(_ function: FreeFunction, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                         in scope: Scope) -> CompiledExpression {
        guard function.name == "pow", arguments.count == 2, arguments.allSatisfy({ $0.label == nil }) else {
            return CompiledExpression(compileBuiltin(function.name, nameSpan, arguments, span, in: scope)).typed(function.resultType, sure: true)
        }
        let args = compileArguments(arguments, in: scope)
        let literal = arguments.map { argument -> Value? in
            if case .literal(let value, _) = argument.value { return value }
            if case .unary(.negate, .literal(let value, _), _) = argument.value { return value }
            return nil
        }
        let types = args.types
        // Swift's candidates with `import Foundation`: pow(Double, Double)
        // and pow(Decimal, Int). Literals take either type; so a Double
        // literal and an integer literal fit both, and Swift cannot choose.
        var decimal = types[0] == .decimal
        if case .double? = literal[0], case .int? = literal[1] {
            error("ambiguous use of 'pow'", nameSpan,
                  help: "Swift has pow(Double, Double) and Foundation's pow(Decimal, Int): write pow(2.0, 3.0) for a Double, or pow(Decimal(2), 3) for a Decimal")
            return CompiledExpression { _ in .null }
        }
        if literal[0] != nil, types[1] == .int { decimal = true }  // `pow(2, 3)`, `pow(2.0, n)` with an Int n: Decimal's
        let location = self.location(nameSpan)
        let evaluate = args.evaluate
        return CompiledExpression({ frame in
            let values = try evaluate(frame)
            return try located(location) { try MathFunctions.power(values[0], values[1], decimal: decimal) }
        }, type: decimal ? .decimal : types[0] == .unknown && types[1] == .unknown ? .unknown : .double, typeIsSure: decimal || types[0] == .double)
    }

    /// `String(format: "%d items", n)` with its format written: each
    /// conversion is checked against the arguments now, at the format's
    /// character or the argument; a mistake is an error, not a run-time
    /// surprise. Formats made when the script runs are checked then.
    func checkFormat(_ arguments: [CallArgument]) {
        guard let first = arguments.first, first.label == "format", case .literal(.string(let text), let span) = first.value else { return }
        let format: StringFormat
        do {
            format = try StringFormat(parsing: text)
        } catch {
            let place: Span
            if let offset = error.offset, !file.text(of: span).contains("\\") {
                let start = span.start + 1 + String(text.prefix(offset)).utf8.count
                place = Span(start, start + 1)
            } else {
                place = span
            }
            self.error("String(format:): " + error.message, place)
            return
        }
        let values = Array(arguments.dropFirst())
        let conversions = format.conversions
        var next = 0
        for conversion in conversions {
            let index = conversion.position ?? next
            next += 1
            guard index < values.count else {
                let start = span.start + 1 + String(text.prefix(conversion.offset)).utf8.count
                let place = file.text(of: span).contains("\\") ? span : Span(start, start + conversion.written.utf8.count)
                error("String(format:): \(conversion.written) has no argument: the format reads \(format.argumentCount) and is given \(values.count)",
                      place)
                return
            }
            var given = values[index].value
            var negative = false
            if case .unary(.negate, let inner, _) = given { (given, negative) = (inner, true) }
            if case .literal(var value, let valueSpan) = given {
                if negative, case .int(let i) = value { value = .int(-i) }
                if negative, case .double(let d) = value { value = .double(-d) }
                if let mismatch = StringFormat.mismatch(conversion, value) { error("String(format:): " + mismatch, valueSpan) }
            }
        }
        if values.count > format.argumentCount {
            warning("String(format:) is given \(values.count) argument\(values.count == 1 ? "" : "s") and its format reads \(format.argumentCount): Foundation ignores the rest",
                    values[format.argumentCount].value.span)
        }
    }
}

extension Compiler {
    /// `Int.random(in: 1...6)`, `Double.random(in: 0..<1)`, `Bool.random()`:
    /// drawn from the run's random numbers (seeded in virtual time). A range
    /// written in the call gives its bounds; an Int range held in a name (an
    /// array in flow) gives one of its elements.
    func compileRandomCall(_ type: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> CompiledExpression {
        let env = environment
        let location = self.location(nameSpan)
        if type == "Bool" {
            guard arguments.isEmpty else {
                error("Bool.random() takes no arguments", nameSpan)
                return CompiledExpression { _ in .null }
            }
            return CompiledExpression({ _ in
                var draws = RandomDraws(source: env.run.random)
                return .bool(Bool.random(using: &draws))
            }, type: .bool, typeIsSure: true)
        }
        guard arguments.count == 1, arguments[0].label == "in" else {
            error("\(type).random takes a range, as in \(type).random(in: \(type == "Int" ? "1...6" : "0..<1"))", nameSpan)
            return CompiledExpression { _ in .null }
        }
        let resultType: StaticType = type == "Int" ? .int : .double
        if case .binary(let op, let low, let high, _, _) = arguments[0].value, op.isRange {
            let (lower, upper) = (compile(low, in: scope), compile(high, in: scope))
            let closed = op == .closedRange
            let isInt = type == "Int"
            return CompiledExpression({ frame in
                let (a, b) = (try lower(frame), try upper(frame))
                var draws = RandomDraws(source: env.run.random)
                return try located(location) {
                    isInt ? try RandomValues.int(in: try a.asInt(), try b.asInt(), closed: closed, using: &draws)
                        : try RandomValues.double(in: try MathFunctions.double(a, "Double.random(in:)"),
                                                  try MathFunctions.double(b, "Double.random(in:)"), closed: closed, using: &draws)
                }
            }, type: resultType, typeIsSure: true)
        }
        guard type == "Int" else {
            error("Double.random(in:) takes its range written in the call, as in Double.random(in: 0..<1)", arguments[0].value.span)
            return CompiledExpression { _ in .null }
        }
        // An Int range kept in a name is an array of its Ints in flow.
        let range = compile(arguments[0].value, in: scope)
        return CompiledExpression({ frame in
            let elements = try located(location) { try range(frame).asArray() }
            var draws = RandomDraws(source: env.run.random)
            guard let chosen = elements.randomElement(using: &draws) else {
                throw FlowError("Int.random(in:) of an empty range (Swift traps)", at: location)
            }
            return chosen
        }, type: .int, typeIsSure: true)
    }
}

extension Compiler {
    /// `l op r` on number literals alone, at least one a Double, as
    /// Swift's compiler folds it: a NaN an operation makes is the positive
    /// one (`0.0 / 0.0` prints `nan`), where the processor's, made when a
    /// script runs, is negative (`z / z` prints `-nan`, as in Swift).
    /// Nil where the expression is not such arithmetic.
    static func foldedLiteralArithmetic(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr) -> Double? {
        var hasDouble = false
        func fold(_ expr: Expr) -> Double? {
            switch expr {
            case .literal(.int(let i), _): return Double(i)
            case .literal(.double(let d), _): hasDouble = true; return d
            case .unary(.negate, let inner, _): return fold(inner).map { -$0 }
            case .binary(let op, let l, let r, _, _): return apply(op, l, r)
            default: return nil
            }
        }
        func apply(_ op: BinaryOperator, _ l: Expr, _ r: Expr) -> Double? {
            guard let a = fold(l), let b = fold(r) else { return nil }
            let result: Double
            switch op {
            case .add: result = a + b
            case .subtract: result = a - b
            case .multiply: result = a * b
            case .divide: result = a / b
            default: return nil
            }
            return result.isNaN ? .nan : result
        }
        guard let result = apply(op, lhs, rhs), hasDouble else { return nil }
        return result
    }
}
