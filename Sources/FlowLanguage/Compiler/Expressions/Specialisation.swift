import FlowRuntime

/// Closures such as `{ $0 * 2 }`, `{ $0 % 3 == 0 }` or `{ a, b in a + b }`
/// make up most of a stream script's per-event work. While the compiler
/// compiles the body of a closure of at most two parameters made of
/// expression statements, each expression's compile function also makes a
/// specialised form of it, from its parts' specialised forms: code that
/// takes the closure's arguments directly, with no frame, so that a call
/// costs what a Swift closure doing the same would. One walk of the
/// syntax, one place that decides what an expression means; where some
/// part has no specialised form (a `let`, a nested closure, a method of
/// the script's types), the closure runs in a frame.
///
/// An expression's compile function returns its form in `CompiledExpression.direct`,
/// beside its code.
typealias DirectCode = (Value, Value, Frame) throws -> Value

/// A value read in place by the code that uses it, rather than through a
/// closure call of its own: for the receivers and arguments of calls made
/// per event, the call costs more than the read.
enum Operand {
    case parameter(Int)
    /// A name of an enclosing scope: `up` frames above the captured one.
    case outer(up: Int, slot: Int)
}

extension Compiler {
    /// The specialised form `make` builds, when the closure being compiled
    /// is specialised; otherwise nothing is built.
    func specialised(in scope: Scope, _ make: () -> DirectCode?) -> DirectCode? {
        scope.frameOwner.specialising != nil ? make() : nil
    }

    /// A closure's statements when they are all expressions.
    static func expressionStatements(_ body: [Statement]) -> [Expr]? {
        guard !body.isEmpty else { return nil }
        var expressions: [Expr] = []
        for statement in body {
            guard case .expression(let expr) = statement else { return nil }
            expressions.append(expr)
        }
        return expressions
    }

    /// A body of expression statements, compiled for a frame and, where
    /// every statement has one, in its specialised form; the last
    /// statement's value is the result, whose type is `type`.
    func compileSpecialisable(_ expressions: [Expr], in scope: Scope)
        -> (body: Code, direct: DirectCode?, type: StaticType, typeIsSure: Bool) {
        var body: Code?
        var direct: DirectCode?
        var specialised = true
        var type = StaticType.unknown
        var typeIsSure = false
        for expr in expressions {
            let compiled = compileExpressionStatement(expr, in: scope)
            (type, typeIsSure) = (compiled.type, compiled.typeIsSure)
            let code = compiled.code
            // A statement that subscribes itself (`s.print()`) runs as compiled for a frame.
            let form = Self.subscribesItself(expr) ? nil : compiled.direct
            if let before = body {
                body = { frame in
                    _ = try before(frame)
                    return try code(frame)
                }
            } else {
                body = code
            }
            // Composed closure by closure, never through an array: a
            // closure taken out of an array comes wrapped in conversion thunks.
            guard specialised, let form else {
                specialised = false
                continue
            }
            if let before = direct {
                direct = { a, b, f in
                    _ = try before(a, b, f)
                    return try form(a, b, f)
                }
            } else {
                direct = form
            }
        }
        let run = body ?? { _ in .null }
        return ({ frame in
            do { return try run(frame) } catch let signal as ReturnSignal { return signal.value }
        }, specialised ? direct : nil, type, typeIsSure)
    }

    /// A name's value: a parameter (depth 0) or a name of an enclosing scope.
    func directRead(depth: Int, slot: Int, in scope: Scope) -> DirectCode? {
        if depth == 0 {
            guard let count = scope.frameOwner.specialising, slot < count else { return nil }
            return Self.directParameter(slot)
        }
        let up = depth - 1
        switch up {
        case 0: return { _, _, captured in captured.slots[slot] }
        default: return { _, _, captured in captured.ancestor(up).slots[slot] }
        }
    }

    static func directParameter(_ n: Int) -> DirectCode? {
        switch n {
        case 0: return { a, _, _ in a }
        case 1: return { _, b, _ in b }
        default: return nil
        }
    }

    func operand(_ expr: Expr, in scope: Scope) -> Operand? {
        if let n = parameterIndex(expr, in: scope) { return .parameter(n) }
        guard case .name(let name, _) = expr, let (depth, slot) = scope.lookup(name), depth > 0 else { return nil }
        return .outer(up: depth - 1, slot: slot)
    }

    /// Which parameter of the closure being specialised an expression is.
    func parameterIndex(_ expr: Expr, in scope: Scope) -> Int? {
        guard let count = scope.frameOwner.specialising else { return nil }
        switch expr {
        case .shorthand(let n, _) where n < count: return n
        case .name(let name, _):
            guard let (depth, slot) = scope.lookup(name), depth == 0, slot < count else { return nil }
            return slot
        default: return nil
        }
    }

