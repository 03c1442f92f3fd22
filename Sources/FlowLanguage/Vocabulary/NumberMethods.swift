import FlowRuntime

/// Int's and Double's methods and properties, as Swift's standard library
/// has them. A Double's method called on an Int whose type the script does
/// not write reads it as a Double, as Swift reads an integer literal where
/// a Double is wanted; where the compiler knows the Int's type, the call is
/// Swift's compile error instead.
extension ValueMethod {
    static let numberMethods: [ValueMethod] = doubleMethods + intMethods

    private static let doubleMethods: [ValueMethod] = [
        double("rounded", [noArguments, [arg("rule", .value)]],
               "the whole number nearest (halves away from zero), or by a rule: .up, .down, .towardZero, .awayFromZero, .toNearestOrEven, .toNearestOrAwayFromZero",
               example: "let x = 7.25\nprint(x.rounded(), x.rounded(.up), (-x).rounded(.towardZero), 2.5.rounded(.toNearestOrEven))") { d, args in
            guard let rule = args.values.first else { return .double(d.rounded()) }
            return .double(d.rounded(try NumberValues.roundingRule(rule)))
        },
        double("squareRoot", [noArguments], "the square root (nan below zero)", example: "print(16.0.squareRoot(), 2.0.squareRoot())") { d, args in
            try args.expect(0)
            return .double(d.squareRoot())
        },
        double("truncatingRemainder", [[labelled("dividingBy", .value)]],
               "what is left after dividing by a number a whole number of times, with the sign of the dividend (C's fmod)",
               example: "print(7.25.truncatingRemainder(dividingBy: 2), (-7.5).truncatingRemainder(dividingBy: 2))") { d, args in
            .double(d.truncatingRemainder(dividingBy: try NumberValues.double(args.values[0], for: "truncatingRemainder(dividingBy:)")))
        },
        double("remainder", [[labelled("dividingBy", .value)]],
               "the IEEE remainder: the dividend less the divisor times the nearest whole quotient (so it may be negative)",
               example: "print(7.25.remainder(dividingBy: 2), 8.5.remainder(dividingBy: 3))") { d, args in
            .double(d.remainder(dividingBy: try NumberValues.double(args.values[0], for: "remainder(dividingBy:)")))
        },
        double("magnitude", [noArguments], "the number without its sign", example: "print((-2.5).magnitude)") { d, _ in .double(d.magnitude) },
        double("sign", [noArguments], "plus or minus (-0.0's is minus), compared with .plus and .minus",
               example: "print((-2.5).sign, 0.0.sign, (-2.5).sign == .minus)") { d, _ in NumberValues.sign(d.sign) },
        double("isNaN", [noArguments], "whether it is not a number (0.0 / 0.0)", example: "print((0.0 / 0.0).isNaN, 1.5.isNaN)") { d, _ in .bool(d.isNaN) },
        double("isFinite", [noArguments], "whether it is neither infinite nor nan", example: "print(1.5.isFinite, (1.0 / 0).isFinite)") { d, _ in .bool(d.isFinite) },
        double("isInfinite", [noArguments], "whether it is infinity or -infinity", example: "print((1.0 / 0).isInfinite, 1.5.isInfinite)") { d, _ in .bool(d.isInfinite) },
        double("isZero", [noArguments], "whether it is 0.0 or -0.0", example: "print(0.0.isZero, (-0.0).isZero, 0.5.isZero)") { d, _ in .bool(d.isZero) },
        double("advanced", [[labelled("by", .value)]], "the number plus another", example: "print(2.5.advanced(by: 1))") { d, args in
            .double(d.advanced(by: try NumberValues.double(args.values[0], for: "advanced(by:)")))
        },
        double("distance", [[labelled("to", .value)]], "another number less this one", example: "print(2.5.distance(to: 4))") { d, args in
            .double(d.distance(to: try NumberValues.double(args.values[0], for: "distance(to:)")))
        },
        double("description", [noArguments], "the number as text, as print writes it", example: "print(2.5.description + \"!\")") { d, _ in
            .string(Value.double(d).description)
        },
    ]

