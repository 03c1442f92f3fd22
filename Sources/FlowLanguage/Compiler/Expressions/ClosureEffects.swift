import FlowRuntime

/// Whether a closure only computes its result, read from its text: what a
/// stream built with it needs to be subscribed a second time just to be
/// drawn (`DrawingOnly`). The first thing found that someone else could
/// see is said in a few words ("calls print", "changes total").
///
/// The rule, strict where it cannot know: the body may bind and change its
/// own `let`s and `var`s, branch, loop, return and throw; it may read any
/// name and any property except a computed one of the script's types; it
/// may use operators other than those the script's types declare; it may
/// call the stream sources and operators (a stream is built, not run: each
/// node is checked again when it is subscribed), the methods of values
/// that do not change the value they are called on, a struct's memberwise
/// initialiser, and a short list of free functions that only compute
/// (`String(x)`, `min`, `abs`, `time(...)`, ...). Anything else may have
/// side effects: `print`, a function or closure declared outside it, a
/// method of the script's types, a method that changes its receiver,
/// random numbers, `sink`, `send`, an assignment to something not its
/// own, an expression statement whose value it drops (a stream statement
/// runs its stream).
struct ClosureEffects {
    /// The scope the closure is written in: names that resolve there are
    /// the script's.
    let outside: Scope

    init(outside: Scope) { self.outside = outside }

    /// Free functions that only compute their result from their arguments.
    static let computingFunctions: Set<String> = [
        "String", "Int", "Double", "Float", "Bool", "Character", "Array", "Set", "Dictionary", "Optional", "Decimal",
        "abs", "min", "max", "round", "floor", "ceil", "sqrt", "pow", "exp", "log", "log2", "log10", "sin", "cos", "tan",
        "atan", "atan2", "stride", "zip", "time", "type",
    ]

    /// Stream methods that do something the moment they are called.
    static let actingStreamMethods: Set<String> = [
        "sink", "subscribe", "assign", "store", "connect", "autoconnect", "send", "onNext", "onError", "onCompleted",
        "complete", "fail", "accept", "dispose", "cancel", "bind", "drive", "emit", "receive",
    ]

    func firstSideEffect(of closure: Closure) -> String? {
        var reader = Reader(effects: self)
        for (name, _) in closure.parameters ?? [] { reader.locals.insert(name) }
        return reader.statements(closure.body, lastIsResult: true)
    }

    /// The names of members the script declares (methods, computed
    /// properties, operators): a call or read of one runs the script's code.
    private var declaredMembers: Set<String> {
        var names = Set<String>()
        for type in outside.visibleTypes {
            names.formUnion(type.declaration.methods.map(\.name))
            names.formUnion(type.declaration.computed.map(\.name))
            names.formUnion(type.declaration.stored.filter(\.isLazy).map(\.name))
        }
        return names
    }

    private struct Reader {
        let effects: ClosureEffects
        lazy var declared = effects.declaredMembers
        /// Names the closure binds itself (its parameters, its `let`s and `var`s).
        var locals: Set<String> = []

        init(effects: ClosureEffects) { self.effects = effects }

        mutating func statements(_ body: [Statement], lastIsResult: Bool) -> String? {
            for (i, statement) in body.enumerated() {
                if let effect = self.statement(statement, isResult: lastIsResult && i == body.count - 1) { return effect }
            }
            return nil
        }

        mutating func statement(_ statement: Statement, isResult: Bool) -> String? {
            switch statement {
            case .binding(let name, _, _, let value, _, _):
                locals.insert(name)
                return value.flatMap { expression($0) }
            case .destructuring(let pattern, let value, _, _):
                bind(pattern)
                return expression(value)
            case .expression(let expr):
                switch expr {
                case .conditional, .switchOver: return expression(expr)
                default:
                    // A value dropped was computed for what computing it does
                    // (and a stream statement runs its stream).
                    return isResult ? expression(expr) : expression(expr) ?? "evaluates \(Self.shortText(expr)) for its effect"
                }
            case .return(let value, _): return value.flatMap { expression($0) }
            case .throw(let value, _): return expression(value)
            case .assignment(let target, _, let value, _, _):
                guard let root = Self.root(of: target), locals.contains(root) else {
                    return "changes \(Self.root(of: target) ?? "a value it does not own")"
                }
                return expression(target) ?? expression(value)
            case .guard(let conditions, let otherwise, _):
                return self.conditions(conditions) ?? statements(otherwise, lastIsResult: false)
            case .while(let conditions, let body, _):
                return self.conditions(conditions) ?? statements(body, lastIsResult: false)
            case .repeat(let body, let condition, _):
                return statements(body, lastIsResult: false) ?? expression(condition)
            case .for(let pattern, let sequence, let filter, let body, _):
                bind(pattern)
                return expression(sequence) ?? filter.flatMap { expression($0) } ?? statements(body, lastIsResult: false)
            case .break, .continue, .typeAlias: return nil
            case .doCatch(let body, let catches, _):
                locals.insert("error")
                for clause in catches { if let pattern = clause.pattern { bind(pattern) } }
                if let effect = statements(body, lastIsResult: false) { return effect }
                for clause in catches {
                    var inner = self
                    if let effect = inner.statements(clause.body, lastIsResult: false) { return effect }
                }
                return nil
            case .function(let declaration): return "declares func \(declaration.name)"
            case .type(let declaration): return "declares \(declaration.name)"
            case .test: return "declares a test"
            }
        }

        mutating func conditions(_ conditions: [Condition]) -> String? {
            for condition in conditions {
                switch condition {
                case .boolean(let e): if let effect = expression(e) { return effect }
                case .optionalBinding(let name, _, let value, _):
                    locals.insert(name)
                    if let effect = expression(value) { return effect }
                case .matching(let pattern, let e):
                    bind(pattern)
                    if let effect = expression(e) { return effect }
                }
            }
            return nil
        }

