import FlowRuntime

/// Closures such as `{ $0 * 2 }`, `{ $0 % 3 == 0 }` or `{ a, b in a + b }`
/// make up most of a stream script's per-event work. When a closure's body
/// is expressions over at most two parameters, constants, outer names and
/// operator calls (no `let`, no nested closure), it is compiled a second
/// time to take its arguments directly, with no frame: the call costs what
/// a Swift closure doing the same would.
typealias DirectCode = (Value, Value, Frame) throws -> Value

struct DirectCompiler {
    let file: SourceFile
    let environment: Environment
    /// The closure's scope: its parameters are slots 0 and 1 at depth 0.
    let scope: Scope
    let parameterCount: Int
    /// Names of the script's types' methods and computed properties: a
    /// member by one of these names is looked up by the value's type.
    let typeMembers: Set<String>
    /// The compiler's `methodMeaning`, found once per name and labels.
    let meaning: (String, [String?]) -> MethodMeaning?

    func location(_ span: Span) -> SourceLocation { file.location(of: span.start) }

    /// A body of expression statements; the last one's value is the result.
    /// Composed closure by closure, never through an array: a closure taken
    /// out of an array comes wrapped in conversion thunks.
    func compile(body: [Statement]) -> DirectCode? {
        guard case .expression(let lastExpr)? = body.last, var code = compile(lastExpr) else { return nil }
        for statement in body.dropLast().reversed() {
            guard case .expression(let expr) = statement, let first = compile(expr) else { return nil }
            let rest = code
            code = { a, b, f in
                _ = try first(a, b, f)
                return try rest(a, b, f)
            }
        }
        return code
    }

    /// nil when the expression uses something only frames support.
    func compile(_ expr: Expr) -> DirectCode? {
        switch expr {
        case .literal(let v, _):
            return { _, _, _ in v }
        case .shorthand(let n, _):
            return argument(n)
        case .name(let name, _):
            guard let (depth, slot) = scope.lookup(name) else { return nil }
            if depth == 0 { return slot < parameterCount ? argument(slot) : nil }
            let up = depth - 1
            switch up {
            case 0: return { _, _, captured in captured.slots[slot] }
            default: return { _, _, captured in captured.ancestor(up).slots[slot] }
            }
        case .unary(let op, let operand, let span):
            guard let value = compile(operand) else { return nil }
            let location = self.location(span)
            if op == "-" { return { a, b, f in try located(location) { try Value.negate(try value(a, b, f)) } } }
            return { a, b, f in try located(location) { .bool(!(try value(a, b, f).asBool())) } }
        case .binary(let op, let lhs, let rhs, let opSpan, _):
            return binary(op, lhs, rhs, location(opSpan))
        case .ternary(let c, let t, let e, _):
            guard let condition = compile(c), let whenTrue = compile(t), let whenFalse = compile(e) else { return nil }
            let location = self.location(c.span)
            return { a, b, f in try located(location) { try condition(a, b, f).asBool() } ? try whenTrue(a, b, f) : try whenFalse(a, b, f) }
        case .member(let base, let name, let nameSpan, _):
            guard name != "subscriptions", !typeMembers.contains(name), let value = compile(base) else { return nil }
            let location = self.location(nameSpan)
            return { a, b, f in
                let v = try value(a, b, f)
                return try located(location) { try v.member(name) }
            }
        case .subscriptAccess(let base, let index, let span):
            guard let container = compile(base), let key = compile(index) else { return nil }
            let location = self.location(span)
            return { a, b, f in
                let c = try container(a, b, f), k = try key(a, b, f)
                return try located(location) { try c.subscripted(by: k) }
            }
        case .call(let callee, let arguments, _):
            return operatorCall(callee, arguments)
        default:
            return nil
        }
    }

