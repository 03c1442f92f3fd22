import FlowRuntime

/// A statement list's statements: the top level (test blocks apart),
/// `let` and `var` bindings, expression statements and `return`. Swift's
/// other statements are in StatementCompiler.swift.
extension Compiler {
    // MARK: - Statements

    /// A compiled statement; `test` blocks are returned separately.
    struct CompiledTest {
        let name: String
        let span: Span
        let scope: Scope
        let body: [Code]
        /// Errors inside the block, when tests are compiled each on its own
        /// (`flow test`): the block fails with them and does not run.
        var problems: [Diagnostic] = []
        /// The points its expectations carry (`toBe(..., points: 2)`), if any do.
        var expectationPoints: Int?
    }

    /// A script's top level as it is compiled, statement by statement.
    struct TopLevel {
        /// With `keepingCode` false (`flow check`), each statement's code is
        /// dropped once compiled: only the diagnostics are wanted, and a
        /// long script's code would otherwise be held whole.
        let keepingCode: Bool
        var body: [Code] = []
        var tests: [CompiledTest] = []
        var testNames: [String: Span] = [:]
    }

    /// Compiles the next top-level statement. Without funcs or types in the
    /// script (nothing to hoist), statements can be compiled as they are
    /// parsed.
    func compileTopLevel(_ statement: Statement, into topLevel: inout TopLevel, in scope: Scope) {
        if case .test(let name, let statementsOfTest, let span) = statement {
            if topLevel.testNames[name] != nil {
                error("a test named \"\(name)\" is already declared", span, help: "give each test block its own name")
            }
            topLevel.testNames[name] = span
            let testScope = Scope(kind: .test, parent: scope)
            expectationPointsInTest = nil
            let testPrologue = hoist(statementsOfTest, in: testScope)
            let code = statementsOfTest.map { compileStatement($0, in: testScope) }
            topLevel.tests.append(CompiledTest(name: name, span: span, scope: testScope,
                                               body: topLevel.keepingCode ? Self.prepending(testPrologue, to: code) : [],
                                               expectationPoints: expectationPointsInTest))
            expectationPointsInTest = nil
        } else {
            let code = compileStatement(statement, in: scope)
            if topLevel.keepingCode { topLevel.body.append(code) }
        }
    }

    /// The funcs of a statement list are made before its first statement runs.
    static func prepending(_ prologue: ((Frame) throws -> Void)?, to body: [Code]) -> [Code] {
        guard let prologue, let first = body.first else { return body }
        return [{ frame in try prologue(frame); return try first(frame) }] + body.dropFirst()
    }

    func compileStatement(_ statement: Statement, in scope: Scope) -> Code {
        switch statement {
        case .binding(let name, let nameSpan, let typeText, let valueExpr, let isVariable, _):
            // `let x: Any = e` keeps what is known of e.
            let declared = typeText.map { staticType(text: $0.text, in: scope) }.flatMap { $0.isKnown ? $0 : nil }
            // While its value compiles, the name is not declared yet: a
            // closure that calls it is told so (`unknownName`).
            namesBeingBound.append(name)
            let compiledValue = valueExpr.map { expr in declared.map { compiled(expr, convertingTo: $0, in: scope) } ?? compiled(expr, in: scope) }
            namesBeingBound.removeLast()
            let value = compiledValue?.code
            let knownStream = !isVariable && compiledValue?.isStream == true
            // A name bound to a value of a sure type (`Point(x: 1)`,
            // `PassthroughSubject<Int?, Never>()`) has it surely; one bound to
            // a literal keeps the literal's kind loosely (`let n = 5; n * 0.5`).
            let sure = declared != nil || (compiledValue?.typeIsSure == true && valueExpr.map(Self.isLiteral) == false)
            guard let slot = scope.declare(name, at: nameSpan, as: isVariable ? .variable : .constant, isKnownStream: knownStream,
                                           type: declared ?? compiledValue?.type ?? .unknown, typeIsWritten: sure) else {
                let previous = scope.previousDeclaration(of: name).map { file.lineAndColumn(of: $0.start).line }
                error("'\(name)' is already declared in this scope" + (previous.map { " (line \($0))" } ?? ""), nameSpan,
                      help: isVariable || scope.resolve(name)?.entry.binding == .variable
                          ? "assign to it without 'var', as in \(name) = ..." : "choose another name; a script's names are declared once")
                return { _ in .null }
            }
            if environment.bindingTypes != nil {
                // `cold("-a-b|")`, which runs as a stream of any values, shows
                // what its marbles hold, and so does `$0` of its `map` (as a
                // hint: the type is not taken as sure).
                let type = declared ?? compiledValue?.type ?? .unknown
                if !type.isWhollyKnown, let marbles = valueExpr.flatMap(Self.marbleStreamType) {
                    environment.bindingTypes?[nameSpan.start] = marbles
                    if !type.isKnown { scope.setType(marbles, of: name, isWritten: false) }
                } else {
                    environment.bindingTypes?[nameSpan.start] = type
                }
            }
            guard let value else {
                // `var x: Int?` starts as nil, also in a frame reused between calls.
                return { frame in
                    frame.slots[slot] = .null
                    return .null
                }
            }
            guard scope.kind == .script || scope.kind == .test else {
                return { frame in
                    frame.slots[slot] = try value(frame).keptByAName()
                    return .null
                }
            }
            // A stream bound at the top of a script or test is drawn and
            // traced under its name (runs once: no cost per event).
            let env = environment
            return { frame in
                let bound = try value(frame).keptByAName()
                if case .stream(let stream) = bound {
                    if stream.name == nil { stream.name = name }
                    if env.watchesBindings { env.run.scheduler.tracer?.watch(stream) }
                }
                frame.slots[slot] = bound
                return .null
            }
        case .expression(let expr):
            return compileExpressionStatement(expr, in: scope).code
        case .return(.literal(.null, _)?, _) where scope.enclosingClosure?.isFailableInitialiser == true:
            return { _ in throw FailedInitialisation() }
        case .return(var expr, _):
            let resultType = scope.enclosingClosure?.resultType
            if case .call(.implicitMember("init", _), let arguments, let callSpan)? = expr, let written = scope.enclosingClosure?.resultTypeText,
               let open = written.text.firstIndex(of: "<"), resolveType(String(written.text[..<open]), in: scope) == nil {
                // `-> CurrentValueSubject<Settings, Never> { .init(.quiet) }`: the library's
                // type as written there (its generic arguments read from that place).
                let typeName = String(written.text[..<open]).trimmingWhitespace()
                expr = .call(callee: .name(typeName, Span(written.span.start, written.span.start + typeName.utf8.count)), arguments: arguments, callSpan)
            }
            let value = expr.map { expr in resultType.map { compiled(expr, convertingTo: $0, in: scope).code } ?? compile(expr, in: scope) }
            return { frame in throw ReturnSignal(value: try value?(frame) ?? .null) }
        case .test(_, _, let span):
            error("test blocks can only be written at the top level of a script", span)
            return { _ in .null }
        default:
            return compileSwiftStatement(statement, in: scope)
        }
    }

