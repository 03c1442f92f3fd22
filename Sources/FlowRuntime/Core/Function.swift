/// A callable value: a script closure compiled by the language, or a Swift
/// closure handed to the runtime directly.
///
/// One- and two-argument calls have their own entry points because `map`,
/// `filter` and `scan` call them once per event: they must not build an
/// argument array each time.
public final class Function {
    public typealias Unary = (Value) throws -> Value
    public typealias Binary = (Value, Value) throws -> Value
    public typealias Variadic = ([Value]) throws -> Value

    public let name: String
    /// How many parameters the closure names; nil when it takes any number.
    public let parameterCount: Int?
    // Always present (adapters over `variadic` when not given), so the
    // per-event entry points are one indirect call with no branch.
    private let unary: Unary
    private let binary: Binary
    private let variadic: Variadic

    /// All three entry points given. They are taken as non-optional
    /// closures on purpose: an optional closure is stored in its most
    /// general form and every call would pass through conversion thunks.
    public init(name: String = "closure", parameterCount: Int?, unary: @escaping Unary, binary: @escaping Binary, variadic: @escaping Variadic) {
        self.name = name
        self.parameterCount = parameterCount
        self.unary = unary
        self.binary = binary
        self.variadic = variadic
    }

    /// Only the general entry point; one and two arguments go through it.
    public convenience init(name: String = "closure", parameterCount: Int?, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: { try variadic([$0]) }, binary: { try variadic([$0, $1]) }, variadic: variadic)
    }

    /// A one-argument function; the other entry points adapt to it.
    public convenience init(name: String = "closure", parameterCount: Int?, unary: @escaping Unary, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: unary, binary: { try variadic([$0, $1]) }, variadic: variadic)
    }

    /// A two-argument function; the other entry points adapt to it.
    public convenience init(name: String = "closure", parameterCount: Int?, binary: @escaping Binary, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: { try variadic([$0]) }, binary: binary, variadic: variadic)
    }

    public static func unary(name: String = "closure", _ body: @escaping Unary) -> Function {
        Function(name: name, parameterCount: 1, unary: body) { args in
            try body(args.count == 1 ? args[0] : .tuple(args))
        }
    }

    public static func binary(name: String = "closure", _ body: @escaping Binary) -> Function {
        Function(name: name, parameterCount: 2, binary: body) { args in
            if args.count == 2 { return try body(args[0], args[1]) }
            if args.count == 1, let parts = args[0].tupleElements, parts.count == 2 { return try body(parts[0], parts[1]) }
            throw FlowError("closure takes 2 arguments, got \(args.count)")
        }
    }

    public static func variadic(name: String = "closure", _ body: @escaping Variadic) -> Function {
        Function(name: name, parameterCount: nil, variadic: body)
    }

    @inline(__always)
    public func call(_ a: Value) throws -> Value { try unary(a) }

    @inline(__always)
    public func call(_ a: Value, _ b: Value) throws -> Value { try binary(a, b) }

    public func call(_ args: [Value]) throws -> Value {
        switch args.count {
        case 1: return try unary(args[0])
        case 2: return try binary(args[0], args[1])
        default: return try variadic(args)
        }
    }

    /// Calls a predicate: its result must be a Bool.
    @inline(__always)
    public func test(_ a: Value) throws -> Bool {
        let result = try call(a)
        if case .bool(let b) = result { return b }
        throw FlowError("closure '\(name)' must return a Bool, returned \(result.typeName) \(result.literal)")
    }
}
