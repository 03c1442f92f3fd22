import Collections
import FlowMarbles
import FlowRuntime

/// What compiling an expression made: its code, and what the compiler
/// learned of it on the way, for the expression around it to build on.
struct CompiledExpression {
    let code: Code
    /// Its specialised form, made only while a closure's body is specialised.
    var direct: DirectCode?
    /// Its value is surely a stream: `cold(...)`, an operator's free
    /// function (`just`, `merge`), an operator called on a stream, or a
    /// `let` bound to one. A method called on it is checked as the
    /// operator's before the script runs. Conservative: what it cannot be
    /// sure of is checked when the script runs.
    var isStream: Bool
    /// Its type, where the script's declarations and literals tell it
    /// before running (StaticType.swift); unknown elsewhere.
    var type: StaticType
    /// Its type is sure, not only likely: a literal's, one the script
    /// wrote, or one made of such. Swift's type errors are reported only
    /// between sure types, so untyped code keeps running as the values
    /// decide (`let n = 5; n * 0.5` is 2.5).
    var typeIsSure: Bool

    init(_ code: @escaping Code, direct: DirectCode? = nil, isStream: Bool = false, type: StaticType = .unknown, typeIsSure: Bool = false) {
        self.code = code
        self.direct = direct
        self.isStream = isStream
        self.type = type
        self.typeIsSure = typeIsSure
    }

    /// The same code, known to be of `type`.
    func typed(_ type: StaticType, sure: Bool) -> CompiledExpression {
        var copy = self
        copy.type = type
        copy.typeIsSure = sure
        return copy
    }
}

/// Expressions: each compile function returns what it made (`CompiledExpression`).
/// Calls are in CallCompiler.swift, closures' specialised forms in
/// Specialisation.swift.
extension Compiler {
    // MARK: - Expressions

    /// An expression's code, when nothing else about it is wanted.
    func compile(_ expr: Expr, in scope: Scope) -> Code {
        compiled(expr, in: scope).code
    }

    /// An expression's code, its specialised form, and whether it is surely
    /// a stream: each made from what compiling its parts returned.
    func compiled(_ expr: Expr, in scope: Scope) -> CompiledExpression {
        guard StackSpace.remaining() > 128 * 1024 else {
            error("expression too deeply nested to compile", expr.span, help: "split it with let bindings")
            return CompiledExpression { _ in .null }
        }
        switch expr {
        case .literal(let value, _):
            return CompiledExpression({ _ in value }, direct: specialised(in: scope) { { _, _, _ in value } }, type: .of(literal: value),
                                      typeIsSure: true)
        case .string(let parts, let span):
            return CompiledExpression(compileInterpolation(parts, span, in: scope), type: .string, typeIsSure: true)
        case .name(let name, let span):
            return compileName(name, span, in: scope)
        case .shorthand(let n, let span):
            return compileShorthand(n, span, in: scope)
        case .array, .dictionary, .tuple:
            return compiled(expr, expecting: .unknown, in: scope)
        case .closure(let closure):
            return compileClosure(closure, in: scope)
        case .unary(let op, let operand, let span):
            return compileUnary(op, operand, span, in: scope)
        case .binary(let op, let lhs, let rhs, let opSpan, _):
            return compileBinary(op, lhs, rhs, opSpan, in: scope)
        case .ternary(let condition, let whenTrue, let whenFalse, _):
            return compileTernary(condition, whenTrue, whenFalse, expecting: .unknown, in: scope)
        case .member(let base, let name, let nameSpan, _):
            return compileMember(base, name, nameSpan, in: scope)
        case .subscriptAccess(let base, .tuple(let parts, [nil, "default"], _), let span):
            return compileDefaultedSubscript(base, parts[0], parts[1], span, in: scope)
        case .subscriptAccess(let base, .oneSidedRange(let side, let bound, _), let span):
            let b = compiled(base, in: scope), i = compile(bound, in: scope)
            let location = self.location(span)
            let container = b.code
            return CompiledExpression({ frame in
                let value = try container(frame), key = try i(frame)
                return try located(location) { try value.subscripted(by: side, key) }
            }, type: b.type, typeIsSure: b.typeIsSure)
        case .oneSidedRange(let side, let bound, let span):
            let written = file.text(of: bound.span)
            error("flow reads a one-sided range in a subscript or a case pattern only, as in xs[2...] or case ..<0:", span,
                  help: side == .from ? "write both bounds here, as in \(written)..<n" : "write both bounds here, as in 0\(side == .upTo ? "..<" : "...")\(written)")
            return CompiledExpression { _ in .null }
        case .subscriptAccess(let base, let index, let span):
            let b = compiled(base, in: scope), i = compiled(index, in: scope)
            let location = self.location(span)
            let (bc, ic) = (b.code, i.code)
            return CompiledExpression({ frame in
                let container = try bc(frame), key = try ic(frame)
                return try located(location) { try container.subscripted(by: key) }
            }, direct: specialised(in: scope) { Self.directSubscript(b.direct, i.direct, location) }, type: b.type.subscripted,
               typeIsSure: b.typeIsSure)
        case .call(let callee, let arguments, let span):
            return compileCall(callee, arguments, span, in: scope)
        case .implicitMember(let name, let span):
            return CompiledExpression(compileImplicitMember(name, span, arguments: nil, in: scope))
        case .keyPath(let path, let span):
            let keyPath = Value.function(KeyPathFunction(path, location: location(span)))
            return CompiledExpression { _ in keyPath }
        case .optionalChain, .optionalBind, .forceUnwrap:
            return compileOptional(expr, in: scope)
        case .inoutArgument, .conditional, .switchOver, .typeCheck, .attempt:
            return compileSwiftExpression(expr, in: scope)
        }
    }