        mutating func bind(_ pattern: Pattern) {
            switch pattern {
            case .binding(let name, _): locals.insert(name)
            case .tuple(let parts, _, _): parts.forEach { bind($0) }
            case .enumCase(_, _, let arguments, _, _): arguments?.forEach { bind($0) }
            case .some(let inner, _): bind(inner)
            case .wildcard, .expression: break
            }
        }

        mutating func expressions(_ list: [Expr]) -> String? {
            for e in list { if let effect = expression(e) { return effect } }
            return nil
        }

        mutating func expression(_ expr: Expr) -> String? {
            switch expr {
            case .literal, .shorthand, .keyPath, .implicitMember, .name: return nil
            case .oneSidedRange(_, let bound, _): return expression(bound)
            case .string(let parts, _):
                // An interpolation prints a value as its description says.
                let interpolated = parts.compactMap { if case .interpolation(let e) = $0 { e } else { nil } }
                if !interpolated.isEmpty, declared.contains("description") { return "prints a value with the script's description" }
                return expressions(interpolated)
            case .array(let items, _): return expressions(items)
            case .dictionary(let pairs, _): return expressions(pairs.flatMap { [$0.key, $0.value] })
            case .tuple(let items, _, _): return expressions(items)
            case .closure(let closure):
                var inner = self
                for (name, _) in closure.parameters ?? [] { inner.locals.insert(name) }
                return inner.statements(closure.body, lastIsResult: true)
            case .unary(_, let e, _): return expression(e)
            case .binary(let op, let a, let b, _, _):
                if declared.contains(op.rawValue) { return "uses \(op.rawValue) as the script declares it" }
                return expression(a) ?? expression(b)
            case .ternary(let c, let a, let b, _): return expressions([c, a, b])
            case .member(let base, let name, _, _):
                if declared.contains(name) { return "reads \(name), which the script computes" }
                return expression(base)
            case .subscriptAccess(let base, let index, _): return expression(base) ?? expression(index)
            case .call(let callee, let arguments, _):
                return call(callee, arguments) ?? expressions(arguments.map(\.value))
            case .optionalBind(let e, _), .optionalChain(let e, _), .forceUnwrap(let e, _), .typeCheck(let e, _, _, _, _), .attempt(let e, _):
                return expression(e)
            case .inoutArgument(let e, _):
                guard let root = Self.root(of: e), locals.contains(root) else { return "passes \(Self.shortText(e)) to be changed" }
                return nil
            case .conditional(let branch):
                var inner = self, otherwise = self
                return inner.conditions(branch.conditions) ?? inner.statements(branch.body, lastIsResult: true)
                    ?? branch.elseBody.flatMap { otherwise.statements($0, lastIsResult: true) }
            case .switchOver(let choice):
                if let effect = expression(choice.subject) { return effect }
                for option in choice.cases {
                    var inner = self
                    option.patterns.forEach { inner.bind($0) }
                    if let effect = option.guardExpr.flatMap({ inner.expression($0) }) ?? inner.statements(option.body, lastIsResult: true) {
                        return effect
                    }
                }
                return nil
            }
        }

        /// The callee's part of a call: what calling it may do.
        mutating func call(_ callee: Expr, _ arguments: [CallArgument]) -> String? {
            switch callee {
            case .name(let name, _):
                if locals.contains(name) { return nil }
                if effects.outside.resolve(name) != nil { return "calls \(name)" }
                if let type = effects.outside.lookupType(name) {
                    // A struct made field by field runs none of the script's code.
                    let declaration = type.declaration
                    return declaration.kind == .struct && declaration.initialisers.isEmpty ? nil : "makes a \(name)"
                }
                if ClosureEffects.computingFunctions.contains(name) { return nil }
                // A stream source or combinator builds a stream (checked again when subscribed).
                if let spec = operatorTable.lookup(name), spec.form != .method, !ClosureEffects.actingStreamMethods.contains(spec.name) {
                    return nil
                }
                return "calls \(name)"
            case .member(let base, let name, _, _):
                if declared.contains(name) { return "calls \(name), a method of the script" }
                if ClosureEffects.actingStreamMethods.contains(name) { return "calls \(name)" }
                if name.lowercased().contains("random") || name.hasPrefix("shuffle") { return "calls \(name)" }
                if let methods = ValueMethods.group(named: name), methods.changesReceiver {
                    return "calls \(name), which changes \(Self.root(of: base) ?? "its value")"
                }
                if let spec = operatorTable.lookup(name), ClosureEffects.actingStreamMethods.contains(spec.name) { return "calls \(name)" }
                guard ValueMethods.group(named: name) != nil || operatorTable.lookup(name) != nil else {
                    // A module's function (http.get, file.read), or a method flow does not know.
                    return "calls \(Self.shortText(callee))"
                }
                return expression(base)
            case .implicitMember: return nil
            default: return expression(callee)
            }
        }

        /// The name a place starts from (`cart` of `cart.items[0]`).
        static func root(of place: Expr) -> String? {
            switch place {
            case .name(let name, _): name
            case .member(let base, _, _, _), .subscriptAccess(let base, _, _), .optionalChain(let base, _),
                 .optionalBind(let base, _), .forceUnwrap(let base, _), .inoutArgument(let base, _):
                root(of: base)
            default: nil
            }
        }

        static func shortText(_ expr: Expr) -> String {
            switch expr {
            case .name(let name, _): name
            case .member(let base, let name, _, _): shortText(base) + "." + name
            case .call(let callee, _, _): shortText(callee) + "(...)"
            default: "an expression"
            }
        }
    }
}
