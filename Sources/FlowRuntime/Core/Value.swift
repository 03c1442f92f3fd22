import Collections

/// The dynamic value that flows through every stream.
///
/// Small scalars are stored inline so the hot path of `map`/`filter`/`scan`
/// over numbers allocates nothing; collections are immutable values.
public enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case duration(TimeSpan)
    case array([Value])
    indirect case dictionary(OrderedDictionary<Value, Value>)
    indirect case tuple(Tuple)
    case function(Function)
    case stream(Observable)
    /// An object of a class the script declares: a reference, shared.
    case object(ScriptObject)
    /// An event as a value (`materialize`, a completion handler's
    /// argument), with how it prints.
    indirect case event(Event, Event.Spelling = .reactiveX)
}

/// What makes a tuple a value of a declared type: the type's name and,
/// for an enum, the case (its associated values are the tuple's elements).
///
/// A class, so that it costs a tuple one reference: most tuples have none.
/// (@unchecked: a raw value is a literal: a string or a number.)
public final class Nominal: Hashable, @unchecked Sendable {
    public let type: String
    public let caseName: String?
    /// An enum case's raw value (`case gbp = "pound"`), which JSON writes.
    public let rawValue: Value?
    /// How a built-in type's value prints, where it is not its initialiser
    /// call (a `Date` prints as Swift prints one: `2023-11-14 22:13:20 +0000`).
    public let describe: (@Sendable (Tuple) -> String)?
    /// The arithmetic of a number type the language defines (`Decimal`),
    /// asked only where no built-in arithmetic applies, so other values pay
    /// nothing for it.
    public let arithmetic: NominalArithmetic?

    public init(type: String, caseName: String? = nil, rawValue: Value? = nil, describe: (@Sendable (Tuple) -> String)? = nil,
                arithmetic: NominalArithmetic? = nil) {
        self.type = type
        self.caseName = caseName
        self.rawValue = rawValue
        self.describe = describe
        self.arithmetic = arithmetic
    }

    public static func == (lhs: Nominal, rhs: Nominal) -> Bool {
        lhs === rhs || (lhs.type == rhs.type && lhs.caseName == rhs.caseName)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(caseName)
    }
}

/// `+ - * /` and ordering for the values of a number type the language
/// defines, with either operand of that type (the other may be an Int or a
/// Double, as Swift's literals would be).
public struct NominalArithmetic: Sendable {
    public enum Operation: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }

    public let apply: @Sendable (Operation, Value, Value) throws -> Value
    /// Below zero, zero or above zero, as `a` is below, equal to or above `b`.
    public let compare: @Sendable (Value, Value) throws -> Int
    /// The nearest Double, which hashes the value as an equal Int or Double
    /// hashes.
    public let approximation: @Sendable (Tuple) -> Double

    public init(apply: @escaping @Sendable (Operation, Value, Value) throws -> Value,
                compare: @escaping @Sendable (Value, Value) throws -> Int,
                approximation: @escaping @Sendable (Tuple) -> Double) {
        self.apply = apply
        self.compare = compare
        self.approximation = approximation
    }

    /// The arithmetic of whichever operand has one.
    static func of(_ a: Value, _ b: Value) -> NominalArithmetic? {
        if case .tuple(let t) = a, let arithmetic = t.nominal?.arithmetic { return arithmetic }
        if case .tuple(let t) = b, let arithmetic = t.nominal?.arithmetic { return arithmetic }
        return nil
    }
}

/// A tuple, optionally with labels: `(1, "a")` or `(value: 1, time: 5ms)`.
/// Labelled tuples double as records (`r.name`).
public struct Tuple {
    public var elements: [Value]
    /// One label per element, or nil when no element is labelled (most
    /// tuples: storing nothing then saves an allocation per tuple).
    public var labels: [String?]?
    /// The struct or enum case this value is, for a script's own types
    /// (`UserLocation(latitude: 1, longitude: 2)`, `.loaded(3)`).
    public var nominal: Nominal?

    public init(_ elements: [Value], labels: [String?]? = nil, nominal: Nominal? = nil) {
        self.elements = elements
        self.labels = labels.flatMap { $0.contains { $0 != nil } ? $0 : nil }
        self.nominal = nominal
    }

    public init(labelled pairs: KeyValuePairs<String, Value>) {
        self.init(pairs.map(\.value), labels: pairs.map(\.key))
    }

    public func label(at index: Int) -> String? { labels?[index] }

    public func element(labelled name: String) -> Value? {
        labels?.firstIndex(of: name).map { elements[$0] }
    }
}

extension Value {
    public static func tuple(_ elements: [Value]) -> Value { .tuple(Tuple(elements)) }

    public var isArray: Bool { if case .array = self { true } else { false } }
    public var isNumber: Bool {
        switch self {
        case .int, .double: true
        default: false
        }
    }
    public static func record(_ pairs: KeyValuePairs<String, Value>) -> Value { .tuple(Tuple(labelled: pairs)) }

    /// The name of the value's type, as errors and `type(of:)` show it.
    public var typeName: String {
        if case .tuple(let t) = self, let nominal = t.nominal { return nominal.type }
        return switch self {
        case .null: "Nil"
        case .bool: "Bool"
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .duration: "Duration"
        case .array: "Array"
        case .dictionary: "Dictionary"
        case .tuple: "Tuple"
        case .function: "Closure"
        case .stream: "Stream"
        case .object(let o): o.objectClass.name
        case .event: "Event"
        }
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Swift's `()`: what a function that returns nothing gives, `print` too.
    public var isVoid: Bool {
        if case .tuple(let t) = self { t.elements.isEmpty && t.nominal == nil } else { false }
    }

    /// Truthiness is strict, as in Swift: only a Bool is a condition.
    public func asBool() throws -> Bool {
        if case .bool(let b) = self { return b }
        throw FlowError("expected a Bool, got \(typeName) \(literal)")
    }

    public func asInt() throws -> Int {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e18: return Int(d)
        default: throw FlowError("expected an Int, got \(typeName) \(literal)")
        }
    }

    public func asDouble() throws -> Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: throw FlowError("expected a number, got \(typeName) \(literal)")
        }
    }

    public func asString() throws -> String {
        if case .string(let s) = self { return s }
        throw FlowError("expected a String, got \(typeName) \(literal)")
    }

    public func asDuration() throws -> TimeSpan {
        switch self {
        case .duration(let t): return t
        default: throw FlowError("expected a duration such as 5ms, got \(typeName) \(literal)")
        }
    }

    public func asStream() throws -> Observable {
        if case .stream(let s) = self { return s }
        throw FlowError("expected a stream, got \(typeName) \(literal)")
    }

    public func asFunction() throws -> Function {
        if case .function(let f) = self { return f }
        throw FlowError("expected a closure, got \(typeName) \(literal)")
    }

    public func asArray() throws -> [Value] {
        switch self {
        case .array(let a): return a
        case .tuple(let t): return t.elements
        default: throw FlowError("expected an Array, got \(typeName) \(literal)")
        }
    }

    /// The elements a tuple argument spreads into (a closure of N parameters
    /// called with one N-tuple gets its elements).
    public var tupleElements: [Value]? {
        if case .tuple(let t) = self { return t.elements }
        return nil
    }
}
