import FlowRuntime

/// How a compiled closure takes its arguments, and how it becomes a
/// runtime `Function`.
///
/// The contract's rules: a closure of N named parameters called with one
/// N-tuple gets the tuple's elements (`combineLatest(...).map { $0 >= $1 }`);
/// a closure that names no parameter and uses no `$n` ignores its
/// arguments (`{ 42 }`); a `$n` closure needs at least n + 1 arguments.
struct ClosureShape {
    /// Named parameters, or nil for a `$n` closure.
    let declared: Int?
    /// For a `$n` closure: the highest n used, plus one.
    let shorthand: Int
    let frameSize: Int
    /// The closure creates no closures, so a call may reuse the last frame.
    let reusesFrame: Bool
    /// The body changes its first parameter (`reduce(into:)`'s accumulator).
    let updatesFirstParameter: Bool
    let location: SourceLocation
    /// Under `import RxJS`, one array of N values spreads over N parameters,
    /// as RxJS's `([a, b]) => a + b` destructures what `combineLatest` emits.
    var spreadsArrays = false
    /// What calling it may do that the script could see, if anything
    /// (`ClosureEffects`): nil for a closure that only computes.
    var sideEffect: String? = Function.unreadCode

    /// Arguments the closure actually reads.
    var parameterCount: Int { declared ?? shorthand }

    func makeFunction(body: @escaping Code, captured: Frame) -> Function {
        FrameFunction(shape: self, run: body, captured: captured)
    }

    /// A function over a direct body: arguments in registers, no frame.
    func makeDirectFunction(_ body: @escaping DirectCode, captured: Frame) -> Function {
        DirectFunction(shape: self, body: body, captured: captured)
    }

    /// The arguments as the closure's parameters, by the contract's rules.
    func bind(_ args: [Value]) throws -> [Value] {
        let wanted = parameterCount
        if wanted == 0 { return [] }
        if args.count == wanted { return args }
        if args.count == 1, wanted > 1, let parts = args[0].tupleElements, parts.count == wanted { return parts }
        if spreadsArrays, args.count == 1, wanted > 1, case .array(let items) = args[0], items.count == wanted { return items }
        if declared == nil, args.count > wanted { return Array(args.prefix(wanted)) }
        if declared == nil, args.count == 1, let parts = args[0].tupleElements, parts.count >= wanted {
            return Array(parts.prefix(wanted))
        }
        let what = declared == nil ? "uses $\(wanted - 1), so it needs \(wanted) argument\(wanted == 1 ? "" : "s")"
            : "takes \(wanted) parameter\(wanted == 1 ? "" : "s")"
        throw FlowError("closure \(what) but was called with \(args.count)", at: location)
    }

}

/// A closure whose body runs in a frame of its own (it has `let`s, several
/// statements, or calls).
final class FrameFunction: Function {
    private let shape: ClosureShape
    private let run: (Frame) throws -> Value
    private let captured: Frame
    /// The frame reused between calls, when the body creates no closures.
    private var cache: Frame?

    init(shape: ClosureShape, run: @escaping (Frame) throws -> Value, captured: Frame) {
        self.shape = shape
        self.run = run
        self.captured = captured
        super.init(name: "closure", parameterCount: shape.declared, location: shape.location, reads: shape.parameterCount,
                   sideEffect: shape.sideEffect)
    }

    /// Runs the body in a frame filled by `fill`: the cached frame unless a
    /// call is already using it (a re-entrant call gets a fresh one).
    @inline(__always)
    private func invoke(_ fill: (Frame) -> Void) throws -> Value {
        if shape.reusesFrame {
            let frame = cache ?? Frame(count: shape.frameSize, parent: captured)
            cache = frame
            if !frame.inUse {
                frame.inUse = true
                defer { frame.inUse = false }
                fill(frame)
                return try run(frame)
            }
        }
        let frame = Frame(count: shape.frameSize, parent: captured)
        fill(frame)
        return try run(frame)
    }