    /// `c ? a : b`; each branch is given the type expected of the whole,
    /// as Swift gives it.
    func compileTernary(_ condition: Expr, _ whenTrue: Expr, _ whenFalse: Expr, expecting expected: StaticType,
                        in scope: Scope) -> CompiledExpression {
        let c = compiled(condition, in: scope)
        let t = compiled(whenTrue, expecting: expected, in: scope), f = compiled(whenFalse, expecting: expected, in: scope)
        let location = self.location(condition.span)
        let (cc, tc, fc) = (c.code, t.code, f.code)
        return CompiledExpression({ frame in try located(location) { try cc(frame).asBool() } ? try tc(frame) : try fc(frame) },
                                  direct: specialised(in: scope) { Self.directTernary(c.direct, t.direct, f.direct, location) },
                                  type: StaticType.joined([t.type, f.type]), typeIsSure: t.typeIsSure && f.typeIsSure)
    }

    @inline(never)
    private func compileInterpolation(_ parts: [StringPart], _ span: Span, in scope: Scope) -> Code {
        let pieces: [(Frame) throws -> String] = parts.map { part in
            switch part {
            case .text(let text): return { _ in text }
            case .interpolation(let expr):
                let value = compiled(expr, in: scope)
                let describe = describer(for: value.type, in: scope)
                let code = value.code
                let location = self.location(expr.span)
                return { frame in
                    let value = try code(frame)
                    // A collection's text can be far larger than its memory
                    // (one string a thousand times): counted before it is built.
                    if !value.printsBriefly { try located(location) { try MemoryBudget.checkPrinting(value, "building an interpolated string") } }
                    return try describe(value, frame)
                }
            }
        }
        let location = self.location(span)
        return { frame in
            let texts = try pieces.map { try $0(frame) }
            try located(location) { try MemoryBudget.checkString(bytes: texts.reduce(0) { $0 + $1.utf8.count }, "building an interpolated string") }
            return .string(texts.joined())
        }
    }

