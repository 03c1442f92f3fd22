/// A callable value: a script closure compiled by the language, or a Swift
/// closure handed to the runtime directly.
///
/// One- and two-argument calls have their own entry points because `map`,
/// `filter` and `scan` call them once per event: they must not build an
/// argument array each time. Subclasses override what they can do fast;
/// the language's closures are subclasses, so creating one is one object.
open class Function {
    public typealias Unary = (Value) throws -> Value
    public typealias Binary = (Value, Value) throws -> Value
    public typealias Variadic = ([Value]) throws -> Value

    public let name: String
    /// How many parameters the closure names; nil when it takes any number.
    public let parameterCount: Int?
    /// Where a script wrote the closure, for errors about what it returned.
    public let location: SourceLocation?
    /// How many arguments the closure reads, named or as `$n`, when known:
    /// operators that take a closure of one or two parameters
    /// (`distinctUntilChanged`'s key or comparator) tell them apart by it.
    public let reads: Int?
    /// What calling it may do that someone else could see (print, write a
    /// file, send into a subject, change a variable), said in a few words
    /// ("calls print"); nil when the language has read its body and found
    /// nothing of the kind. Unknown code (a Swift closure, a script's
    /// `func`) may do anything. A stream built with only such functions can
    /// be subscribed a second time just to be drawn (see `DrawingOnly`).
    public let sideEffect: String?

    /// What `sideEffect` says of code that was not read.
    public static let unreadCode = "runs code flow does not read for side effects"

    public init(name: String, parameterCount: Int?, location: SourceLocation? = nil, reads: Int? = nil,
                sideEffect: String? = Function.unreadCode) {
        self.name = name
        self.parameterCount = parameterCount
        self.location = location
        self.reads = reads ?? parameterCount
        self.sideEffect = sideEffect
    }

    /// This function as a `StreamConsumer`, if it is one (a file writer).
    /// A property rather than a cast: a subscriber asks at every ending,
    /// and a protocol cast looks the conformance up each time.
    open var streamConsumer: StreamConsumer? { nil }

    open func call(_ a: Value) throws -> Value { try call([a]) }
    open func call(_ a: Value, _ b: Value) throws -> Value { try call([a, b]) }
    open func call(_ args: [Value]) throws -> Value {
        switch args.count {
        case 1: return try call(args[0])
        case 2: return try call(args[0], args[1])
        default: throw FlowError("closure '\(name)' cannot take \(args.count) arguments")
        }
    }

    /// Calls an accumulator that changes its first argument in place, as
    /// `reduce(into:)`'s does in Swift; returns the changed accumulator.
    /// A closure that returns the new accumulator instead works too.
    open func callUpdating(_ accumulator: Value, _ value: Value) throws -> Value { try call(accumulator, value) }

    /// Calls a function that may change its first argument in place (an
    /// `inout` state): the state after the call, and what it returned.
    open func callWithState(_ state: Value, _ value: Value) throws -> (state: Value, result: Value) {
        (state, try call(state, value))
    }

    /// Calls an accumulator whose first parameter is `inout` (`reduce(into:)`,
    /// `scan(into:)`), changing `state` where it is: a script's closure
    /// takes the state over for the call, so a collection it holds is
    /// changed without a copy when nothing else holds it.
    open func update(_ state: inout Value, with value: Value) throws {
        state = try callUpdating(state, value)
    }

    /// Calls with `inout` arguments (`reducer(&state, action)`): `args`
    /// holds, after the call, what the parameters hold at its end. A
    /// function that is not a script's closure changes none of them.
    open func callChanging(_ args: inout [Value]) throws -> Value { try call(args) }

    /// Calls a predicate: its result must be a Bool.
    @inline(__always)
    public final func test(_ a: Value) throws -> Bool {
        let result = try call(a)
        if case .bool(let b) = result { return b }
        throw FlowError("\(location == nil ? "closure '\(name)'" : "the closure") must return a Bool, returned \(result.typeName) \(result.literal)",
                        at: location)
    }

    public static func unary(name: String = "closure", _ body: @escaping Unary) -> Function {
        ClosureFunction(name: name, parameterCount: 1, unary: body) { args in
            try body(args.count == 1 ? args[0] : .tuple(args))
        }
    }

    public static func binary(name: String = "closure", _ body: @escaping Binary) -> Function {
        ClosureFunction(name: name, parameterCount: 2, binary: body) { args in
            if args.count == 2 { return try body(args[0], args[1]) }
            if args.count == 1, let parts = args[0].tupleElements, parts.count == 2 { return try body(parts[0], parts[1]) }
            throw FlowError("closure takes 2 arguments, got \(args.count)")
        }
    }

    public static func variadic(name: String = "closure", _ body: @escaping Variadic) -> Function {
        ClosureFunction(name: name, parameterCount: nil, variadic: body)
    }
}

/// A function made of Swift closures.
public final class ClosureFunction: Function {
    // Non-optional on purpose: an optional closure is stored in its most
    // general form and every call would pass through conversion thunks.
    private let unary: Unary
    private let binary: Binary
    private let variadic: Variadic

    public init(name: String = "closure", parameterCount: Int?, unary: @escaping Unary, binary: @escaping Binary, variadic: @escaping Variadic) {
        self.unary = unary
        self.binary = binary
        self.variadic = variadic
        super.init(name: name, parameterCount: parameterCount)
    }

    public convenience init(name: String = "closure", parameterCount: Int?, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: { try variadic([$0]) }, binary: { try variadic([$0, $1]) }, variadic: variadic)
    }

    public convenience init(name: String = "closure", parameterCount: Int?, unary: @escaping Unary, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: unary, binary: { try variadic([$0, $1]) }, variadic: variadic)
    }

    public convenience init(name: String = "closure", parameterCount: Int?, binary: @escaping Binary, variadic: @escaping Variadic) {
        self.init(name: name, parameterCount: parameterCount, unary: { try variadic([$0]) }, binary: binary, variadic: variadic)
    }

    override public func call(_ a: Value) throws -> Value { try unary(a) }
    override public func call(_ a: Value, _ b: Value) throws -> Value { try binary(a, b) }
    override public func call(_ args: [Value]) throws -> Value {
        switch args.count {
        case 1: return try unary(args[0])
        case 2: return try binary(args[0], args[1])
        default: return try variadic(args)
        }
    }
}

/// A function that also wants to know when its stream ends (a file writer
/// given to `sink`): it is told once, and how, so it can commit, keep or
/// release what it holds.
public protocol StreamConsumer: AnyObject {
    /// Returns a note for the user about what became of its output, if
    /// there is something to say (a failed stream left a file unchanged).
    func finish(_ ending: StreamEnding) -> String?
    /// The subscription that feeds it, so a consumer whose output fails
    /// later (a commit on a server) can end its own stream.
    func attach(to subscription: Disposable)
    /// The run whose subscription feeds it keeps what it commits there.
    func count(in ledger: CommitLedger)
}

extension StreamConsumer {
    public func attach(to subscription: Disposable) {}
    public func count(in ledger: CommitLedger) {}
}

/// How a stream ended, for a `StreamConsumer`.
public enum StreamEnding: Sendable {
    case completed
    case failed
    /// Disposed before a terminal event: Ctrl-C, or the end of a run.
    case cancelled
}