    static func directUnary(_ op: PrefixOperator, _ value: DirectCode?, _ location: SourceLocation) -> DirectCode? {
        guard let value else { return nil }
        if op == .negate { return { a, b, f in try located(location) { try Value.negate(try value(a, b, f)) } } }
        return { a, b, f in try located(location) { .bool(!(try value(a, b, f).asBool())) } }
    }

    func directBinary(
        _ op: BinaryOperator, _ l: DirectCode?, _ r: DirectCode?, left: Expr?, right: Expr, _ location: SourceLocation, in scope: Scope
    ) -> DirectCode? {
        guard let l, let r else { return nil }
        switch op {
        case .and: return { a, b, f in try located(location) { .bool(try l(a, b, f).asBool() && r(a, b, f).asBool()) } }
        case .or: return { a, b, f in try located(location) { .bool(try l(a, b, f).asBool() || r(a, b, f).asBool()) } }
        case .nilCoalescing: return { a, b, f in let v = try l(a, b, f); return v.isNull ? try r(a, b, f) : v }
        default: break
        }
        // The shapes that dominate stream closures, without inner calls.
        switch (left.flatMap { parameterIndex($0, in: scope) }, parameterIndex(right, in: scope), Self.constant(right)) {
        case (0?, _, let k?): return { a, _, _ in try op.apply(a, k, at: location) }
        case (1?, _, let k?): return { _, b, _ in try op.apply(b, k, at: location) }
        case (0?, 1?, _): return { a, b, _ in try op.apply(a, b, at: location) }
        case (1?, 0?, _): return { a, b, _ in try op.apply(b, a, at: location) }
        case (_, _, let k?): return { a, b, f in try op.apply(try l(a, b, f), k, at: location) }
        default: return { a, b, f in try op.apply(try l(a, b, f), try r(a, b, f), at: location) }
        }
    }

    static func directTernary(_ c: DirectCode?, _ t: DirectCode?, _ e: DirectCode?, _ location: SourceLocation) -> DirectCode? {
        guard let c, let t, let e else { return nil }
        return { a, b, f in try located(location) { try c(a, b, f).asBool() } ? try t(a, b, f) : try e(a, b, f) }
    }

    static func directMember(_ base: DirectCode?, _ name: String, _ location: SourceLocation) -> DirectCode? {
        guard let base else { return nil }
        let methods = ValueMethods.property(named: name)
        return { a, b, f in
            let v = try base(a, b, f)
            return try located(location) { try v.property(name, methods: methods) }
        }
    }

    static func directSubscript(_ base: DirectCode?, _ key: DirectCode?, _ location: SourceLocation) -> DirectCode? {
        guard let base, let key else { return nil }
        return { a, b, f in
            let c = try base(a, b, f), k = try key(a, b, f)
            return try located(location) { try c.subscripted(by: k) }
        }
    }

    // MARK: - Calls

    /// A call of an operator of the table (`just($0)`, `s.send($0)`,
    /// `range(0, $0)`, `module.function(...)`), from its receiver's and
    /// written arguments' specialised forms.
    func directOperatorCall(
        _ call: OperatorCall, receiver: (expr: Expr, code: DirectCode?)?, _ arguments: [CallArgument], _ args: CompiledArguments,
        helper: (name: String, labels: [String?])?, _ nameSpan: Span, in scope: Scope
    ) -> DirectCode? {
        // An operator that shows values needs its calling frame's describer:
        // the general path makes it (and `print` is never hot).
        if let receiver, receiver.code == nil { return nil }
        if call.spec.traits.contains(.describesValues) { return nil }
        guard let written = directArgumentList(arguments, args.writtenDirects, in: scope) else { return nil }
        let spec = call.spec
        let evaluate = call.passesArgumentsAsWritten ? written : { a, b, f in call.arguments(try written(a, b, f)) }
        let labels = call.passesArgumentsAsWritten ? arguments.map(\.label) : call.labels
        let location = self.location(nameSpan)
        let site = OperatorTable.CallSite(spec, labels: labels, context: environment.context(at: location), form: call.form)
        if spec.traits.contains(.sendsIntoSubject), labels == [nil], let receiver, case .outer(let up, let slot)? = operand(receiver.expr, in: scope),
           let parameter = parameterIndex(arguments[0].value, in: scope) {
            // `subject.send($0)` with a subject from outside the closure, the
            // line that drives most subject scripts: both read in place.
            return { a, b, f in
                let target = up == 0 ? f.slots[slot] : f.ancestor(up).slots[slot]
                let value = parameter == 0 ? a : b
                if case .stream(let stream) = target, let subject = stream as? Subject {
                    subject.send(value)
                    return .null
                }
                return try OperatorTable.call(site, receiver: target, arguments: [value])
            }
        }
        if spec.traits.contains(.sendsIntoSubject), labels == [nil], let target = receiver?.code, let value = args.writtenDirects.first ?? nil {
            return { a, b, f in
                let receiver = try target(a, b, f)
                if case .stream(let stream) = receiver, let subject = stream as? Subject {
                    subject.send(try value(a, b, f))
                    return .null
                }
                return try OperatorTable.call(site, receiver: receiver, arguments: [try value(a, b, f)])
            }
        }
        if let target = receiver?.code, let helper, let methods = ValueMethods.group(named: helper.name) {
            // The same name on an array or a string is the method of values.
            return { a, b, f in
                let receiver = try target(a, b, f)
                let values = try written(a, b, f)
                if !receiver.isStream {
                    return try located(location) { try methods.call(on: receiver, labels: helper.labels, arguments: values) }
                }
                return try OperatorTable.call(site, receiver: receiver, arguments: call.arguments(values))
            }
        }
        guard let receiver, let target = receiver.code else {
            if call.passesArgumentsAsWritten, arguments.count == 1 {
                // One argument is handed over as it is, not in an array.
                switch operand(arguments[0].value, in: scope) {
                case .parameter(0)?: return { a, _, _ in try OperatorTable.call(site, receiver: nil, argument: a) }
                case .parameter(_)?: return { _, b, _ in try OperatorTable.call(site, receiver: nil, argument: b) }
                default: break
                }
            }
            return { a, b, f in try OperatorTable.call(site, receiver: nil, arguments: try evaluate(a, b, f)) }
        }
        if case .outer(0, let slot)? = operand(receiver.expr, in: scope) {
            return { a, b, f in try OperatorTable.call(site, receiver: f.slots[slot], arguments: try evaluate(a, b, f)) }
        }
        return { a, b, f in
            let value = try target(a, b, f)
            return try OperatorTable.call(site, receiver: value, arguments: try evaluate(a, b, f))
        }
    }

