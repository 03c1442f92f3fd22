import FlowRuntime
import Foundation

/// The C library's and Foundation's functions of numbers, as a Swift
/// script with `import Foundation` has them: each takes Doubles (an Int
/// whose type is not written is read as one, as Swift reads an integer
/// literal) and gives a Double.
enum MathFunctions {
    static let all: [FreeFunction] = [
        unary("sqrt", "the square root (nan below zero)", example: "print(sqrt(16.0), sqrt(2))") { sqrt($0) },
        unary("cbrt", "the cube root", example: "print(cbrt(27.0))") { cbrt($0) },
        unary("floor", "the whole number at or below", example: "print(floor(2.7), floor(-2.5))") { floor($0) },
        unary("ceil", "the whole number at or above", example: "print(ceil(2.1), ceil(-2.5))") { ceil($0) },
        unary("round", "the nearest whole number, halves away from zero (as x.rounded())", example: "print(round(2.5), round(-2.5), round(2.4))") { round($0) },
        unary("trunc", "the whole number toward zero", example: "print(trunc(2.7), trunc(-2.7))") { trunc($0) },
        unary("exp", "e to the power of the number", example: "print(exp(1.0), exp(0.0))") { exp($0) },
        unary("log", "the natural logarithm", example: "print(log(10.0), log(exp(2.0)))") { log($0) },
        unary("log2", "the base-2 logarithm", example: "print(log2(8.0))") { log2($0) },
        unary("log10", "the base-10 logarithm", example: "print(log10(1000.0))") { log10($0) },
        unary("sin", "the sine of an angle in radians", example: "print(sin(0.0), sin(Double.pi / 2))") { sin($0) },
        unary("cos", "the cosine of an angle in radians", example: "print(cos(0.0), cos(Double.pi))") { cos($0) },
        unary("tan", "the tangent of an angle in radians", example: "print(tan(0.0), tan(1.0))") { tan($0) },
        unary("asin", "the angle in radians whose sine this is", example: "print(asin(1.0))") { asin($0) },
        unary("acos", "the angle in radians whose cosine this is", example: "print(acos(1.0))") { acos($0) },
        unary("atan", "the angle in radians whose tangent this is", example: "print(atan(1.0))") { atan($0) },
        unary("sinh", "the hyperbolic sine", example: "print(sinh(0.0), sinh(1.0))") { sinh($0) },
        unary("cosh", "the hyperbolic cosine", example: "print(cosh(0.0))") { cosh($0) },
        unary("tanh", "the hyperbolic tangent", example: "print(tanh(0.0), tanh(1.0))") { tanh($0) },
        binary("atan2", "the angle in radians of the point (x, y), given y then x", example: "print(atan2(1.0, 1.0), atan2(0.0, -1.0))") { atan2($0, $1) },
        binary("hypot", "the length of the hypotenuse: sqrt(x * x + y * y) without overflow", example: "print(hypot(3.0, 4.0))") { hypot($0, $1) },
        binary("fmod", "the remainder of x / y with x's sign (x.truncatingRemainder(dividingBy: y))", example: "print(fmod(7.5, 2.0))") { fmod($0, $1) },
        FreeFunction(name: "pow", forms: [[arg("x", .value), arg("y", .value)]],
                     summary: "x to the power y: pow(Double, Double) gives a Double, Foundation's pow(Decimal, Int) a Decimal; pow(2.0, 3) is ambiguous in Swift, and so in flow",
                     example: "print(pow(2.0, 3.0), pow(2.0, 0.5), pow(Decimal(2), 10))",
                     body: .value { args in try power(args.values[0], args.values[1], decimal: false) }, resultType: .double),
    ]

    /// `pow`'s two meanings: Decimal's where the base is one (or where
    /// Swift's type checker picks it), else Double's.
    static func power(_ base: Value, _ exponent: Value, decimal: Bool) throws -> Value {
        var decimal = decimal
        if case .tuple(let t) = base, t.nominal === DecimalValue.nominal { decimal = true }
        if decimal {
            let x = try DecimalValue.number(base, for: "pow(Decimal, Int)")
            guard case .int(let n) = exponent else {
                throw FlowError("pow of a Decimal takes an Int exponent (Foundation's pow(Decimal, Int)), got \(exponent.typeName) \(exponent.literal)")
            }
            guard abs(n) <= 10_000 else { throw FlowError("pow(Decimal, Int) takes an exponent from -10000 to 10000, not \(n)") }
            return DecimalValue.make(pow(x, n))
        }
        return .double(pow(try double(base, "pow"), try double(exponent, "pow")))
    }

    static func double(_ value: Value, _ name: String) throws -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw FlowError("\(name) takes a Double, got \(value.typeName) \(value.literal)")
        }
    }

    private static func unary(_ name: String, _ summary: String, example: String,
                              _ function: @escaping @Sendable (Double) -> Double) -> FreeFunction {
        FreeFunction(name: name, forms: [[arg("x", .value)]], summary: summary, example: example,
                     body: .value { args in .double(function(try double(args.values[0], name))) }, resultType: .double)
    }

    private static func binary(_ name: String, _ summary: String, example: String,
                               _ function: @escaping @Sendable (Double, Double) -> Double) -> FreeFunction {
        FreeFunction(name: name, forms: [[arg("y", .value), arg("x", .value)]], summary: summary, example: example,
                     body: .value { args in .double(function(try double(args.values[0], name), try double(args.values[1], name))) },
                     resultType: .double)
    }
}