    @inline(never)
    private func compileName(_ name: String, _ span: Span, in scope: Scope) -> CompiledExpression {
        if name == "_" {
            error("'_' can only name an ignored closure parameter", span)
            return CompiledExpression { _ in .null }
        }
        if isImplicitSelf(name, in: scope) {
            return compiled(.member(.name("self", span), name, nameSpan: span, span), in: scope)
        }
        if let type = implicitStaticType(name, in: scope) {
            return CompiledExpression(compileStaticMember(type, name, span, in: scope))
        }
        if let (depth, entry) = scope.resolve(name) {
            if case .selfValue = entry.binding, let methodScope = scope.methodScope, methodScope.selfType?.isClass == true {
                return CompiledExpression(compileObjectSelf(depth: depth, slot: entry.slot, methodScope: methodScope, in: scope))
            }
            let slot = entry.slot
            let direct = specialised(in: scope) { directRead(depth: depth, slot: slot, in: scope) }
            let code: Code = switch depth {
            case 0: { frame in frame.slots[slot] }
            case 1: { frame in frame.parent!.slots[slot] }
            default: { frame in frame.ancestor(depth).slots[slot] }
            }
            return CompiledExpression(code, direct: direct, isStream: entry.isKnownStream, type: entry.type, typeIsSure: entry.typeIsWritten)
        }
        return CompiledExpression(compileUnboundName(name, span, in: scope))
    }

    /// A name that is not a `let`, `var` or parameter: a type, a module, a
    /// constant of the vocabulary, or a mistake.
    private func compileUnboundName(_ name: String, _ span: Span, in scope: Scope) -> Code {
        if name == "super", scope.methodScope?.selfType?.isClass == true {
            // `super.count`: the object's own property, which a subclass shares.
            return compile(.name("self", span), in: scope)
        }
        if name == "self" {
            error("'self' is only meaningful inside a type's methods", span,
                  help: "outside a type, use the name itself")
            return { _ in .null }
        }
        if let type = resolveType(name, in: scope) {
            let value = SwiftVocabulary.type(type.name)
            return { _ in value }
        }
        if let module = modules[name], let value = module.value {
            let location = self.location(span)
            return { _ in try located(location) { try value() } }
        }
        if let module = modules[name] {
            error("'\(name)' is a module: call one of its functions, as in \(name).\(module.functions.first?.name ?? "f")(...)", span)
            return { _ in .null }
        }
        if let make = SwiftVocabulary.streamConstants[name] {
            let stream = Value.stream(make())
            return { _ in stream }
        }
        if SwiftVocabulary.schedulerConstants.contains(name) {
            let scheduler = SwiftVocabulary.scheduler(name)
            return { _ in scheduler }
        }
        if name == "args" {
            let env = environment
            return { _ in .array(env.arguments.map(Value.string)) }
        }
        if Builtins.isFunction(name) {
            error("'\(name)' is a function: call it, as in \(name)(...)", span)
            return { _ in .null }
        }
        unknownName(name, span, in: scope)
        return { _ in .null }
    }

    /// An unknown name: the `let` whose value uses it (a closure calling
    /// itself, which Swift refuses too), or a likely misspelling.
    func unknownName(_ name: String, _ span: Span, calling: Bool = false, in scope: Scope) {
        if namesBeingBound.contains(name) {
            error("'\(name)' is used in its own value: a closure cannot refer to the let it is assigned to", span,
                  help: "declare a func, which can call itself: func \(name)(...) { ... }")
            return
        }
        if let foreign = UnsupportedAPIs.named(name) {
            error("'\(name)' is \(foreign.framework)'s, which flow does not run", span, help: foreign.instead)
            return
        }
        error("unknown \(calling ? "function" : "name") '\(name)'", span,
              help: suggestion(for: name, among: scope.visibleNames + Builtins.allNames + (calling ? [] : Array(modules.keys))))
    }