    /// `s.sink { }` / `s.subscribe(onNext:)` (labels checked by the frame compile).
    func directSubscription(
        _ name: String, _ stream: DirectCode?, _ arguments: [CallArgument], _ args: CompiledArguments, _ span: Span, in scope: Scope
    ) -> DirectCode? {
        guard let stream else { return nil }
        let env = environment
        let location = self.location(span)
        if arguments.count == 1, case .outer(0, let slot)? = operand(arguments[0].value, in: scope) {
            // `s.sink(handler)` with a closure made outside: the handler is read in place.
            let role = Handlers.roles(of: [arguments[0].label], in: name)[0]
            let handlerLocation = self.location(arguments[0].value.span)
            return { a, b, f in
                let observable = try located(location) { try stream(a, b, f).asStream() }
                var handlers = Handlers()
                try located(handlerLocation) { try handlers.set(role, value: f.slots[slot]) }
                return .function(env.subscribe(observable, at: location, handlers: handlers))
            }
        }
        var handlers: (Value, Value, Frame) throws -> Handlers = { _, _, _ in Handlers() }
        for ((argument, code), role) in zip(zip(arguments, args.writtenDirects), Handlers.roles(of: arguments.map(\.label), in: name)) {
            guard let code else { return nil }
            let before = handlers
            let location = self.location(argument.value.span)
            handlers = { a, b, f in
                var set = try before(a, b, f)
                try located(location) { try set.set(role, value: code(a, b, f)) }
                return set
            }
        }
        return { a, b, f in
            let observable = try located(location) { try stream(a, b, f).asStream() }
            return .function(env.subscribe(observable, at: location, handlers: try handlers(a, b, f)))
        }
    }

    /// Evaluates arguments into an array, composed without storing closures
    /// in an array (see `compileSpecialisable`).
    private func directArgumentList(
        _ arguments: [CallArgument], _ forms: [DirectCode?], in scope: Scope
    ) -> ((Value, Value, Frame) throws -> [Value])? {
        // Literal arguments (`range(0, 1)`) are one array made now.
        let constants = arguments.compactMap { Self.constant($0.value) }
        if constants.count == arguments.count { return { _, _, _ in constants } }
        guard forms.count == arguments.count, forms.allSatisfy({ $0 != nil }) else { return nil }
        let codes = forms.map { $0! }
        // One and two arguments, the common cases, as array literals: one
        // allocation, no growth.
        if codes.count == 1 {
            switch operand(arguments[0].value, in: scope) {
            case .parameter(0)?: return { a, _, _ in [a] }
            case .parameter(_)?: return { _, b, _ in [b] }
            case .outer(0, let slot)?: return { _, _, f in [f.slots[slot]] }
            default:
                let first = codes[0]
                return { a, b, f in [try first(a, b, f)] }
            }
        }
        if codes.count == 2 {
            let (first, second) = (codes[0], codes[1])
            return { a, b, f in [try first(a, b, f), try second(a, b, f)] }
        }
        var list: (Value, Value, Frame) throws -> [Value] = { _, _, _ in [] }
        let count = codes.count
        for code in codes {
            let before = list
            list = { a, b, f in
                var values = try before(a, b, f)
                values.reserveCapacity(count)
                values.append(try code(a, b, f))
                return values
            }
        }
        return list
    }
}
