import Collections
import FlowMarbles
import FlowRuntime

/// Resolves every name of a script and compiles it to Swift closures over
/// frame slots, before anything runs. All problems are collected, so one
/// `flow check` reports every unknown name, bad call and duplicate `let`.
///
/// Closures are compiled once: calling `{ $0 * 2 }` a million times walks
/// no tree and looks up no name.
final class Compiler {
    let file: SourceFile
    let environment: Environment
    /// Namespaces of functions from the layers above (`file`, `json`).
    let modules: [String: BuiltinModule]
    private(set) var diagnostics: [Diagnostic] = []

    init(file: SourceFile, environment: Environment) {
        self.file = file
        self.environment = environment
        modules = environment.modules
    }

    func error(_ message: String, _ span: Span, help: String? = nil) {
        diagnostics.append(Diagnostic(message, in: file, at: span, help: help))
    }

    /// Code that runs but probably does not do what was meant; `flow
    /// check` reports these, and they never stop a script from running.
    private(set) var warnings: [Diagnostic] = []

    func warning(_ message: String, _ span: Span, help: String? = nil) {
        warnings.append(Diagnostic(message, in: file, at: span, help: help, severity: .warning))
    }

    /// "did you mean" for the first hundred problems only: a file with
    /// thousands of errors is still reported at once.
    private var suggestionsLeft = 100