    /// A call of an operator of the table (`just($0)`, `s.send($0)`,
    /// `range(0, $0)`); other calls need a frame. The frame-mode compile of
    /// the same closure has already checked the call.
    private func operatorCall(_ callee: Expr, _ arguments: [CallArgument]) -> DirectCode? {
        if case .member(_, let name, _, _) = callee, typeMembers.contains(name) || CollectionMutation.names.contains(name) { return nil }
        if arguments.contains(where: { if case .inoutArgument = $0.value { true } else { false } }) { return nil }
        let call: OperatorCall
        let receiver: DirectCode?
        let nameSpan: Span
        let written = arguments.map(\.label)
        switch callee {
        case .name(let name, let span):
            guard scope.lookup(name) == nil, !Builtins.languageFunctions.contains(name),
                  let found = OperatorCall(name, labels: written, method: false), found.spec.form != .method else { return nil }
            (call, receiver, nameSpan) = (found, nil, span)
        case .member(.name(let moduleName, _), let name, let span, _)
            where scope.lookup(moduleName) == nil && environment.modules[moduleName] != nil:
            guard let found = environment.modules[moduleName]?.function(name) else { return nil }
            (call, receiver, nameSpan) = (OperatorCall(found), nil, span)
        case .member(let base, let name, _, _) where Builtins.isSubscribing(name, labels: written):
            return subscription(base, arguments, callee.span)
        case .member(let base, let name, let span, _):
            guard let found = meaning(name, written)?.call,
                  let target = compile(base) else { return nil }
            (call, receiver, nameSpan) = (found, target, span)
        default:
            return nil
        }
        guard let written = argumentList(arguments) else { return nil }
        let spec = call.spec
        let evaluate = call.passesArgumentsAsWritten ? written : { a, b, f in call.arguments(try written(a, b, f)) }
        let labels = call.passesArgumentsAsWritten ? arguments.map(\.label) : call.labels
        let location = self.location(nameSpan)
        let env = environment
        let site = OperatorTable.CallSite(spec, labels: labels, context: env.context(at: location), form: call.form)
        if spec.name == "send", labels == [nil], case .member(.name(let subjectName, _), _, _, _) = callee,
           let (depth, slot) = scope.lookup(subjectName), depth > 0, let parameter = parameterIndex(arguments[0].value) {
            // `subject.send($0)` with a subject from outside the closure, the
            // line that drives most subject scripts: both read in place.
            let up = depth - 1
            return { a, b, f in
                let target = up == 0 ? f.slots[slot] : f.ancestor(up).slots[slot]
                let value = parameter == 0 ? a : b
                if case .stream(let stream) = target, let subject = stream as? Subject {
                    subject.send(value)
                    return .null
                }
                return try operatorTable.call(site, receiver: target, arguments: [value])
            }
        }
        if spec.name == "send", labels == [nil], let receiver, let value = compile(arguments[0].value) {
            return { a, b, f in
                let target = try receiver(a, b, f)
                if case .stream(let stream) = target, let subject = stream as? Subject {
                    subject.send(try value(a, b, f))
                    return .null
                }
                return try operatorTable.call(site, receiver: target, arguments: [try value(a, b, f)])
            }
        }
        let name = file.text(of: nameSpan)
        if let receiver, CollectionHelpers.names.contains(name),
           let helperLabels = CollectionHelpers.bind(name, labels: arguments.map(\.label), values: arguments.map { _ in nil },
                                                     trailingClosure: arguments.last?.isTrailing == true) {
            // The same name on an array or a string is the collection helper.
            return { a, b, f in
                let target = try receiver(a, b, f)
                let values = try written(a, b, f)
                if !target.isStream {
                    return try located(location) { try CollectionHelpers.call(name, on: target, labels: helperLabels, arguments: values) }
                }
                return try operatorTable.call(site, receiver: target, arguments: call.arguments(values))
            }
        }
        guard let receiver else {
            if call.passesArgumentsAsWritten, arguments.count == 1 {
                switch operand(arguments[0].value) {
                case .parameter(0)?: return { a, _, _ in try operatorTable.call(site, receiver: nil, argument: a) }
                case .parameter(_)?: return { _, b, _ in try operatorTable.call(site, receiver: nil, argument: b) }
                default: break
                }
            }
            return { a, b, f in try operatorTable.call(site, receiver: nil, arguments: try evaluate(a, b, f)) }
        }
        if case .member(let base, _, _, _) = callee, case .outer(0, let slot)? = operand(base) {
            return { a, b, f in try operatorTable.call(site, receiver: f.slots[slot], arguments: try evaluate(a, b, f)) }
        }
        return { a, b, f in
            let target = try receiver(a, b, f)
            return try operatorTable.call(site, receiver: target, arguments: try evaluate(a, b, f))
        }
    }

    /// `s.sink { }` / `s.subscribe(onNext:)` inside a closure (the frame
    /// compile has checked its labels).
    private func subscription(_ base: Expr, _ arguments: [CallArgument], _ span: Span) -> DirectCode? {
        // `bind(to:)` needs the frame compile's handling.
        guard !arguments.contains(where: { $0.label == "to" }), let stream = compile(base) else { return nil }
        let env = environment
        let location = self.location(span)
        if arguments.count == 1, case .outer(0, let slot)? = operand(arguments[0].value) {
            // `s.sink(handler)` with a closure made outside: the handler is read in place.
            let role = Handlers.role(of: arguments[0].label)
            let handlerLocation = self.location(arguments[0].value.span)
            return { a, b, f in
                let observable = try located(location) { try stream(a, b, f).asStream() }
                var handlers = Handlers()
                handlers.set(role, try located(handlerLocation) { try f.slots[slot].asFunction() })
                return .function(env.subscribe(observable, at: location, handlers: handlers))
            }
        }
        var handlers: (Value, Value, Frame) throws -> Handlers = { _, _, _ in Handlers() }
        for argument in arguments {
            guard let code = compile(argument.value) else { return nil }
            let role = Handlers.role(of: argument.label)
            let before = handlers
            let location = self.location(argument.value.span)
            handlers = { a, b, f in
                var set = try before(a, b, f)
                set.set(role, try located(location) { try code(a, b, f).asFunction() })
                return set
            }
        }
        return { a, b, f in
            let observable = try located(location) { try stream(a, b, f).asStream() }
            return .function(env.subscribe(observable, at: location, handlers: try handlers(a, b, f)))
        }
    }

