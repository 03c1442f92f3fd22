import FlowRuntime
import Foundation

/// `Decimal` as a script sees it: Foundation's base-10 number, for money,
/// where `0.1 + 0.2` must be `0.3`. A value holds the number's canonical
/// text (Foundation's `description`, which `Decimal(string:)` reads back
/// exactly), so equal numbers are equal values and print as Swift prints
/// them; Foundation does the arithmetic.
enum DecimalValue {
    static let nominal = Nominal(type: "Decimal", describe: { tuple in
        guard case .string(let text)? = tuple.elements.first else { return "Decimal(?)" }
        return text
    }, arithmetic: NominalArithmetic(apply: apply, compare: compare, approximation: approximation))

    static func make(_ number: Decimal) -> Value {
        .tuple(Tuple([.string(number.description)], nominal: nominal))
    }

    /// The Decimal a value is, as Swift's literals would make it: a
    /// Decimal, an Int or a Double. Nil for any other value.
    static func number(_ value: Value) -> Decimal? {
        switch value {
        case .tuple(let tuple) where tuple.nominal === nominal:
            guard case .string(let text)? = tuple.elements.first else { return nil }
            return text == "NaN" ? Decimal.nan : Decimal(string: text, locale: posix)
        case .int(let i): return Decimal(i)
        case .double(let d) where d.isFinite: return Decimal(d)
        default: return nil
        }
    }

    static func number(_ value: Value, for call: String) throws -> Decimal {
        guard let number = number(value) else { throw FlowError("\(call) takes a number, got \(value.typeName) \(value.literal)") }
        return number
    }

    /// `Decimal(string:)`: nil where the text is not a number, as Foundation gives.
    static func parse(_ text: String) -> Value {
        guard let number = Decimal(string: text, locale: posix), !number.isNaN else { return .null }
        return make(number)
    }

    /// Numbers are read and written with a point, whatever the machine's locale.
    private static let posix = Locale(identifier: "en_US_POSIX")

    @Sendable private static func apply(_ operation: NominalArithmetic.Operation, _ a: Value, _ b: Value) throws -> Value {
        guard let x = number(a), let y = number(b) else {
            throw FlowError("cannot apply '\(operation.rawValue)' to \(a.typeName) \(a.literal) and \(b.typeName) \(b.literal)")
        }
        switch operation {
        case .add: return make(x + y)
        case .subtract: return make(x - y)
        case .multiply: return make(x * y)
        case .divide: return make(x / y)  // by zero: NaN, as Foundation gives
        }
    }

    @Sendable private static func compare(_ a: Value, _ b: Value) throws -> Int {
        guard let x = number(a), let y = number(b) else {
            throw FlowError("cannot compare \(a.typeName) \(a.literal) with \(b.typeName) \(b.literal)")
        }
        return x < y ? -1 : (x == y ? 0 : 1)
    }

    @Sendable private static func approximation(_ tuple: Tuple) -> Double {
        guard let number = number(.tuple(tuple)) else { return .nan }
        return NSDecimalNumber(decimal: number).doubleValue
    }
}