    @inline(never)
    private func compileShorthand(_ n: Int, _ span: Span, in scope: Scope) -> CompiledExpression {
        guard let closure = scope.enclosingClosure else {
            error("'$\(n)' can only be used inside a closure", span, help: "write a closure, as in { $0 * 2 }")
            return CompiledExpression { _ in .null }
        }
        closure.shorthandCount = Swift.max(closure.shorthandCount, n + 1)
        let depth = scope.depth(to: closure)
        let sure = n < closure.shorthandTypes.count ? closure.shorthandTypes[n] : .unknown
        // A hint (given only in a hover's compile) types `$0 * 2` loosely,
        // so `map { $0 * 2 }` on a marble stream of Ints shows Observable<Int>.
        let type = sure.isKnown || n >= closure.shorthandHints.count ? sure : closure.shorthandHints[n]
        noteType(type, at: span)
        if depth > 0 { return CompiledExpression({ frame in frame.ancestor(depth).slots[n] }, type: type, typeIsSure: sure.isKnown) }
        return CompiledExpression({ frame in frame.slots[n] }, direct: specialised(in: scope) { directRead(depth: 0, slot: n, in: scope) },
                                  type: type, typeIsSure: sure.isKnown)
    }

    @inline(never)
    private func compileUnary(_ op: PrefixOperator, _ operand: Expr, _ span: Span, in scope: Scope) -> CompiledExpression {
        let compiledOperand = compiled(operand, in: scope), value = compiledOperand.code
        let location = self.location(span)
        let direct = specialised(in: scope) { Self.directUnary(op, compiledOperand.direct, location) }
        switch op {
        case .negate: return CompiledExpression({ frame in try located(location) { try Value.negate(try value(frame)) } }, direct: direct,
                                                type: compiledOperand.type, typeIsSure: compiledOperand.typeIsSure)
        case .not: return CompiledExpression({ frame in try located(location) { .bool(!(try value(frame).asBool())) } }, direct: direct,
                                           type: .bool, typeIsSure: true)
        }
    }

    private func compileBinary(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ opSpan: Span, in scope: Scope) -> CompiledExpression {
        // `0.0 / 0.0` is Swift's folded NaN, which prints as nan.
        if let folded = Self.foldedLiteralArithmetic(op, lhs, rhs), folded.isNaN {
            return CompiledExpression({ _ in .double(folded) }, type: .double, typeIsSure: true)
        }
        // A long left-leaning chain (`1 + 2 + ... + n`) is compiled in a
        // loop down its left side, not by recursing once per operator.
        var spine: [(op: BinaryOperator, rhs: Expr, opSpan: Span)] = [(op, rhs, opSpan)]
        var left = lhs
        while case .binary(let innerOp, let innerLeft, let innerRight, let innerSpan, _) = left {
            spine.append((innerOp, innerRight, innerSpan))
            left = innerLeft
        }
        var first = compiled(left, in: scope)
        var code = first.code
        var direct = first.direct
        let specialising = scope.frameOwner.specialising != nil
        var leftOperand: Expr? = left
        var type = first.type, sure = first.typeIsSure
        for step in spine.reversed() {
            var right = compiled(step.rhs, in: scope)
            // Swift gives an integer literal beside a Double the Double's
            // type: `price / 2` with a Double price is `price / 2.0`.
            if type == .double, right.type == .int, case .literal(.int(let i), _) = step.rhs {
                right = compiled(.literal(.double(Double(i)), step.rhs.span), in: scope)
            } else if right.type == .double, type == .int, let leftOperand, case .literal(.int(let i), _) = leftOperand {
                first = compiled(.literal(.double(Double(i)), leftOperand.span), in: scope)
                (code, direct, type) = (first.code, first.direct, .double)
            }
            type = binaryType(step.op, type, right.type, sure: sure && right.typeIsSure, at: step.opSpan)
            sure = sure && right.typeIsSure
            code = compileBinaryStep(step.op, code, right.code, step.rhs, step.opSpan)
            if specialising {
                direct = directBinary(step.op, direct, right.direct, left: leftOperand, right: step.rhs, location(step.opSpan), in: scope)
            }
            leftOperand = nil
        }
        return CompiledExpression(code, direct: specialising ? direct : nil, type: type, typeIsSure: sure)
    }

