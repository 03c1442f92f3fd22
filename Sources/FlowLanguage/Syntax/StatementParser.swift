import FlowRuntime

/// The parser's statements: a statement list, a `let` binding, a `test`
/// block, `import`s, what Swift has and flow does not, and recovering from
/// an error at the next statement. Swift's own statements and
/// declarations are in SwiftStatementParser.swift.
extension Parser {

    enum Context {
        case topLevel, test, closure
        /// The body of `if`, a loop, a func or a type member.
        case block
        /// A `case` of a `switch`: ends at the next `case` or `default`.
        case switchCase
    }

    mutating func parseStatements(context: Context) throws -> [Statement] {
        var statements: [Statement] = []
        while true {
            switch try parseNext(context: context) {
            case .statement(let statement): statements.append(statement)
            case .skipped: continue
            case .end: return statements
            }
        }
    }

    /// The script's next top-level statement, or nil at its end. What does
    /// not parse is reported and skipped.
    public mutating func nextTopLevelStatement() -> Statement? {
        do {
            while true {
                switch try parseNext(context: .topLevel) {
                case .statement(let statement): return statement
                case .skipped: continue
                case .end: return nil
                }
            }
        } catch {
            // Nested too deeply: reported, and the rest of the file is not read.
            return nil
        }
    }

    private enum Step {
        case statement(Statement)
        /// An `import`, a statement that did not parse, a stray `}`.
        case skipped
        case end
    }

    private mutating func parseNext(context: Context) throws -> Step {
        if !pendingStatements.isEmpty { return .statement(pendingStatements.removeFirst()) }
        // Tokens of finished top-level statements are never read again
        // (but the one before, for `onSameLine`).
        if context == .topLevel { tokens.release(before: index - 1) }
        while peek().kind.isNewline { advance() }
        if peek().kind.isEnd || (context != .topLevel && check("}")) { return .end }
        if context == .switchCase, peek().isKeyword(.case) || peek().isKeyword(.default) { return .end }
        if context == .topLevel, check("}") {
            reported.appendCapped(Diagnostic("unmatched '}'", in: file, at: advance().span))
            return .skipped
        }
        // A statement followed by more on its line is kept, and the rest reported.
        var statement: Statement?
        do {
            statement = try skipImport(context: context) ? nil : try parseStatement(context: context)
            let next = peek()
            if !next.kind.isNewline && !next.kind.isEnd && !(context != .topLevel && next.isSymbol("}")) {
                throw fail("expected a new line after this statement", at: next.span,
                           help: next.isSymbol("{") ? "a trailing closure must start on the same line as its call" : nil)
            }
            return statement.map(Step.statement) ?? .skipped
        } catch let failure as Failure {
            reported.appendCapped(failure.diagnostic)
            synchronize()
            return statement.map(Step.statement) ?? .skipped
        }
    }

    /// `import Combine`, `import RxSwift`, `import struct Foundation.Date`:
    /// accepted at the top level, so pasted Swift starts as written (flow
    /// has every operator built in). The module is noted in `imports`, as
    /// it may choose a dialect. Returns whether it read one.
    mutating func skipImport(context: Context) throws -> Bool {
        // `import` used as a name (`import.x`, `import(1)`) is left to the
        // compiler, which reports it.
        guard peek().isKeyword(.import),
              !["=", "(", ".", "["].contains(where: { tokens[index + 1].isSymbol($0) }) else { return false }
        let importToken = advance()
        guard context == .topLevel else {
            throw fail("import goes at the top of a script", at: importToken.span, help: "flow has every operator built in; remove it")
        }
        if let kind = peek().labelText, Self.importKinds.contains(kind) { advance() }
        guard let module = peek().labelText else {
            let atEnd = peek().kind.isNewline || peek().kind.isEnd
            throw fail("expected a module name after 'import'", at: atEnd ? importToken.span : peek().span)
        }
        imports.append((module, advance().span))
        while check("."), tokens[index + 1].labelText != nil {
            advance()
            advance()
        }
        return true
    }

    /// Swift's declarations and statements that flow does not have, when
    /// one starts here: what it is and what to write instead.
    mutating func swiftConstruct() -> (message: String, help: String)? {
        let first = peek()
        if first.isSymbol("@") {
            let name = tokens[index + 1].labelText ?? ""
            if name == "Published" {
                return ("flow has no property wrappers",
                        "a @Published value is a CurrentValueSubject(initial): read it with .value, change it with send(_:)")
            }
            return ("flow has no attributes or property wrappers", "remove @\(name)")
        }
        guard let word = first.labelText, let construct = Self.swiftConstructs[word] else { return nil }
        if word == "fallthrough" { return (construct.message, construct.help) }
        let next = tokens[index + 1]
        // Only where the word starts a construct: `repeat {`, not `repeat(2)` on its own.
        if next.kind.isNewline || next.kind.isEnd || ["=", ".", ",", ")"].contains(where: { next.isSymbol($0) }) { return nil }
        if construct.needsBrace && !next.isSymbol("{") { return nil }
        return (construct.message, construct.help)
    }

