import FlowRuntime

/// How a compiled closure takes its arguments, and how it becomes a
/// runtime `Function`.
///
/// The contract's rules: a closure of N named parameters called with one
/// N-tuple gets the tuple's elements (`combineLatest(...).map { $0 >= $1 }`);
/// a closure that names no parameter and uses no `$n` ignores its
/// arguments (`{ 42 }`); a `$n` closure needs at least n + 1 arguments.
struct ClosureShape {
    static let maxShorthand = 8

    /// Named parameters, or nil for a `$n` closure.
    let declared: Int?
    /// For a `$n` closure: the highest n used, plus one.
    let shorthand: Int
    let frameSize: Int
    /// The closure creates no closures, so a call may reuse the last frame.
    let reusesFrame: Bool
    let location: SourceLocation
    let name: String

    /// Arguments the closure actually reads.
    var parameterCount: Int { declared ?? shorthand }

    func makeFunction(body: [Code], captured: Frame) -> Function {
        let run = Self.runner(body)
        let shape = self
        let cache = Frame(count: frameSize, parent: captured)

        /// A frame for one call: the cached one unless a call is in progress.
        @inline(__always)
        func frame() -> (Frame, Bool) {
            if reusesFrame && !cache.inUse {
                cache.inUse = true
                return (cache, true)
            }
            return (Frame(count: shape.frameSize, parent: captured), false)
        }

        let variadic: Function.Variadic = { args in
            let values = try shape.bind(args)
            let (f, cached) = frame()
            defer { if cached { cache.inUse = false } }
            for (i, v) in values.enumerated() { f.slots[i] = v }
            return try run(f)
        }
        let count = parameterCount
        let unary: Function.Unary = { a in
            guard count <= 1 else { return try variadic([a]) }
            let (f, cached) = frame()
            defer { if cached { cache.inUse = false } }
            if count == 1 { f.slots[0] = a }
            return try run(f)
        }
        let binary: Function.Binary = { a, b in
            guard count == 2 else { return try variadic([a, b]) }
            let (f, cached) = frame()
            defer { if cached { cache.inUse = false } }
            f.slots[0] = a
            f.slots[1] = b
            return try run(f)
        }
        return Function(name: name, parameterCount: declared, unary: unary, binary: binary, variadic: variadic)
    }

    /// A function over a direct body: arguments in registers, no frame.
    func makeDirectFunction(_ body: @escaping DirectCode, captured: Frame) -> Function {
        let shape = self
        let variadic: Function.Variadic = { args in
            let values = try shape.bind(args)
            return try body(values.first ?? .null, values.count > 1 ? values[1] : .null, captured)
        }
        switch parameterCount {
        case 0:
            return Function(name: name, parameterCount: declared, unary: { _ in try body(.null, .null, captured) },
                            binary: { _, _ in try body(.null, .null, captured) }, variadic: variadic)
        case 1:
            // A `$0` closure ignores extra arguments; a named one must not get them.
            let binary: Function.Binary = declared == nil ? { a, _ in try body(a, .null, captured) } : { a, b in try variadic([a, b]) }
            return Function(name: name, parameterCount: declared, unary: { a in try body(a, .null, captured) },
                            binary: binary, variadic: variadic)
        default:
            // One pair (from combineLatest, zip, pairwise) spreads over the two parameters.
            let unary: Function.Unary = { a in
                if case .tuple(let t) = a, t.elements.count == 2 { return try body(t.elements[0], t.elements[1], captured) }
                return try variadic([a])
            }
            return Function(name: name, parameterCount: declared, unary: unary,
                            binary: { a, b in try body(a, b, captured) }, variadic: variadic)
        }
    }

    /// The arguments as the closure's parameters, by the contract's rules.
    func bind(_ args: [Value]) throws -> [Value] {
        let wanted = parameterCount
        if wanted == 0 { return [] }
        if args.count == wanted { return args }
        if args.count == 1, wanted > 1, let parts = args[0].tupleElements, parts.count == wanted { return parts }
        if declared == nil, args.count > wanted { return Array(args.prefix(wanted)) }
        if declared == nil, args.count == 1, let parts = args[0].tupleElements, parts.count >= wanted {
            return Array(parts.prefix(wanted))
        }
        let what = declared == nil ? "uses $\(wanted - 1), so it needs \(wanted) argument\(wanted == 1 ? "" : "s")"
            : "takes \(wanted) parameter\(wanted == 1 ? "" : "s")"
        throw FlowError("closure \(what) but was called with \(args.count)", at: location)
    }

    /// Runs the body's statements; the last one's value is the result.
    static func runner(_ body: [Code]) -> (Frame) throws -> Value {
        switch body.count {
        case 0: return { _ in .null }
        case 1:
            let only = body[0]
            return { frame in
                do { return try only(frame) } catch let signal as ReturnSignal { return signal.value }
            }
        default:
            return { frame in
                do {
                    var result = Value.null
                    for statement in body { result = try statement(frame) }
                    return result
                } catch let signal as ReturnSignal {
                    return signal.value
                }
            }
        }
    }
}