    /// The type of `l op r` where the operands' are known; Swift's error
    /// where it has no such operator (`Int / Double`).
    private func binaryType(_ op: BinaryOperator, _ l: StaticType, _ r: StaticType, sure: Bool, at opSpan: Span) -> StaticType {
        switch op {
        case .and, .or, .equal, .notEqual, .identical, .notIdentical, .less, .lessOrEqual, .greater, .greaterOrEqual: return .bool
        case .nilCoalescing:
            guard case .optional(let wrapped) = l else { return r.isKnown ? r : l }
            return r.isKnown ? (Self.fits(wrapped, r) ? r : wrapped) : wrapped
        case .halfOpenRange, .closedRange: return .unknown
        case .add, .subtract, .multiply, .divide, .remainder:
            guard l.isKnown, r.isKnown else { return l == .double || r == .double ? .double : .unknown }
            if l == r, l == .int || l == .double || (l == .string && op == .add) { return l }
            if case .array = l, l == r, op == .add { return l }
            let numbers: Set<String> = ["Int", "Double"]
            if sure, numbers.contains(l.swiftName), numbers.contains(r.swiftName) {
                error("binary operator '\(op.rawValue)' cannot be applied to operands of type '\(l.swiftName)' and '\(r.swiftName)'", opSpan,
                      help: "convert one of them, as in Double(x) \(op.rawValue) y")
            }
            return .unknown
        }
    }

    private func compileBinaryStep(_ op: BinaryOperator, _ l: @escaping Code, _ r: @escaping Code, _ rhs: Expr, _ opSpan: Span) -> Code {
        let location = self.location(opSpan)
        switch op {
        case .and:
            return { frame in try located(location) { .bool(try l(frame).asBool() && r(frame).asBool()) } }
        case .or:
            return { frame in try located(location) { .bool(try l(frame).asBool() || r(frame).asBool()) } }
        case .nilCoalescing:
            return { frame in
                let left = try l(frame)
                return left.isNull ? try r(frame) : left
            }
        default:
            break
        }
        if let k = Self.constant(rhs) {
            return { frame in try op.apply(try l(frame), k, at: location) }
        }
        return { frame in try op.apply(try l(frame), try r(frame), at: location) }
    }

    static func constant(_ expr: Expr) -> Value? {
        if case .literal(let value, _) = expr { return value }
        return nil
    }

