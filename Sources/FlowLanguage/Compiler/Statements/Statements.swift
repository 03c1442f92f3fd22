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
        case .binding(let name, let nameSpan, let valueExpr, let isVariable, _):
            // While its value compiles, the name is not declared yet: a
            // closure that calls it is told so (`unknownName`).
            namesBeingBound.append(name)
            let compiledValue = valueExpr.map { compiled($0, in: scope) }
            namesBeingBound.removeLast()
            let value = compiledValue?.code
            let knownStream = !isVariable && compiledValue?.isStream == true
            guard let slot = scope.declare(name, at: nameSpan, as: isVariable ? .variable : .constant, isKnownStream: knownStream) else {
                let previous = scope.previousDeclaration(of: name).map { file.lineAndColumn(of: $0.start).line }
                error("'\(name)' is already declared in this scope" + (previous.map { " (line \($0))" } ?? ""), nameSpan,
                      help: isVariable || scope.resolve(name)?.entry.binding == .variable
                          ? "assign to it without 'var', as in \(name) = ..." : "choose another name; a script's names are declared once")
                return { _ in .null }
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
        case .return(let expr, _):
            let value = expr.map { compile($0, in: scope) }
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

    /// Whether an expression statement subscribes its own stream as it is
    /// evaluated (`s.print()`), so that nothing subscribes it again.
    static func subscribesItself(_ expr: Expr) -> Bool {
        guard case .call(.member(_, let name, _, _), _, _) = expr else { return false }
        return operatorTable.lookup(name)?.traits.contains(.subscribedAsAStatement) == true
    }
}