    func suggestion(for name: String, among candidates: @autoclosure () -> [String]) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggestions.didYouMean(name, among: candidates())
    }

    func location(_ span: Span) -> SourceLocation { file.location(of: span.start) }

    // MARK: - Statements

    /// A compiled statement; `test` blocks are returned separately.
    struct CompiledTest {
        let name: String
        let span: Span
        let scope: Scope
        let body: [Code]
    }

    func compileTopLevel(_ statements: [Statement], in scope: Scope) -> (body: [Code], tests: [CompiledTest]) {
        var body: [Code] = []
        var tests: [CompiledTest] = []
        var testNames: [String: Span] = [:]
        for statement in statements {
            if case .test(let name, let statementsOfTest, let span) = statement {
                if testNames[name] != nil {
                    error("a test named \"\(name)\" is already declared", span, help: "give each test block its own name")
                }
                testNames[name] = span
                let testScope = Scope(kind: .test, parent: scope)
                let code = statementsOfTest.map { compileStatement($0, in: testScope) }
                tests.append(CompiledTest(name: name, span: span, scope: testScope, body: code))
            } else {
                body.append(compileStatement(statement, in: scope))
            }
        }
        return (body, tests)
    }

    func compileStatement(_ statement: Statement, in scope: Scope) -> Code {
        switch statement {
        case .binding(let name, let nameSpan, let valueExpr, _):
            let value = compile(valueExpr, in: scope)
            guard let slot = scope.declare(name, at: nameSpan) else {
                let previous = scope.previousDeclaration(of: name).map { file.lineAndColumn(of: $0.start).line }
                error("'\(name)' is already declared in this scope" + (previous.map { " (line \($0))" } ?? ""), nameSpan,
                      help: "choose another name; a script's names are declared once")
                return { _ in .null }
            }
            return { frame in
                frame.slots[slot] = try value(frame)
                return .null
            }
        case .expression(let expr):
            return compileExpressionStatement(expr, in: scope)
        case .return(let expr, _):
            let value = expr.map { compile($0, in: scope) }
            return { frame in throw ReturnSignal(value: try value?(frame) ?? .null) }
        case .test(_, _, let span):
            error("test blocks can only be written at the top level of a script", span)
            return { _ in .null }
        }
    }

    /// A statement that ends in `.print(...)` subscribes the stream, as
    /// `sink` does; any other expression is evaluated for its effects.
    private func compileExpressionStatement(_ expr: Expr, in scope: Scope) -> Code {
        let code = compile(expr, in: scope)
        guard Self.subscribesItself(expr), case .call(_, _, let span) = expr else { return code }
        let env = environment
        let location = self.location(span)
        return { frame in
            let value = try code(frame)
            if case .stream(let stream) = value { env.subscribe(stream, at: location, handlers: Handlers()) }
            return value
        }
    }

    /// Whether an expression statement subscribes its own stream as it is
    /// evaluated (`s.print()`), so that nothing subscribes it again.
    static func subscribesItself(_ expr: Expr) -> Bool {
        if case .call(.member(_, "print", _, _), _, _) = expr { return true }
        return false
    }

    // MARK: - Expressions

    func compile(_ expr: Expr, in scope: Scope) -> Code {
        guard StackSpace.remaining() > 128 * 1024 else {
            error("expression too deeply nested to compile", expr.span, help: "split it with let bindings")
            return { _ in .null }
        }
        switch expr {
        case .literal(let value, _):
            return { _ in value }
        case .string(let parts, _):
            return compileInterpolation(parts, in: scope)
        case .name(let name, let span):
            return compileName(name, span, in: scope)
        case .shorthand(let n, let span):
            return compileShorthand(n, span, in: scope)
        case .array(let elements, _):
            let codes = elements.map { compile($0, in: scope) }
            return { frame in .array(try codes.map { try $0(frame) }) }
        case .dictionary(let pairs, _):
            let codes = pairs.map { (compile($0.key, in: scope), compile($0.value, in: scope)) }
            return { frame in
                var dictionary = OrderedDictionary<Value, Value>(minimumCapacity: codes.count)
                for (key, value) in codes { dictionary[try key(frame)] = try value(frame) }
                return .dictionary(dictionary)
            }
        case .tuple(let elements, let labels, _):
            let codes = elements.map { compile($0, in: scope) }
            return { frame in .tuple(Tuple(try codes.map { try $0(frame) }, labels: labels)) }
        case .closure(let closure):
            return compileClosure(closure, in: scope)
        case .unary(let op, let operand, let span):
            return compileUnary(op, operand, span, in: scope)
        case .binary(let op, let lhs, let rhs, let opSpan, _):
            return compileBinary(op, lhs, rhs, opSpan, in: scope)
        case .ternary(let condition, let whenTrue, let whenFalse, _):
            let c = compile(condition, in: scope), t = compile(whenTrue, in: scope), f = compile(whenFalse, in: scope)
            let location = self.location(condition.span)
            return { frame in try located(location) { try c(frame).asBool() } ? try t(frame) : try f(frame) }
        case .member(let base, let name, let nameSpan, _):
            return compileMember(base, name, nameSpan, in: scope)
        case .subscriptAccess(let base, let index, let span):
            let b = compile(base, in: scope), i = compile(index, in: scope)
            let location = self.location(span)
            return { frame in
                let container = try b(frame), key = try i(frame)
                return try located(location) { try container.subscripted(by: key) }
            }
        case .call(let callee, let arguments, let span):
            return compileCall(callee, arguments, span, in: scope)
        case .implicitMember(let name, let span):
            return compileImplicitMember(name, span, arguments: nil, in: scope)
        case .keyPath(let path, let span):
            let keyPath = Value.function(KeyPathFunction(path, location: location(span)))
            return { _ in keyPath }
        case .optionalChain, .optionalBind, .forceUnwrap:
            return compileOptional(expr, in: scope)
        }
    }

    private func compileInterpolation(_ parts: [StringPart], in scope: Scope) -> Code {
        let pieces: [Code] = parts.map { part in
            switch part {
            case .text(let text): let value = Value.string(text); return { _ in value }
            case .interpolation(let expr): return compile(expr, in: scope)
            }
        }
        return { frame in .string(try pieces.map { try $0(frame).description }.joined()) }
    }

    private func compileName(_ name: String, _ span: Span, in scope: Scope) -> Code {
        if name == "_" {
            error("'_' can only name an ignored closure parameter", span)
            return { _ in .null }
        }
        if let (depth, slot) = scope.lookup(name) {
            switch depth {
            case 0: return { frame in frame.slots[slot] }
            case 1: return { frame in frame.parent!.slots[slot] }
            default: return { frame in frame.ancestor(depth).slots[slot] }
            }
        }
        if let module = modules[name] {
            error("'\(name)' is a module: call one of its functions, as in \(name).\(module.functions.first?.name ?? "f")(...)", span)
            return { _ in .null }
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
        error("unknown name '\(name)'", span, help: suggestion(for: name, among: scope.visibleNames + Builtins.allNames + modules.keys))
        return { _ in .null }
    }

    private func compileShorthand(_ n: Int, _ span: Span, in scope: Scope) -> Code {
        guard let closure = scope.enclosingClosure else {
            error("'$\(n)' can only be used inside a closure", span, help: "write a closure, as in { $0 * 2 }")
            return { _ in .null }
        }
        if closure !== scope {
            error("'$\(n)' cannot be used inside a nested block; name the parameter instead", span)
            return { _ in .null }
        }
        closure.shorthandCount = Swift.max(closure.shorthandCount, n + 1)
        return { frame in frame.slots[n] }
    }

    private func compileUnary(_ op: String, _ operand: Expr, _ span: Span, in scope: Scope) -> Code {
        let value = compile(operand, in: scope)
        let location = self.location(span)
        switch op {
        case "-": return { frame in try located(location) { try Value.negate(try value(frame)) } }
        default: return { frame in try located(location) { .bool(!(try value(frame).asBool())) } }
        }
    }

    private func compileBinary(_ op: String, _ lhs: Expr, _ rhs: Expr, _ opSpan: Span, in scope: Scope) -> Code {
        let l = compile(lhs, in: scope), r = compile(rhs, in: scope)
        let location = self.location(opSpan)
        switch op {
        case "&&":
            return { frame in try located(location) { .bool(try l(frame).asBool() && r(frame).asBool()) } }
        case "||":
            return { frame in try located(location) { .bool(try l(frame).asBool() || r(frame).asBool()) } }
        case "??":
            return { frame in
                let left = try l(frame)
                return left.isNull ? try r(frame) : left
            }
        default:
            break
        }
        let op = BinaryOperator(rawValue: op)!
        if let k = Self.constant(rhs) {
            return { frame in try op.apply(try l(frame), k, at: location) }
        }
        return { frame in try op.apply(try l(frame), try r(frame), at: location) }
    }

    static func constant(_ expr: Expr) -> Value? {
        if case .literal(let value, _) = expr { return value }
        return nil
    }

    private func compileMember(_ base: Expr, _ name: String, _ nameSpan: Span, in scope: Scope) -> Code {
        if name == "subscriptions" {
            error("'subscriptions' can only be checked inside expect, as in expect(s.subscriptions).toBe(\"^--!\")", nameSpan)
            return { _ in .null }
        }
        if let scheduler = schedulerValue(base, name, in: scope) { return { _ in scheduler } }
        if name == "self", let type = SwiftVocabulary.typeName(base), !type.split(separator: ".").contains(where: { scope.lookup(String($0)) != nil }) {
            let value = SwiftVocabulary.type(type)
            return { _ in value }
        }
        let b = compile(base, in: scope)
        let location = self.location(nameSpan)
        return { frame in
            let value = try b(frame)
            return try located(location) { try value.member(name) }
        }
    }

    // MARK: - Closures

    private func compileClosure(_ closure: Closure, in scope: Scope) -> Code {
        scope.createsClosures = true
        var ancestor = scope.parent
        while let s = ancestor { s.createsClosures = true; ancestor = s.parent }
        let inner = Scope(kind: .closure, parent: scope)
        let declared = closure.parameters
        for (name, span) in declared ?? [] {
            if name == "_" { _ = inner.reserve(); continue }
            if inner.declare(name, at: span) == nil { error("two parameters named '\(name)'", span) }
        }
        // `$n` parameters take the first slots: reserve as many as the body
        // uses before its own `let`s are placed.
        let shorthandUsed = Self.shorthandCount(closure.body)
        let shorthandSlots = declared == nil ? shorthandUsed : 0
        for _ in 0..<shorthandSlots { _ = inner.reserve() }
        if declared != nil, shorthandUsed > 0 {
            error("a closure with named parameters cannot also use $0", closure.span, help: "use the parameter names")
        }
        let body = compileBody(closure.body, in: inner)
        let shape = ClosureShape(
            declared: declared?.count, shorthand: inner.shorthandCount, frameSize: inner.count,
            reusesFrame: !inner.createsClosures, location: location(closure.span))
        if shape.parameterCount <= 2,
           let direct = DirectCompiler(file: file, environment: environment, scope: inner, parameterCount: shape.parameterCount)
               .compile(body: closure.body) {
            return { frame in .function(shape.makeDirectFunction(direct, captured: frame)) }
        }
        return { frame in .function(shape.makeFunction(body: body, captured: frame)) }
    }

    /// A closure's statements as one closure whose value is the last
    /// statement's, catching `return`. Composed closure by closure: a
    /// closure taken out of an array comes wrapped in conversion thunks,
    /// and this runs on every call.
    private func compileBody(_ statements: [Statement], in scope: Scope) -> Code {
        var body: Code = { _ in .null }
        var first = true
        for statement in statements {
            let code = compileStatement(statement, in: scope)
            if first {
                body = code
                first = false
            } else {
                let before = body
                body = { frame in
                    _ = try before(frame)
                    return try code(frame)
                }
            }
        }
        let run = body
        return { frame in
            do { return try run(frame) } catch let signal as ReturnSignal { return signal.value }
        }
    }

    /// The highest `$n` a closure body uses, plus one (0 for none); nested
    /// closures have their own.
    private static func shorthandCount(_ statements: [Statement]) -> Int {
        statements.reduce(0) { most, statement in
            switch statement {
            case .binding(_, _, let e, _), .expression(let e): return Swift.max(most, shorthandCount(e))
            case .return(let e, _): return Swift.max(most, e.map(shorthandCount) ?? 0)
            case .test: return most
            }
        }
    }

    private static func shorthandCount(_ expr: Expr) -> Int {
        switch expr {
        case .shorthand(let n, _): return n + 1
        case .literal, .name, .closure, .implicitMember, .keyPath: return 0
        case .optionalBind(let e, _), .optionalChain(let e, _), .forceUnwrap(let e, _): return shorthandCount(e)
        case .string(let parts, _):
            return parts.reduce(0) { if case .interpolation(let e) = $1 { Swift.max($0, shorthandCount(e)) } else { $0 } }
        case .array(let es, _), .tuple(let es, _, _): return es.map(shorthandCount).max() ?? 0
        case .dictionary(let pairs, _): return pairs.map { Swift.max(shorthandCount($0.key), shorthandCount($0.value)) }.max() ?? 0
        case .unary(_, let e, _), .member(let e, _, _, _): return shorthandCount(e)
        case .binary(_, let a, let b, _, _), .subscriptAccess(let a, let b, _): return Swift.max(shorthandCount(a), shorthandCount(b))
        case .ternary(let a, let b, let c, _): return Swift.max(shorthandCount(a), shorthandCount(b), shorthandCount(c))
        case .call(let callee, let arguments, _):
            return arguments.reduce(shorthandCount(callee)) { Swift.max($0, shorthandCount($1.value)) }
        }
    }
}