    @inline(never)
    private func compileMember(_ base: Expr, _ name: String, _ nameSpan: Span, in scope: Scope) -> CompiledExpression {
        if name == "subscriptions", !scope.visibleTypes.contains(where: { $0.hasProperty(name) }) {
            error("'subscriptions' can only be checked inside expect, as in expect(s.subscriptions).toBe(\"^--!\")", nameSpan)
            return CompiledExpression { _ in .null }
        }
        if let scheduler = schedulerValue(base, name, in: scope) { return CompiledExpression { _ in scheduler } }
        if name == "shared", case .name("URLSession", _) = base, scope.lookup("URLSession") == nil, resolveType("URLSession", in: scope) == nil {
            return CompiledExpression { _ in .function(URLSessionValue.shared) }
        }
        if name == "default", case .name("NotificationCenter", _) = base, scope.lookup("NotificationCenter") == nil,
           resolveType("NotificationCenter", in: scope) == nil {
            let env = environment
            return CompiledExpression { _ in .function(env.defaultNotificationCenter) }
        }
        if name == "now", case .name("Date", _) = base, scope.lookup("Date") == nil, resolveType("Date", in: scope) == nil {
            // Foundation's `Date.now`: `Date()`, on the run's clock.
            let env = environment
            return CompiledExpression { _ in DateValue.make(DateValue.now(on: env.run.scheduler)) }
        }
        if case .name(let typeName, _) = base, scope.lookup(typeName) == nil, resolveType(typeName, in: scope) == nil,
           let made = DateFormatterValue.staticMember(typeName, name) {
            // `TimeZone.current`, `Locale.current`: the system's, as Foundation gives.
            return CompiledExpression({ _ in made() }, type: .named(typeName), typeIsSure: true)
        }
        if name == "none", case .name("Optional", let typeSpan) = base, scope.lookup("Optional") == nil, resolveType("Optional", in: scope) == nil {
            // `Optional<String>.none`: nil, of the optional type written.
            return CompiledExpression({ _ in .null }, type: writtenOptionalType(at: typeSpan, in: scope) ?? .optional(.unknown),
                                      typeIsSure: writtenOptionalType(at: typeSpan, in: scope) != nil)
        }
        if case .name(let typeName, _) = base, scope.lookup(typeName) == nil, let constant = SwiftVocabulary.numberConstant(typeName, name) {
            return CompiledExpression { _ in constant }
        }
        if let type = resolveType(base, in: scope) {
            if let nested = resolveType(.member(base, name, nameSpan: nameSpan, nameSpan), in: scope) {
                let value = SwiftVocabulary.type(nested.name)
                return CompiledExpression { _ in value }
            }
            return CompiledExpression(compileStaticMember(type, name, nameSpan, in: scope))
        }
        if name == "self", let type = SwiftVocabulary.typeName(base), !type.split(separator: ".").contains(where: { scope.lookup(String($0)) != nil }) {
            // `Optional<Int>.self`: the generic arguments written after the name.
            var written = type
            if case .name(_, let span) = base, let generic = file.genericTypeText(at: span.start) { written = generic }
            let value = SwiftVocabulary.type(written)
            return CompiledExpression { _ in value }
        }
        let receiver = compiled(base, in: scope), b = receiver.code
        noteMemberUse(name, at: nameSpan, on: base, typed: receiver.type, in: scope)
        let type = memberType(of: receiver.type, name, in: scope)
        if let dynamic = compileDynamicMember(b, name, nameSpan, in: scope) {
            return CompiledExpression(dynamic, type: type?.type ?? .unknown, typeIsSure: receiver.typeIsSure && type?.isWritten == true)
        }
        let location = self.location(nameSpan)
        let methods = ValueMethods.property(named: name)
        return CompiledExpression({ frame in
            let value = try b(frame)
            return try located(location) { try value.property(name, methods: methods) }
        }, direct: specialised(in: scope) { Self.directMember(receiver.direct, name, location) },
           type: type?.type ?? .unknown, typeIsSure: receiver.typeIsSure && type?.isWritten == true)
    }

    // MARK: - Closures

