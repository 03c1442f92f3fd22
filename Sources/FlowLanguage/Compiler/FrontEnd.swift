import FlowRuntime

/// The one way text becomes code: parse, compile against a scope, and
/// gather the diagnostics in source order. A script file (`Program`) and
/// each REPL input (`Session`) both go through it.
///
/// Parsing and compiling recurse once per nesting level: they run on
/// threads with a large stack whatever the caller's thread, and the syntax
/// tree is released there too. A file without funcs or types is parsed on
/// one thread while its statements are compiled on another (see `Order`).
enum FrontEnd {
    static let stackSize = 256 << 20

    struct Compiled {
        /// The top-level statements other than `test` blocks, each with its code.
        var statements: [Statement]
        var body: [Code]
        var tests: [Compiler.CompiledTest]
        /// What compiles but probably does not do what was meant.
        var warnings: [Diagnostic]
        /// With `isolatingTests`: test blocks that did not even parse, each
        /// with the errors from its `test` keyword to the next one's.
        var brokenTests: [(name: String, problems: [Diagnostic])] = []
        /// `test "name" (points: n)`: points by where the test starts.
        var testPoints: [Int: Int] = [:]
        /// What the script turned out to need (the wall clock, modules, …).
        var facts = ScriptFacts()
    }

    /// When statements are compiled. A func or a type is seen by every
    /// statement of its list, also those before it: a file that may declare
    /// one is parsed whole first. Others are compiled as they are parsed.
    enum Order {
        case asParsed, afterParsing
    }

    /// Compiles statements into `scope`. Throws every error at once, with
    /// the warnings among them; nothing is compiled then. With
    /// `isolatingTests`, errors inside a test block fail only that test (a
    /// class's tests are graded one by one): only errors outside every
    /// test block are thrown. With `including`, the statements it refuses
    /// are parsed (the file stays one unit, its lines its own) but neither
    /// declared nor compiled: a graded file is compiled without its own
    /// tests, and a key in two parts, its given declarations and its tests.
    static func compile(
        _ file: SourceFile, in scope: Scope, environment: Environment, isolatingTests: Bool = false, keepingCode: Bool = true,
        order: Order? = nil, including: ((Statement) -> Bool)? = nil
    ) throws -> Compiled {
        let order = order ?? (file.mayDeclareFunctionsOrTypes ? .afterParsing : .asParsed)
        let (compiled, errors) = withLargeStack(size: Self.stackSize) { () -> (Compiled, [Diagnostic]) in
            let compiler = Compiler(file: file, environment: environment)
            compiler.readsClosureEffects = keepingCode
            var topLevel = Compiler.TopLevel(keepingCode: keepingCode)
            var kept: [Statement] = []
            var prologue: ((Frame) throws -> Void)?
            let parseDiagnostics: [Diagnostic], testPoints: [Int: Int]
            func compileNext(_ statement: Statement) {
                if let including, !including(statement) { return }
                compiler.compileTopLevel(statement, into: &topLevel, in: scope)
                if keepingCode, !statement.isTest { kept.append(statement) }
            }
            if order == .afterParsing {
                var parser = Parser(file: file)
                let statements = parser.parseScript().statements.filter { including?($0) ?? true }
                for (name, span) in parser.brokenBindings { _ = scope.declare(name, at: span) }
                for (module, span) in parser.imports { compiler.imported(module, at: span) }
                prologue = compiler.hoist(statements, in: scope)
                for statement in statements { compileNext(statement) }
                (parseDiagnostics, testPoints) = (parser.diagnostics, parser.testPoints)
            } else {
                // Each statement is compiled as soon as it is parsed: the
                // parser runs ahead on a thread of its own, and `flow check`
                // drops each statement once compiled, so a long script's
                // syntax tree is never held whole.
                let handoff = StatementHandoff()
                whileRunning({ handoff.parse(file) }, stackSize: Self.stackSize) {
                    while let item = handoff.take() {
                        switch item {
                        case .statement(let statement): compileNext(statement)
                        case .brokenBinding(let name, let span): _ = scope.declare(name, at: span)
                        case .imported(let module, let span): compiler.imported(module, at: span)
                        }
                    }
                }
                (parseDiagnostics, testPoints) = (handoff.diagnostics, handoff.testPoints)
            }
            var compiled = Compiled(statements: kept, body: Compiler.prepending(prologue, to: topLevel.body), tests: topLevel.tests,
                                    warnings: Diagnostic.inSourceOrder(compiler.warnings))
            compiled.testPoints = testPoints
            compiled.facts = compiler.facts
            // An expectation's points are a share of its test's.
            var pointProblems: [Diagnostic] = []
            for test in compiled.tests {
                guard let carried = test.expectationPoints, carried > testPoints[test.span.start] ?? 1 else { continue }
                let worth = testPoints[test.span.start] ?? 1
                pointProblems.append(Diagnostic("the expectations of test \"\(test.name)\" carry \(carried) points, but the test is worth \(worth)",
                                                in: file, at: Span(test.span.start, test.span.start + 4),
                                                help: "write test \"\(test.name)\" (points: \(carried)) { ... }"))
            }
            return (compiled, Diagnostic.inSourceOrder(parseDiagnostics + compiler.diagnostics + pointProblems))
        }
        guard !errors.isEmpty else { return compiled }
        guard isolatingTests else { throw DiagnosticList(Diagnostic.inSourceOrder(errors + compiled.warnings)) }
        var isolated = compiled
        var outside: [Diagnostic] = []
        let declared = file.declaredTests
        for error in errors {
            let at = error.span.start
            if let i = isolated.tests.firstIndex(where: { $0.span.start <= at && at < $0.span.end }) {
                isolated.tests[i].problems.append(error)
                continue
            }
            // In the text of a block that did not parse: after its `test`,
            // up to the next. An error at a `test` keyword itself is what
            // came before it left open (`cold("-a|"` on the line above).
            guard let d = declared.lastIndex(where: { $0.start < at }),
                  !isolated.tests.contains(where: { $0.span.start == declared[d].start }) else {
                outside.append(error)
                continue
            }
            if let j = isolated.brokenTests.firstIndex(where: { $0.name == declared[d].name }) {
                isolated.brokenTests[j].problems.append(error)
            } else {
                isolated.brokenTests.append((declared[d].name, [error]))
            }
        }
        if !outside.isEmpty { throw DiagnosticList(Diagnostic.inSourceOrder(errors + compiled.warnings)) }
        return isolated
    }

    /// Compiles one expression, in a scope of its own under `parent`.
    static func compileExpression(
        _ file: SourceFile, under parent: Scope, environment: Environment, expected help: String
    ) throws -> (expr: Expr, code: Code, scope: Scope) {
        let (result, errors) = withLargeStack(size: Self.stackSize) { () -> ((Expr, Code, Scope)?, [Diagnostic]) in
            var parser = Parser(file: file)
            let script = parser.parseScript()
            guard parser.diagnostics.isEmpty else { return (nil, parser.diagnostics) }
            guard script.statements.count == 1, case .expression(let expr) = script.statements[0] else {
                let span = script.statements.first?.span ?? Span(0, file.text.utf8.count)
                return (nil, [Diagnostic("expected one stream expression", in: file, at: span, help: help)])
            }
            let compiler = Compiler(file: file, environment: environment)
            let scope = Scope(kind: .script, parent: parent)
            let code = compiler.compile(expr, in: scope)
            return (compiler.diagnostics.isEmpty ? (expr, code, scope) : nil, compiler.diagnostics)
        }
        guard let result else { throw DiagnosticList(errors) }
        return result
    }
}