    private static let intMethods: [ValueMethod] = [
        int("isMultiple", [[labelled("of", .int)]], "whether a whole number of the other makes this one (only 0 is a multiple of 0)",
            example: "print(10.isMultiple(of: 5), 7.isMultiple(of: 2), (-6).isMultiple(of: 3))") { i, args in
            .bool(i.isMultiple(of: try args.values[0].asInt()))
        },
        int("magnitude", [noArguments], "the number without its sign", example: "print((-3).magnitude)") { i, _ in
            guard i != .min else { throw FlowError("Int.min's magnitude, 9223372036854775808, does not fit in an Int") }
            return .int(Int(i.magnitude))
        },
        int("signum", [noArguments], "-1, 0 or 1, as the number is below, at or above zero", example: "print((-3).signum(), 0.signum(), 8.signum())") { i, args in
            try args.expect(0)
            return .int(i.signum())
        },
        int("advanced", [[labelled("by", .int)]], "the number plus another", example: "print(5.advanced(by: -2))") { i, args in
            let (sum, overflow) = i.addingReportingOverflow(try args.values[0].asInt())
            if overflow { throw FlowError("integer overflow in advanced(by:)") }
            return .int(sum)
        },
        int("distance", [[labelled("to", .int)]], "another number less this one", example: "print(5.distance(to: 12))") { i, args in
            let (difference, overflow) = (try args.values[0].asInt()).subtractingReportingOverflow(i)
            if overflow { throw FlowError("integer overflow in distance(to:)") }
            return .int(difference)
        },
        int("description", [noArguments], "the number as text", example: "print(42.description.count)") { i, _ in .string(String(i)) },
    ]

    private static func double(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                               _ body: @escaping @Sendable (Double, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .double, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            switch receiver {
            case .double(let d): return try body(d, args)
            case .int(let i): return try body(Double(i), args)
            default: throw ValueMethods.notMine(name, receiver)
            }
        })
    }

    private static func int(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                            _ body: @escaping @Sendable (Int, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .int, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            guard case .int(let i) = receiver else { throw ValueMethods.notMine(name, receiver) }
            return try body(i, args)
        })
    }
}

/// The values numbers' methods take and give besides numbers: Swift's
/// `FloatingPointRoundingRule` and `FloatingPointSign`, written as implicit
/// members (`.down`, `.minus`) and printed as Swift prints them (`down`).
enum NumberValues {
    static let roundingRules: [String: FloatingPointRoundingRule] = [
        "up": .up, "down": .down, "towardZero": .towardZero, "awayFromZero": .awayFromZero,
        "toNearestOrEven": .toNearestOrEven, "toNearestOrAwayFromZero": .toNearestOrAwayFromZero,
    ]

    private static let nominals: [String: Nominal] = Dictionary(uniqueKeysWithValues:
        roundingRules.keys.map { ($0, Nominal(type: "FloatingPointRoundingRule", caseName: $0)) }
        + ["plus", "minus"].map { ($0, Nominal(type: "FloatingPointSign", caseName: $0)) })

    /// The implicit members these are: `.down`, `.plus`.
    static let memberNames = Array(nominals.keys)

    static func member(_ name: String) -> Value? {
        nominals[name].map { .tuple(Tuple([], nominal: $0)) }
    }

    static func sign(_ sign: FloatingPointSign) -> Value { member(sign == .minus ? "minus" : "plus")! }

    static func roundingRule(_ value: Value) throws -> FloatingPointRoundingRule {
        guard case .tuple(let t) = value, let nominal = t.nominal, nominal.type == "FloatingPointRoundingRule",
              let name = nominal.caseName, let rule = roundingRules[name] else {
            throw FlowError("rounded takes a rounding rule (.up, .down, .towardZero, .awayFromZero, .toNearestOrEven or .toNearestOrAwayFromZero), got \(value.typeName) \(value.literal)")
        }
        return rule
    }

    static func double(_ value: Value, for call: String) throws -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw FlowError("\(call) takes a number, got \(value.typeName) \(value.literal)")
        }
    }
}