    @inline(never)
    private func compileClosure(_ closure: Closure, in scope: Scope) -> CompiledExpression {
        scope.createsClosures = true
        var ancestor = scope.parent
        while let s = ancestor { s.createsClosures = true; ancestor = s.parent }
        let inner = Scope(kind: .closure, parent: scope)
        inner.capturesSelfWeakly = closure.capturesSelfWeakly
        let declared = closure.parameters
        // Types the closure writes (`{ (x: Double) in }`), else those its
        // place gives (a typed binding, a stream's elements).
        let written = closure.parameterTypes.map { staticType(text: $0?.text, in: scope) }
        let parameterTypes = written.contains(where: \.isKnown) ? written : closureParameterTypes ?? []
        let resultType = closure.resultType.map { staticType(text: $0.text, in: scope) } ?? closureResultType
        (closureParameterTypes, closureResultType) = (nil, nil)
        var hints = closureParameterHints ?? []
        closureParameterHints = nil
        // `combineLatest(b).map { $0 >= $1 }`: a tuple's parts are the parameters.
        if hints.count == 1, case .tuple(let parts, _) = hints[0], parts.count > 1,
           (declared?.count ?? Compiler.shorthandCount(closure.body)) == parts.count {
            hints = parts
        }
        // A parameter of a written type takes its argument as that type.
        var conversions: [(slot: Int, convert: Conversion.Convert)] = []
        for (i, (name, span)) in (declared ?? []).enumerated() {
            let type = i < parameterTypes.count ? parameterTypes[i] : .unknown
            if name == "_" { _ = inner.reserve(); continue }
            let likely = type.isKnown || i >= hints.count ? type : hints[i]
            guard let slot = inner.declare(name, at: span, as: .parameter, type: likely, typeIsWritten: type.isKnown) else {
                error("two parameters named '\(name)'", span)
                continue
            }
            noteType(likely, at: span)
            if let convert = Conversion.to(type) { conversions.append((slot, convert)) }
        }
        if declared == nil {
            inner.shorthandTypes = parameterTypes
            inner.shorthandHints = hints
            for (slot, type) in parameterTypes.prefix(Compiler.shorthandCount(closure.body)).enumerated() {
                if let convert = Conversion.to(type) { conversions.append((slot, convert)) }
            }
        }
        // `$n` parameters take the first slots: reserve as many as the body
        // uses before its own `let`s are placed.
        let shorthandUsed = Compiler.shorthandCount(closure.body)
        let shorthandSlots = declared == nil ? shorthandUsed : 0
        for _ in 0..<shorthandSlots { _ = inner.reserve() }
        if declared != nil, shorthandUsed > 0 {
            error("a closure with named parameters cannot also use $0", closure.span, help: "use the parameter names")
        }
        // The body's names may shadow the parameters (`var x = x`), as in Swift.
        let block = Scope(kind: .block, parent: inner)
        let parameterCount = declared?.count ?? shorthandSlots
        var body: Code
        var direct: DirectCode?
        var bodyType = StaticType.unknown
        var bodyTypeIsSure = false
        if parameterCount <= 2, inner.methodScope == nil, let expressions = Self.expressionStatements(closure.body) {
            // Compiled once, with a specialised form made alongside.
            inner.specialising = parameterCount
            (body, direct, bodyType, bodyTypeIsSure) = compileSpecialisable(expressions, in: block)
        } else {
            (body, direct) = (compileBody(closure.body, in: block), nil)
        }
        if !conversions.isEmpty {
            let run = body
            (body, direct) = ({ frame in
                for (slot, convert) in conversions { frame.slots[slot] = convert(frame.slots[slot]) }
                return try run(frame)
            }, nil)
        }
        // A written result type: `() -> Void` returns `()`, `-> Double` a Double.
        if resultType == .void {
            let run = body
            (body, direct) = ({ frame in _ = try run(frame); return .void }, nil)
        } else if let convert = resultType.flatMap(Conversion.to) {
            let run = body
            (body, direct) = ({ frame in convert(try run(frame)) }, nil)
        }
        var shape = ClosureShape(
            declared: declared?.count, shorthand: inner.shorthandCount, frameSize: inner.count,
            // A frame kept between calls would keep what `guard let self` bound.
            reusesFrame: !inner.createsClosures && !closure.capturesSelfWeakly, updatesFirstParameter: inner.changedParameters.contains(0),
            location: location(closure.span))
        shape.spreadsArrays = environment.dialect == .rxJS
        if readsClosureEffects { shape.sideEffect = ClosureEffects(outside: scope).firstSideEffect(of: closure) }
        // A closure of one expression gives that expression's type; its
        // signature is sure where Swift's is: every parameter's type written
        // (or none taken), and the result written or surely known.
        let type = StaticType.function(parameters: parameterTypes, result: resultType ?? bodyType)
        let parametersWritten = (declared?.count ?? shorthandUsed) == 0
            || (declared != nil && written.count == declared!.count && written.allSatisfy(\.isKnown))
        let typeIsSure = parametersWritten && (resultType != nil || bodyTypeIsSure && bodyType.isKnown)
        if let direct, shape.parameterCount == parameterCount {
            return CompiledExpression({ frame in .function(shape.makeDirectFunction(direct, captured: frame)) }, type: type,
                                      typeIsSure: typeIsSure)
        }
        return CompiledExpression({ frame in .function(shape.makeFunction(body: body, captured: frame)) }, type: type, typeIsSure: typeIsSure)
    }

    /// A closure's statements as one closure whose value is the last
    /// statement's, catching `return`.
    private func compileBody(_ statements: [Statement], in scope: Scope) -> Code {
        let run = compileSequence(statements, in: scope)
        return { frame in
            do { return try run(frame) } catch let signal as ReturnSignal { return signal.value }
        }
    }
}

/// Runs `body`, giving any error without a location this one.
@inline(__always)
func located<T>(_ location: SourceLocation, _ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw FlowError.wrap(error).located(at: location) }
}