/// Runs `body`, giving any error without a location this one.
@inline(__always)
func located<T>(_ location: SourceLocation, _ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw FlowError.wrap(error).located(at: location) }
}

extension Compiler {
    /// `x?.y` and `x!`. Apart from `compile`, whose frame every level of a
    /// deeply nested expression pays for.
    @inline(never)
    func compileOptional(_ expr: Expr, in scope: Scope) -> Code {
        switch expr {
        case .optionalChain(let chain, _):
            let code = compile(chain, in: scope)
            return { frame in
                do { return try code(frame) } catch is NilInOptionalChain { return .null }
            }
        case .optionalBind(let base, _):
            let code = compile(base, in: scope)
            return { frame in
                let value = try code(frame)
                if value.isNull { throw NilInOptionalChain() }
                return value
            }
        case .forceUnwrap(let base, let span):
            let code = compile(base, in: scope)
            // At the `!`, the span's last character.
            let location = file.location(of: span.end - 1)
            return { frame in
                let value = try code(frame)
                if value.isNull { throw FlowError("found nil where '!' expects a value", at: location) }
                return value
            }
        default:
            return compile(expr, in: scope)
        }
    }
}

/// Thrown where a `?.` meets nil, and caught by the chain it belongs to,
/// which is then nil: the rest of the chain does not run, as in Swift.
struct NilInOptionalChain: Error {}