    override func call(_ a: Value) throws -> Value {
        switch shape.parameterCount {
        case 0: return try invoke { _ in }
        case 1: return try invoke { $0.slots[0] = a }
        default: return try call([a])
        }
    }

    override func call(_ a: Value, _ b: Value) throws -> Value {
        switch shape.parameterCount {
        case 0: return try invoke { _ in }
        case 2: return try invoke { $0.slots[0] = a; $0.slots[1] = b }
        default: return try call([a, b])
        }
    }

    override func callChanging(_ args: inout [Value]) throws -> Value {
        let values = try shape.bind(args)
        // A frame of its own, read after the call: the parameters' last values.
        let frame = Frame(count: shape.frameSize, parent: captured)
        for (i, v) in values.enumerated() { frame.slots[i] = v }
        args = []
        defer { args = (0..<values.count).map { frame.slots[$0] } }
        return try run(frame)
    }

    override func call(_ args: [Value]) throws -> Value {
        let values = try shape.bind(args)
        return try invoke { frame in for (i, v) in values.enumerated() { frame.slots[i] = v } }
    }

    override func callUpdating(_ accumulator: Value, _ value: Value) throws -> Value {
        guard shape.updatesFirstParameter, shape.parameterCount == 2 else { return try call(accumulator, value) }
        return try callWithState(accumulator, value).state
    }

    override func update(_ state: inout Value, with value: Value) throws {
        guard shape.updatesFirstParameter, shape.parameterCount == 2 else {
            state = try call(state, value)
            return
        }
        let frame = Frame(count: shape.frameSize, parent: captured)
        // Moved in and out, never copied: the state stays referenced once.
        swap(&frame.slots[0], &state)
        frame.slots[1] = value
        defer { swap(&state, &frame.slots[0]) }
        _ = try run(frame)
    }

    override func callWithState(_ state: Value, _ value: Value) throws -> (state: Value, result: Value) {
        guard shape.updatesFirstParameter, shape.parameterCount == 2 else { return (state, try call(state, value)) }
        // A fresh frame: the changed state is read from it after the call.
        let frame = Frame(count: shape.frameSize, parent: captured)
        frame.slots[0] = state
        frame.slots[1] = value
        let result = try run(frame)
        return (frame.slots[0], result)
    }
}

/// A closure compiled by `DirectCompiler`: one expression over at most two
/// parameters, evaluated with no frame.
final class DirectFunction: Function {
    private let shape: ClosureShape
    private let body: DirectCode
    private let captured: Frame

    init(shape: ClosureShape, body: @escaping DirectCode, captured: Frame) {
        self.shape = shape
        self.body = body
        self.captured = captured
        super.init(name: "closure", parameterCount: shape.declared, location: shape.location, reads: shape.parameterCount,
                   sideEffect: shape.sideEffect)
    }

    override func call(_ a: Value) throws -> Value {
        switch shape.parameterCount {
        case 0: return try body(.null, .null, captured)
        case 1: return try body(a, .null, captured)
        default:
            // One pair (from combineLatest, zip, pairwise) spreads over the two parameters.
            if case .tuple(let t) = a, t.elements.count == 2 { return try body(t.elements[0], t.elements[1], captured) }
            if shape.spreadsArrays, case .array(let items) = a, items.count == 2 { return try body(items[0], items[1], captured) }
            return try call([a])
        }
    }

    override func call(_ a: Value, _ b: Value) throws -> Value {
        switch shape.parameterCount {
        case 0: return try body(.null, .null, captured)
        case 2: return try body(a, b, captured)
        // A `$0` closure ignores extra arguments; a named one must not get them.
        case 1 where shape.declared == nil: return try body(a, .null, captured)
        default: return try call([a, b])
        }
    }

    override func call(_ args: [Value]) throws -> Value {
        let values = try shape.bind(args)
        return try body(values.first ?? .null, values.count > 1 ? values[1] : .null, captured)
    }
}