    /// Evaluates arguments into an array, composed without storing closures
    /// in an array (see `compile(body:)`).
    private func argumentList(_ arguments: [CallArgument]) -> ((Value, Value, Frame) throws -> [Value])? {
        // Literal arguments (`range(0, 1)`) are one array made now.
        let constants = arguments.compactMap { Compiler.constant($0.value) }
        if constants.count == arguments.count { return { _, _, _ in constants } }
        // One and two arguments, the common cases, as array literals: one
        // allocation, no growth.
        if arguments.count == 1 {
            switch operand(arguments[0].value) {
            case .parameter(0)?: return { a, _, _ in [a] }
            case .parameter(_)?: return { _, b, _ in [b] }
            case .outer(0, let slot)?: return { _, _, f in [f.slots[slot]] }
            default: break
            }
        }
        if arguments.count == 1, let first = compile(arguments[0].value) {
            return { a, b, f in [try first(a, b, f)] }
        }
        if arguments.count == 2, let first = compile(arguments[0].value), let second = compile(arguments[1].value) {
            return { a, b, f in [try first(a, b, f), try second(a, b, f)] }
        }
        var list: (Value, Value, Frame) throws -> [Value] = { _, _, _ in [] }
        let count = arguments.count
        for argument in arguments {
            guard let code = compile(argument.value) else { return nil }
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

    private func argument(_ n: Int) -> DirectCode? {
        switch n {
        case 0: return { a, _, _ in a }
        case 1: return { _, b, _ in b }
        default: return nil
        }
    }

    private func binary(_ op: String, _ lhs: Expr, _ rhs: Expr, _ location: SourceLocation) -> DirectCode? {
        guard let l = compile(lhs), let r = compile(rhs) else { return nil }
        switch op {
        case "&&": return { a, b, f in try located(location) { .bool(try l(a, b, f).asBool() && r(a, b, f).asBool()) } }
        case "||": return { a, b, f in try located(location) { .bool(try l(a, b, f).asBool() || r(a, b, f).asBool()) } }
        case "??": return { a, b, f in let v = try l(a, b, f); return v.isNull ? try r(a, b, f) : v }
        default: break
        }
        guard let op = BinaryOperator(rawValue: op) else { return nil }
        // The shapes that dominate stream closures, without inner calls.
        switch (parameterIndex(lhs), parameterIndex(rhs), Compiler.constant(rhs)) {
        case (0?, _, let k?): return { a, _, _ in try op.apply(a, k, at: location) }
        case (1?, _, let k?): return { _, b, _ in try op.apply(b, k, at: location) }
        case (0?, 1?, _): return { a, b, _ in try op.apply(a, b, at: location) }
        case (1?, 0?, _): return { a, b, _ in try op.apply(b, a, at: location) }
        case (_, _, let k?): return { a, b, f in try op.apply(try l(a, b, f), k, at: location) }
        default: return { a, b, f in try op.apply(try l(a, b, f), try r(a, b, f), at: location) }
        }
    }

    /// A value read in place by the code that uses it, rather than through
    /// a closure call of its own: for the arguments and receivers of the
    /// calls that run per event, the call costs more than the read.
    enum Operand {
        case parameter(Int)
        /// A name of an enclosing scope: `up` frames above the captured one.
        case outer(up: Int, slot: Int)
    }

    func operand(_ expr: Expr) -> Operand? {
        if let n = parameterIndex(expr) { return .parameter(n) }
        guard case .name(let name, _) = expr, let (depth, slot) = scope.lookup(name), depth > 0 else { return nil }
        return .outer(up: depth - 1, slot: slot)
    }

    /// Which parameter an expression is, if it is one.
    private func parameterIndex(_ expr: Expr) -> Int? {
        switch expr {
        case .shorthand(let n, _) where n < parameterCount: return n
        case .name(let name, _):
            guard let (depth, slot) = scope.lookup(name), depth == 0, slot < parameterCount else { return nil }
            return slot
        default: return nil
        }
    }
}