extension Compiler {
    /// `if`, `switch` and `&x`, apart from `compile` for its frame's sake.
    @inline(never)
    func compileSwiftExpression(_ expr: Expr, in scope: Scope) -> CompiledExpression {
        switch expr {
        case .inoutArgument(let inner, _):
            // Outside a func's inout parameter, `&x` passes the value
            // (`store(in: &bag)`).
            return compiled(inner, in: scope)
        case .conditional(let conditional):
            return CompiledExpression(compileIf(conditional, in: scope))
        case .typeCheck(let inner, let check, let type, let typeSpan, _):
            return compileTypeCheck(inner, check, type, typeSpan, in: scope)
        case .attempt(let inner, _):
            let compiledValue = compiled(inner, in: scope), value = compiledValue.code
            return CompiledExpression({ frame in
                do { return try value(frame) } catch let thrown as FlowError where thrown.isThrown { return .null }
            }, type: compiledValue.type.asOptional, typeIsSure: compiledValue.typeIsSure)
        case .switchOver(let switchExpr):
            return CompiledExpression(compileSwitch(switchExpr, in: scope))
        default:
            return compiled(expr, in: scope)
        }
    }

    /// `counts[word, default: 0]`
    @inline(never)
    /// `d[key, default: 0]`: the default is of the dictionary's value type
    /// (0.0 in a `[String: Double]`), and so is what it gives.
    func compileDefaultedSubscript(_ base: Expr, _ keyExpr: Expr, _ fallbackExpr: Expr, _ span: Span, in scope: Scope) -> CompiledExpression {
        let container = compiled(base, in: scope)
        let valueType: StaticType = if case .dictionary(_, let value) = container.type { value } else { .unknown }
        let b = container.code, key = compile(keyExpr, in: scope)
        let fallback = compiled(fallbackExpr, convertingTo: valueType, reportingMismatch: container.typeIsSure, in: scope).code
        let location = self.location(span)
        return CompiledExpression({ frame in
            let container = try b(frame), k = try key(frame)
            let value = try located(location) { try container.subscripted(by: k) }
            return value.isNull ? try fallback(frame) : value
        }, type: valueType, typeIsSure: container.typeIsSure && valueType.isKnown)
    }

    /// `x?.y` and `x!`. Apart from `compile`, whose frame every level of a
    /// deeply nested expression pays for.
    @inline(never)
    func compileOptional(_ expr: Expr, in scope: Scope) -> CompiledExpression {
        switch expr {
        case .optionalChain(let chain, _):
            // `Int?.self` is the metatype of `Int?`, not a chain.
            if case .member(let base, "self", _, _) = chain, SwiftVocabulary.typeName(base) != nil { return compiled(chain, in: scope) }
            let compiledChain = compiled(chain, in: scope), code = compiledChain.code
            return CompiledExpression({ frame in
                do { return try code(frame) } catch is NilInOptionalChain { return .null }
            }, type: compiledChain.type.asOptional, typeIsSure: compiledChain.typeIsSure)
        case .optionalBind(let base, _):
            let compiledBase = compiled(base, in: scope), code = compiledBase.code
            return CompiledExpression({ frame in
                let value = try code(frame)
                if value.isNull { throw NilInOptionalChain() }
                return value
            }, type: compiledBase.type.unwrapped, typeIsSure: compiledBase.typeIsSure)
        case .forceUnwrap(let base, let span):
            let compiledBase = compiled(base, in: scope), code = compiledBase.code
            // At the `!`, the span's last character.
            let location = file.location(of: span.end - 1)
            return CompiledExpression({ frame in
                let value = try code(frame)
                if value.isNull { throw FlowError("found nil where '!' expects a value", at: location) }
                return value
            }, type: compiledBase.type.unwrapped, typeIsSure: compiledBase.typeIsSure)
        default:
            return compiled(expr, in: scope)
        }
    }
}

/// Thrown where a `?.` meets nil, and caught by the chain it belongs to,
/// which is then nil: the rest of the chain does not run, as in Swift.
struct NilInOptionalChain: Error {}