    /// A statement that ends in `.print(...)` subscribes the stream, as
    /// `sink` does; any other expression is evaluated for its effects.
    func compileExpressionStatement(_ expr: Expr, in scope: Scope) -> CompiledExpression {
        let compiled = self.compiled(expr, in: scope)
        if callsDiscardableResult(expr, in: scope) {
            // `@discardableResult`: the value is dropped, a stream too, as
            // Swift never subscribes what nobody keeps.
            let code = compiled.code
            return CompiledExpression { frame in _ = try code(frame); return .void }
        }
        guard Self.subscribesItself(expr), case .call(_, _, let span) = expr else { return compiled }
        let code = compiled.code
        let env = environment
        let location = self.location(span)
        return CompiledExpression { frame in
            let value = try code(frame)
            if case .stream(let stream) = value { env.subscribe(stream, at: location, handlers: Handlers()) }
            return value
        }
    }

    /// A literal, or a collection of them: its type is the literal's kind.
    static func isLiteral(_ expr: Expr) -> Bool {
        switch expr {
        case .literal, .string: return true
        case .unary(_, let operand, _): return isLiteral(operand)
        case .array(let elements, _), .tuple(let elements, _, _): return elements.allSatisfy(isLiteral)
        case .dictionary(let pairs, _): return pairs.allSatisfy { isLiteral($0.key) && isLiteral($0.value) }
        default: return false
        }
    }

    /// A call of the script's funcs or methods marked `@discardableResult`.
    private func callsDiscardableResult(_ expr: Expr, in scope: Scope) -> Bool {
        switch expr {
        case .call(.name(let name, _), _, _):
            if let info = scope.resolve(name)?.entry.function { return info.allOverloads.contains { $0.declaration.isDiscardableResult } }
            if let type = scope.methodScope?.selfType, let info = type.methods[name] ?? type.staticMethods[name] {
                return info.allOverloads.contains { $0.declaration.isDiscardableResult }
            }
            return false
        case .call(.member(_, let name, _, _), _, _):
            return scope.visibleTypes.contains { type in
                (type.methods[name] ?? type.staticMethods[name])?.allOverloads.contains { $0.declaration.isDiscardableResult } == true
            }
        default:
            return false
        }
    }

    /// Whether an expression statement subscribes its own stream as it is
    /// evaluated (`s.print()`), so that nothing subscribes it again.
    static func subscribesItself(_ expr: Expr) -> Bool {
        guard case .call(.member(_, let name, _, _), _, _) = expr else { return false }
        return operatorTable.lookup(name)?.traits.contains(.subscribedAsAStatement) == true
    }
}