    private static let swiftConstructs: [String: (message: String, help: String, needsBrace: Bool)] = {
        return [
            "actor": ("flow has no actors", "every event already runs on one loop: use a struct for the state and a subject for its changes", false),
            "Task": ("flow has no Task { }", "async work is a stream in flow: a request (http.get), a Future, or DispatchQueue.main.async { }", true),
            "defer": ("flow has no defer", "run clean-up when a stream ends with do(onDispose:) or finalize", true),
            "fallthrough": ("flow has no fallthrough", "list several patterns in one case, as in case 1, 2:", false),
        ]
    }()

    private static let importKinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]

    /// Skips to the end of the broken statement: the next newline outside
    /// brackets, or a `}` that closes the enclosing block.
    mutating func synchronize() {
        var depth = 0
        while true {
            let token = tokens[index]
            switch token.kind {
            case .end: return
            case .newline where depth == 0: return
            case .symbol("("), .symbol("["), .symbol("{"): depth += 1
            case .symbol(")"), .symbol("]"): depth = Swift.max(0, depth - 1)
            case .symbol("}"):
                if depth == 0 { return }
                depth -= 1
            default: break
            }
            index += 1
        }
    }

    mutating func parseStatement(context: Context) throws -> Statement {
        // `@discardableResult`, `final`, `public`: read and dropped, so that
        // what follows them is the statement (`final class` is a class).
        var modifiers = skipModifiers()
        let first = peek()
        if let construct = swiftConstruct() {
            // One error for the whole declaration or statement, then on to
            // the next line: never a cascade of errors from its parts.
            let span = first.isSymbol("@") ? first.span.to(tokens[index + 1].span) : first.span
            synchronize()
            throw Failure(diagnostic: Diagnostic(construct.message, in: file, at: span, help: construct.help))
        }
        modifiers.formUnion(skipModifiers())
        if peek().isKeyword(.let) || peek().isKeyword(.var) {
            return try parseBinding(context: context)
        }
        if let statement = try parseSwiftStatement(context: context) {
            if case .function(let declaration) = statement { declaration.isDiscardableResult = modifiers.contains(.discardableResult) }
            return statement
        }
        if first.isKeyword(.test) {
            advance()
            guard context == .topLevel else {
                throw fail("test blocks can only be written at the top level of a script", at: first.span)
            }
            let nameToken = advance()
            guard case .string(let segments) = nameToken.kind else {
                throw fail("expected the test's name as a string, as in test \"map doubles\" { ... }", at: nameToken.span)
            }
            let name = segments.map { if case .text(let t) = $0 { t } else { "" } }.joined()
            if let points = try parseTestPoints() { testPoints[first.span.start] = points }
            let open = try expect("{", "'{' to start the test's body")
            let body = try bracketed(open) { parser in
                try parser.withNewlines(significant: true) { try $0.parseStatements(context: .test) }
            }
            let close = try close("}", opened: open, "test \"\(name)\"")
            return .test(name: name, body: body, first.span.to(close.span))
        }
        if first.isKeyword(.return) {
            advance()
            guard returnAllowed else { throw fail("'return' can only be used inside a closure or a func", at: first.span) }
            if peek().kind.isNewline || peek().kind.isEnd || check("}") { return .return(nil, first.span) }
            let value = try parseExpression()
            return .return(value, first.span.to(value.span))
        }
        let expr = try parseExpression()
        if case .symbol(let symbol) = peek().kind, let op = AssignmentOperator(rawValue: symbol) {
            let opToken = advance()
            let value = try parseExpression()
            return .assignment(target: expr, op: op, value: value, opSpan: opToken.span, expr.span.to(value.span))
        }
        return .expression(expr)
    }

    /// `(points: 2)` after a test's name, if there.
    mutating func parseTestPoints() throws -> Int? {
        guard let open = accept("(") else { return nil }
        guard peek().labelText == "points", tokens[index + 1].isSymbol(":") else {
            throw fail("a test takes (points: n) after its name", at: peek().span)
        }
        advance()
        advance()
        let value = advance()
        guard case .integer(let points) = value.kind, points >= 0 else {
            throw fail("points are a whole number of zero or more", at: value.span)
        }
        _ = try close(")", opened: open, "points")
        return points
    }
}

extension SourceFile {
    /// The names of the file's `test` blocks, read from its tokens alone, so
    /// a file that does not compile can still report each of its tests.
    public var declaredTestNames: [String] { declaredTests.map(\.name) }

    /// The file's `test` blocks by their tokens: each name, where its
    /// `test` keyword starts, and its points (1 unless it says).
    public var declaredTests: [(name: String, start: Int, points: Int)] {
        var lexer = Lexer(file: self)
        let tokens = lexer.tokenize()
        var tests: [(name: String, start: Int, points: Int)] = []
        for (i, token) in tokens.enumerated().dropLast() where token.isKeyword(.test) {
            guard i == 0 || tokens[i - 1].kind.isNewline || tokens[i - 1].isSymbol("}") || tokens[i - 1].isSymbol(";"),
                  case .string(let segments) = tokens[i + 1].kind else { continue }
            let name = segments.map { segment in
                switch segment {
                case .text(let text): text
                case .interpolation(let span): "\\(" + text(of: span) + ")"
                }
            }.joined()
            // Read by the parser's own rule, from the name on: a grade and
            // a run cannot disagree on a test's points.
            var parser = Parser(file: self, range: tokens[i + 1].span.end..<bytes.count)
            let points = (try? parser.parseTestPoints()).flatMap { $0 } ?? 1
            tests.append((name, token.span.start, points))
        }
        return tests
    }
}
