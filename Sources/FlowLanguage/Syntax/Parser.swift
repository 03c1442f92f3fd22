import FlowRuntime

/// Recursive-descent parser for flow scripts (see grammar.md).
///
/// Newlines end statements except inside `( )` and `[ ]`, where the parser
/// ignores them; inside `{ }` they count again. An error inside a statement
/// is recorded and the parser skips to the next statement, so one run
/// reports every syntax error in the file.
public struct Parser {
    /// Deeper nesting is reported instead of recursing towards a stack overflow.
    static let maximumNesting = 200
    /// Calls chained in one expression (`a.map{}.filter{}...`); each adds a
    /// level to the tree the compiler walks.
    static let maximumChain = 10_000
    /// Stack kept free while parsing: below this, nesting is reported.
    static let stackReserve = 256 * 1024

    let file: SourceFile
    var tokens: TokenBuffer
    var index = 0
    var newlineSignificant: [Bool] = [true]
    var nesting = 0
    /// Brackets opened and not yet closed, innermost last.
    var openers: [Token] = []
    /// What the parser found wrong; the lexer's findings come with them in `diagnostics`.
    var reported: [Diagnostic] = []
    public var diagnostics: [Diagnostic] { tokens.lexerDiagnostics + reported }
    /// Names of `let`s whose value failed to parse: still declared, so
    /// their uses do not cascade into "unknown name" errors.
    public internal(set) var brokenBindings: [(name: String, span: Span)] = []
    /// The modules `import` lines name, in order, with where each is named.
    public internal(set) var imports: [(module: String, span: Span)] = []
    /// `test "name" (points: 2) { }`: a test's weight when a class is
    /// graded, by where its `test` keyword starts.
    public internal(set) var testPoints: [Int: Int] = [:]
    /// Inside a closure or a func body: `return` is allowed.
    var returnAllowed = false
    /// Loops around the statement being parsed, within its closure or func.
    var loopDepth = 0
    /// `switch`es around the statement being parsed (`break` leaves one).
    var switchDepth = 0
    /// In the conditions of `if`, `while`, `guard` and `for`, a `{` starts
    /// the body, never a trailing closure (as in Swift).
    var noTrailingClosure = false

    struct Failure: Error { let diagnostic: Diagnostic }
    /// Nesting too deep: abandon the whole parse.
    struct Abort: Error {}

    public init(file: SourceFile) {
        tokens = TokenBuffer(Lexer(file: file))
        self.file = file
    }

    init(file: SourceFile, range: Range<Int>) {
        tokens = TokenBuffer(Lexer(file: file, range: range))
        self.file = file
        newlineSignificant = [false]
    }

    /// Parses a whole script. Diagnostics are in `diagnostics`.
    public mutating func parseScript() -> Script {
        do {
            let statements = try parseStatements(context: .topLevel)
            return Script(file: file, statements: statements)
        } catch {
            return Script(file: file, statements: [])
        }
    }

    // MARK: - Tokens

    mutating func peek() -> Token {
        if newlineSignificant.last == false {
            while tokens[index].kind.isNewline {
                // A `;` inside brackets separates nothing: reported, then
                // read as the `,` it was meant to be.
                if file.text(of: tokens[index].span) == ";" {
                    reported.appendCapped(Diagnostic("';' separates statements, not arguments or elements", in: file, at: tokens[index].span,
                                                  help: "use ',' inside ( ) and [ ]"))
                    tokens[index].kind = .symbol(",")
                    break
                }
                index += 1
            }
        }
        return tokens[index]
    }

    mutating func peek(offset: Int) -> Token {
        _ = peek()
        var i = index
        var remaining = offset
        while remaining > 0, !tokens[i].kind.isEnd {
            i += 1
            if newlineSignificant.last == false && tokens[i].kind.isNewline { continue }
            remaining -= 1
        }
        return tokens[i]
    }

    @discardableResult
    mutating func advance() -> Token {
        let token = peek()
        if !tokens[index].kind.isEnd { index += 1 }
        return token
    }

    mutating func check(_ symbol: String) -> Bool { peek().isSymbol(symbol) }

    mutating func accept(_ symbol: String) -> Token? {
        check(symbol) ? advance() : nil
    }

    mutating func expect(_ symbol: String, _ what: String, help: String? = nil) throws -> Token {
        if let token = accept(symbol) { return token }
        throw fail("expected \(what)", at: peek().span, help: help)
    }

    /// Expects the bracket that closes `opened`; at the end of the file,
    /// blames the bracket that was never closed.
    mutating func close(_ symbol: String, opened: Token, _ what: String) throws -> Token {
        if let token = accept(symbol) { return token }
        if peek().kind.isEnd, case .symbol(let open) = opened.kind {
            throw fail("'\(open)' is never closed", at: opened.span, help: "add '\(symbol)' where the \(what) ends")
        }
        throw fail("expected '\(symbol)' to close the \(what)", at: peek().span)
    }

    func fail(_ message: String, at span: Span, help: String? = nil) -> Failure {
        Failure(diagnostic: Diagnostic(message, in: file, at: span, help: help))
    }

    mutating func withNewlines<T>(significant: Bool, _ body: (inout Parser) throws -> T) rethrows -> T {
        newlineSignificant.append(significant)
        defer { newlineSignificant.removeLast() }
        return try body(&self)
    }

    /// Like `nested`, for the contents of a bracket: an unexpected end of the
    /// file inside is blamed on the bracket.
    mutating func bracketed<T>(_ open: Token, _ body: (inout Parser) throws -> T) throws -> T {
        openers.append(open)
        let trailingClosures = noTrailingClosure
        noTrailingClosure = false
        defer {
            openers.removeLast()
            noTrailingClosure = trailingClosures
        }
        return try nested(at: open.span, body)
    }

    mutating func nested<T>(at span: Span, _ body: (inout Parser) throws -> T) throws -> T {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maximumNesting || StackSpace.remaining() < Self.stackReserve {
            reported.appendCapped(Diagnostic("expression nested too deeply (more than \(Self.maximumNesting) levels)", in: file, at: span,
                                          help: "split it with let bindings"))
            throw Abort()
        }
        return try body(&self)
    }

    // MARK: - Statements

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
        // Tokens of finished top-level statements are never read again
        // (but the one before, for `onSameLine`).
        if context == .topLevel { tokens.release(before: index - 1) }
        while peek().kind.isNewline { advance() }
        if peek().kind.isEnd || (context != .topLevel && check("}")) { return .end }
        if context == .switchCase, case .identifier(let word) = peek().kind, word == "case" || word == "default" { return .end }
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
        guard case .identifier("import") = peek().kind,
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
        guard case .identifier(let word) = first.kind, let construct = Self.swiftConstructs[word] else { return nil }
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
        skipModifiers()
        let first = peek()
        if let construct = swiftConstruct() {
            // One error for the whole declaration or statement, then on to
            // the next line: never a cascade of errors from its parts.
            let span = first.isSymbol("@") ? first.span.to(tokens[index + 1].span) : first.span
            synchronize()
            throw Failure(diagnostic: Diagnostic(construct.message, in: file, at: span, help: construct.help))
        }
        skipModifiers()
        if peek().isKeyword(.let) || isWord("var") {
            return try parseBinding(context: context)
        }
        if let statement = try parseSwiftStatement(context: context) { return statement }
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
        if case .symbol(let op) = peek().kind, Self.assignmentOperators.contains(op) {
            let opToken = advance()
            let value = try parseExpression()
            return .assignment(target: expr, op: op, value: value, opSpan: opToken.span, expr.span.to(value.span))
        }
        return .expression(expr)
    }

    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%="]

    // MARK: - Expressions, lowest precedence first (as in Swift)

    mutating func parseExpression() throws -> Expr {
        try nested(at: peek().span) { try $0.parseTernary() }
    }

    mutating func parseTernary() throws -> Expr {
        let condition = try parseOr()
        guard accept("?") != nil else { return condition }
        let whenTrue = try parseExpression()
        _ = try expect(":", "':' in the conditional expression")
        let whenFalse = try parseExpression()
        return .ternary(condition, whenTrue, whenFalse, condition.span.to(whenFalse.span))
    }

    mutating func parseOr() throws -> Expr {
        try parseLeftAssociative(["||"]) { try $0.parseAnd() }
    }

    mutating func parseAnd() throws -> Expr {
        try parseLeftAssociative(["&&"]) { try $0.parseComparison() }
    }

    mutating func parseComparison() throws -> Expr {
        let left = try parseCoalescing()
        let comparisons = ["==", "!=", "===", "!==", "<", "<=", ">", ">="]
        guard case .symbol(let op) = peek().kind, comparisons.contains(op) else { return left }
        let opSpan = advance().span
        let right = try parseCoalescing()
        if case .symbol(let again) = peek().kind, comparisons.contains(again) {
            throw fail("comparisons cannot be chained", at: peek().span, help: "combine them with &&, as in a < b && b < c")
        }
        return .binary(op: op, left, right, opSpan: opSpan, left.span.to(right.span))
    }

    mutating func parseCoalescing() throws -> Expr {
        let left = try parseRange()
        guard let op = accept("??") else { return left }
        let right = try nested(at: op.span) { try $0.parseCoalescing() }
        return .binary(op: "??", left, right, opSpan: op.span, left.span.to(right.span))
    }

    /// `0..<n`, `1...n`: between additive and `??`, as in Swift.
    mutating func parseRange() throws -> Expr {
        let left = try parseAdditive()
        guard let op = accept("..<") ?? accept("...") else { return left }
        let right = try parseAdditive()
        if check("..<") || check("...") { throw fail("ranges cannot be chained", at: peek().span) }
        return .binary(op: file.text(of: op.span), left, right, opSpan: op.span, left.span.to(right.span))
    }

    mutating func parseAdditive() throws -> Expr {
        try parseLeftAssociative(["+", "-"]) { try $0.parseMultiplicative() }
    }

    mutating func parseMultiplicative() throws -> Expr {
        try parseLeftAssociative(["*", "/", "%"]) { try $0.parsePrefix() }
    }

    mutating func parseLeftAssociative(_ ops: [String], _ operand: (inout Parser) throws -> Expr) throws -> Expr {
        var left = try operand(&self)
        while case .symbol(let op) = peek().kind, ops.contains(op) {
            let opSpan = advance().span
            let right = try operand(&self)
            left = .binary(op: op, left, right, opSpan: opSpan, left.span.to(right.span))
        }
        return left
    }

    mutating func parsePrefix() throws -> Expr {
        // `try`, `try?` and `try!`: errors travel as stream errors in flow
        // and stop a statement, so Swift's markers are read and dropped.
        if case .identifier("try") = peek().kind, !tokens[index + 1].kind.isNewline,
           !["=", ".", ")", ",", "]", "}", ":"].contains(where: { tokens[index + 1].isSymbol($0) }) {
            // `try` and `try!` mark a call that may throw, which stops the
            // statement either way; `try?` makes a thrown error nil.
            let marker = advance()
            let optional = accept("?") != nil
            if !optional, check("!") { advance() }
            let inner = try nested(at: marker.span) { try $0.parsePrefix() }
            return optional ? .attempt(inner, marker.span.to(inner.span)) : inner
        }
        // `&x` passes a variable for a function to change (`store(in: &bag)`,
        // a func's `inout` parameter).
        if check("&") {
            let amp = advance()
            let operand = try nested(at: amp.span) { try $0.parsePrefix() }
            return .inoutArgument(operand, amp.span.to(operand.span))
        }
        if check("-"), isOperatorReference(offset: 1) { return try parsePostfix() }
        if case .symbol(let op) = peek().kind, op == "-" || op == "!" {
            let opToken = advance()
            let operand = try nested(at: opToken.span) { try $0.parsePrefix() }
            if op == "-", case .literal(let v, let span) = operand {
                switch v {
                case .int(let i): return .literal(.int(-i), opToken.span.to(span))
                case .double(let d): return .literal(.double(-d), opToken.span.to(span))
                case .duration(let t): return .literal(.duration(TimeSpan(nanoseconds: -t.nanoseconds)), opToken.span.to(span))
                default: break
                }
            }
            return .unary(op: op, operand, opToken.span.to(operand.span))
        }
        return try parsePostfix()
    }

    /// `\.name.other` or `\Type.name`: Swift's key path. The type's name
    /// only documents what the path applies to; values are dynamic.
    mutating func parseKeyPath() throws -> Expr {
        let slash = advance()
        var end = slash.span
        if case .identifier(let type) = peek().kind, peek().span.start == slash.span.end {
            end = advance().span
            skipGenericArguments(after: type)
        }
        var path: [String] = []
        while check("."), peek().span.start == end.end {
            let dot = advance()
            let nameToken = advance()
            guard let name = nameToken.labelText, nameToken.span.start == dot.span.end else {
                throw fail("expected a member name right after '.' in a key path, as in \\.name", at: nameToken.span)
            }
            path.append(name)
            end = nameToken.span
        }
        guard !path.isEmpty else {
            throw fail("expected a key path, as in \\.name or \\User.name", at: slash.span)
        }
        return .keyPath(path, slash.span.to(end))
    }

    mutating func parsePostfix() throws -> Expr {
        var expr = try parsePrimary()
        switch expr {
        case .conditional, .switchOver: return expr
        default: break
        }
        var chained = 0
        // A `?.` in the chain: the whole chain is nil when that part is.
        var isOptionalChain = false
        while true {
            let token = peek()
            chained += 1
            if chained > Self.maximumChain || StackSpace.remaining() < Self.stackReserve {
                reported.appendCapped(Diagnostic("expression too long: more than \(Self.maximumChain) calls and members chained", in: file,
                                              at: token.span, help: "split the chain with let bindings"))
                throw Abort()
            }
            // Written against the value before it, as Swift requires:
            // `x?.y` and `x!`, not the `?` of `c ? a : b` or a prefix `!`.
            let touchesValue = token.span.start == expr.span.end
            if touchesValue, token.isSymbol("?"), tokens[index + 1].isSymbol("."), tokens[index + 1].span.start == token.span.end {
                advance()
                expr = .optionalBind(expr, expr.span.to(token.span))
                isOptionalChain = true
                continue
            }
            if touchesValue, token.isSymbol("!") {
                advance()
                expr = .forceUnwrap(expr, expr.span.to(token.span))
                continue
            }
            if token.isSymbol(".") {
                advance()
                let nameToken = advance()
                switch nameToken.kind {
                case .identifier(let name): expr = .member(expr, name, nameSpan: nameToken.span, expr.span.to(nameToken.span))
                case .keyword(let k): expr = .member(expr, k.rawValue, nameSpan: nameToken.span, expr.span.to(nameToken.span))
                case .integer(let i): expr = .member(expr, String(i), nameSpan: nameToken.span, expr.span.to(nameToken.span))
                default: throw fail("expected a member name after '.'", at: nameToken.span)
                }
            } else if case .identifier(let word) = token.kind, word == "as" || word == "is" {
                // `x as Int` leaves the value as it is (values are dynamic);
                // `x is T`, `x as? T` and `x as! T` test its type.
                advance()
                var check = TypeCheck.test
                if word == "as" {
                    if accept("?") != nil { check = .conditional } else if accept("!") != nil { check = .forced } else {
                        guard skipType() else { throw fail("expected a type after 'as'", at: peek().span) }
                        continue
                    }
                }
                let typeStart = peek().span.start
                guard skipType() else { throw fail("expected a type after '\(word)'", at: peek().span) }
                let typeSpan = Span(typeStart, tokens[index - 1].span.end)
                expr = .typeCheck(expr, check, type: file.text(of: typeSpan), typeSpan: typeSpan, expr.span.to(typeSpan))
            } else if token.isSymbol("(") && onSameLine(token), Self.isCollectionType(expr), tokens[index + 1].isSymbol(")") {
                // `[Int]()`, `[String: Int]()`: an empty collection.
                advance()
                let close = advance()
                if case .dictionary(_, let span) = expr {
                    expr = .dictionary([], span.to(close.span))
                } else {
                    expr = .array([], expr.span.to(close.span))
                }
            } else if token.isSymbol("(") && onSameLine(token) {
                // `[Int](repeating: 0, count: 3)`: Array's initialiser.
                if Self.isCollectionType(expr), case .array = expr { expr = .name("Array", expr.span) }
                let open = advance()
                var arguments = try bracketed(open) { parser in
                    try parser.withNewlines(significant: false) { try $0.parseArguments(closing: ")") }
                }
                let close = try withNewlines(significant: false) { try $0.close(")", opened: open, "call") }
                var span = expr.span.to(close.span)
                if let trailing = try parseTrailingClosure() {
                    arguments.append(trailing)
                    span = span.to(trailing.value.span)
                }
                expr = .call(callee: expr, arguments: arguments, span)
            } else if token.isSymbol("[") && onSameLine(token) {
                let open = advance()
                let index = try bracketed(open) { parser in
                    try parser.withNewlines(significant: false) { p in
                        let key = try p.parseExpression()
                        // `counts[word, default: 0]`
                        guard p.check(","), p.peek(offset: 1).labelText == "default", p.peek(offset: 2).isSymbol(":") else { return key }
                        p.advance(); p.advance(); p.advance()
                        let fallback = try p.parseExpression()
                        return .tuple([key, fallback], labels: [nil, "default"], key.span.to(fallback.span))
                    }
                }
                let close = try withNewlines(significant: false) { try $0.close("]", opened: open, "subscript") }
                expr = .subscriptAccess(expr, index, expr.span.to(close.span))
            } else if let trailing = try parseTrailingClosure() {
                expr = .call(callee: expr, arguments: [trailing], expr.span.to(trailing.value.span))
            } else {
                return isOptionalChain ? .optionalChain(expr, expr.span) : expr
            }
        }
    }

    static let referableOperators: Set<String> = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]

    /// An operator alone as an argument: a `)` or `,` follows it.
    mutating func isOperatorReference(offset: Int) -> Bool {
        let next = peek(offset: offset)
        return next.isSymbol(")") || next.isSymbol(",")
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

    /// Whether an array or dictionary literal names a collection type
    /// (`[Int]`, `[String: [Int]]`), as before `()` in Swift.
    private static func isCollectionType(_ expr: Expr) -> Bool {
        func isType(_ expr: Expr) -> Bool {
            switch expr {
            case .name(let name, _): return name.isCapitalised
            case .member(let base, _, _, _): return isType(base)
            default: return isCollectionType(expr)
            }
        }
        switch expr {
        case .array(let elements, _): return elements.count == 1 && isType(elements[0])
        case .dictionary(let pairs, _): return pairs.count == 1 && isType(pairs[0].key) && isType(pairs[0].value)
        default: return false
        }
    }

    /// Skips a Swift type (`Int`, `[String: Int]?`, `(Int, Int) -> Bool`,
    /// `AnyPublisher<Int, Never>`, `inout Int`): flow's values are dynamic,
    /// so annotations are read and dropped. False, with nothing consumed,
    /// when no type starts here.
    mutating func skipType() -> Bool {
        let start = index
        if skipTypeBody() { return true }
        index = start
        return false
    }

    mutating func skipTypeBody() -> Bool {
        if case .identifier(let word) = peek().kind, ["inout", "some", "any", "escaping"].contains(word),
           !tokens[index + 1].kind.isNewline, !tokens[index + 1].isSymbol(",") {
            advance()
        }
        switch peek().kind {
        case .identifier:
            advance()
            guard skipTypeArguments() else { return false }
            while check("."), case .identifier = tokens[index + 1].kind {
                advance()
                advance()
                guard skipTypeArguments() else { return false }
            }
        case .keyword(.nil):
            return false
        case .symbol("["):
            advance()
            guard skipTypeBody() else { return false }
            if accept(":") != nil, !skipTypeBody() { return false }
            guard accept("]") != nil else { return false }
        case .symbol("("):
            advance()
            if accept(")") == nil {
                repeat {
                    // A labelled element (`(value: Int, time: Double)`).
                    if peek().labelText != nil, tokens[index + 1].isSymbol(":") {
                        advance()
                        advance()
                    }
                    guard skipTypeBody() else { return false }
                } while accept(",") != nil
                guard accept(")") != nil else { return false }
            }
        default:
            return false
        }
        while check("?") || check("!") { advance() }
        if case .identifier("throws") = peek().kind { advance() }
        if accept("->") != nil { return skipTypeBody() }
        return true
    }

    /// `<Int, Never>` after a type's name, if there.
    mutating func skipTypeArguments() -> Bool {
        guard accept("<") != nil else { return true }
        repeat {
            guard skipTypeBody() else { return false }
        } while accept(",") != nil
        return accept(">") != nil
    }

    /// Skips `<Int>` in `PublishSubject<Int>()`, `Observable<[String]>.just` or `Future<Int, Never> { }`:
    /// flow is dynamically typed, and Swift code names types everywhere. Only
    /// after a capitalised name, and only when what follows the `>` is `(`,
    /// `.` or a trailing closure, so `a < b` is never read as one.
    mutating func skipGenericArguments(after name: String) {
        guard name.isCapitalised, tokens[index].isSymbol("<") else { return }
        let start = index
        // `Future<Int, Never> { promise in ... }`: a trailing closure too.
        guard skipTypeArguments(), check("(") || check(".") || (check("{") && !noTrailingClosure && onSameLine(peek())) else {
            index = start
            return
        }
    }

    /// A `(`, `[` or `{` continues the expression only on the same line:
    /// otherwise it starts a new statement.
    func onSameLine(_ token: Token) -> Bool {
        index == 0 || !tokens[index - 1].kind.isNewline
    }

    mutating func parseTrailingClosure() throws -> CallArgument? {
        guard !noTrailingClosure, check("{"), onSameLine(peek()) else { return nil }
        let closure = try parseClosure()
        return CallArgument(label: nil, labelSpan: nil, value: closure, isTrailing: true)
    }

    mutating func parseArguments(closing: String) throws -> [CallArgument] {
        var arguments: [CallArgument] = []
        while !check(closing) {
            var label: String?
            var labelSpan: Span?
            // Swift allows keywords as labels: `store(in:)`.
            if peek(offset: 1).isSymbol(":"), let name = peek().labelText {
                labelSpan = advance().span
                label = name
                advance()
            }
            arguments.append(CallArgument(label: label, labelSpan: labelSpan, value: try parseExpression(), isTrailing: false))
            if accept(",") == nil { break }
        }
        return arguments
    }

    mutating func parsePrimary() throws -> Expr {
        let token = peek()
        switch token.kind {
        case .integer(let i): advance(); return .literal(.int(i), token.span)
        case .double(let d): advance(); return .literal(.double(d), token.span)
        case .duration(let t): advance(); return .literal(.duration(t), token.span)
        case .keyword(.true): advance(); return .literal(.bool(true), token.span)
        case .keyword(.false): advance(); return .literal(.bool(false), token.span)
        case .keyword(.nil): advance(); return .literal(.null, token.span)
        case .string(let segments): advance(); return try parseString(segments, token.span)
        case .identifier("if"): return try parseIf()
        case .identifier("switch"): return try parseSwitch()
        case .identifier("await") where tokens[index + 1].kind.isIdentifier:
            // `await load()`: one error that names it, not an unknown name.
            throw fail("flow has no async/await", at: token.span,
                       help: "a value that arrives later is a stream: subscribe to it (sink, subscribe) or use its operators")
        case .identifier(let name):
            advance()
            skipGenericArguments(after: name)
            return .name(name, token.span)
        case .symbol("."):
            // `.seconds(1)`, `.finished`: a member of the type the context
            // expects, as in Swift.
            let dot = advance()
            let nameToken = advance()
            guard let name = nameToken.labelText, nameToken.span.start == dot.span.end else {
                throw fail("expected a name right after '.', as in .seconds(1)", at: nameToken.span)
            }
            return .implicitMember(name, dot.span.to(nameToken.span))
        case .symbol("\\"): return try parseKeyPath()
        case .shorthand(let n): advance(); return .shorthand(n, token.span)
        case .symbol("("): return try parseParenthesized()
        case .symbol("["): return try parseCollection()
        case .symbol("{"): return try parseClosure()
        case .end:
            if let open = openers.last, case .symbol(let symbol) = open.kind {
                let closing = ["(": ")", "[": "]", "{": "}"][symbol] ?? ""
                throw fail("'\(symbol)' is never closed", at: open.span, help: "add '\(closing)' where it ends")
            }
            throw fail("expected an expression, but the file ends here", at: token.span)
        case .newline:
            throw fail("expected an expression", at: token.span)
        case .keyword(let k):
            throw fail("'\(k.rawValue)' cannot be used as an expression here", at: token.span,
                       help: k == .let ? "a 'let' must start its own line" : nil)
        case .symbol(let s) where Self.referableOperators.contains(s) && isOperatorReference(offset: 1):
            // `reduce(0, +)`: an operator passed as a function, as in Swift.
            advance()
            let body = Expr.binary(op: s, .shorthand(0, token.span), .shorthand(1, token.span), opSpan: token.span, token.span)
            return .closure(Closure(parameters: nil, body: [.expression(body)], span: token.span))
        case .symbol(let s):
            throw fail("expected an expression, found '\(s)'", at: token.span)
        }
    }

    mutating func parseString(_ segments: [StringSegment], _ span: Span) throws -> Expr {
        var parts: [StringPart] = []
        for segment in segments {
            switch segment {
            case .text(let text): parts.append(.text(text))
            case .interpolation(let range):
                var sub = Parser(file: file, range: range.start..<range.end)
                sub.nesting = nesting
                // Its problems are this parser's, however it ends: nested too
                // deeply, it throws, and its report must not be lost with it.
                let parsed = Result { try sub.parseExpression() }
                for diagnostic in sub.diagnostics { reported.appendCapped(diagnostic) }
                let expr = try parsed.get()
                let trailing = sub.peek()
                if !trailing.kind.isEnd {
                    throw fail("unexpected text in the interpolation", at: trailing.span)
                }
                parts.append(.interpolation(expr))
            }
        }
        if parts.allSatisfy({ if case .text = $0 { true } else { false } }) {
            return .literal(.string(parts.map { if case .text(let t) = $0 { t } else { "" } }.joined()), span)
        }
        return .string(parts, span)
    }

    mutating func parseParenthesized() throws -> Expr {
        let open = advance()
        return try bracketed(open) { parser in
            try parser.withNewlines(significant: false) { p in
                var elements: [Expr] = []
                var labels: [String?] = []
                while !p.check(")") {
                    var label: String?
                    if case .identifier(let name) = p.peek().kind, p.peek(offset: 1).isSymbol(":") {
                        label = name
                        p.advance()
                        p.advance()
                    }
                    labels.append(label)
                    elements.append(try p.parseExpression())
                    if p.accept(",") == nil { break }
                }
                let close = try p.close(")", opened: open, "parenthesis")
                let span = open.span.to(close.span)
                if elements.count == 1 && labels[0] == nil { return elements[0] }
                return .tuple(elements, labels: labels, span)
            }
        }
    }

    mutating func parseCollection() throws -> Expr {
        let open = advance()
        return try bracketed(open) { parser in
            try parser.withNewlines(significant: false) { p in
                if p.accept(":") != nil {
                    let close = try p.expect("]", "']' after '[:'")
                    return .dictionary([], open.span.to(close.span))
                }
                var elements: [Expr] = []
                var pairs: [(key: Expr, value: Expr)] = []
                var isDictionary: Bool?
                while !p.check("]") {
                    let element = try p.parseExpression()
                    if p.accept(":") != nil {
                        if isDictionary == false { throw p.fail("a dictionary entry in an array", at: element.span) }
                        isDictionary = true
                        pairs.append((element, try p.parseExpression()))
                    } else {
                        if isDictionary == true {
                            throw p.fail("expected ':' and a value for this dictionary key", at: p.peek().span)
                        }
                        isDictionary = false
                        elements.append(element)
                    }
                    if p.accept(",") == nil { break }
                }
                let close = try p.close("]", opened: open, isDictionary == true ? "dictionary" : "array")
                let span = open.span.to(close.span)
                return isDictionary == true ? .dictionary(pairs, span) : .array(elements, span)
            }
        }
    }

    mutating func parseClosure() throws -> Expr {
        let open = advance()
        return try bracketed(open) { parser in
            try parser.withNewlines(significant: true) { parser in
                try parser.inFunctionBody { p in
                    let (parameters, weakSelf) = p.parseClosureParameters()
                    let body = try p.parseStatements(context: .closure)
                    let close = try p.close("}", opened: open, "closure")
                    return .closure(Closure(parameters: parameters, body: body, span: open.span.to(close.span), capturesSelfWeakly: weakSelf))
                }
            }
        }
    }

    /// The body of a closure, a func or a computed property: `return` is
    /// allowed, and the loops and switches around it do not enclose it.
    mutating func inFunctionBody<T>(_ body: (inout Parser) throws -> T) rethrows -> T {
        let saved = (returnAllowed, loopDepth, switchDepth)
        (returnAllowed, loopDepth, switchDepth) = (true, 0, 0)
        defer { (returnAllowed, loopDepth, switchDepth) = saved }
        return try body(&self)
    }

    /// `x in`, `a, b in`, `(a, b) in` or `_ in`, as Swift also writes them:
    /// with types (`(a: Int, b: Int) -> Bool in`, `v -> String in`) and a
    /// capture list (`[weak self] v in`), of which only a weak `self`
    /// matters. Consumed if present.
    mutating func parseClosureParameters() -> (parameters: [(name: String, span: Span)]?, capturesSelfWeakly: Bool) {
        let start = index
        // The signature may sit on the line after `{`.
        while peek().kind.isNewline { advance() }
        let (captures, weakSelf) = readCaptureList()
        var names: [(String, Span)] = []
        let parenthesized = accept("(") != nil
        while case .identifier(let name) = peek().kind {
            names.append((name, advance().span))
            if parenthesized, accept(":") != nil, !skipType() { index = start; return (nil, false) }
            if accept(",") == nil { break }
        }
        if parenthesized && accept(")") == nil { index = start; return (nil, false) }
        if accept("->") != nil, !skipType() { index = start; return (nil, false) }
        if case .identifier("throws") = peek().kind { advance() }
        if !names.isEmpty || parenthesized || captures, peek().isKeyword(.in) {
            advance()
            return (names, weakSelf)
        }
        index = start
        return (nil, false)
    }

    /// `[weak self]`, `[unowned self, x]`: whether there was one, and
    /// whether it holds `self` weakly. Other names capture the values they
    /// hold, as flow's closures do anyway.
    mutating func readCaptureList() -> (found: Bool, weakSelf: Bool) {
        guard check("[") else { return (false, false) }
        let start = index
        var weakSelf = false
        advance()
        repeat {
            var isWeak = false
            if case .identifier(let word) = peek().kind, word == "weak" || word == "unowned" {
                advance()
                isWeak = true
                if check("("), case .identifier = tokens[index + 1].kind, tokens[index + 2].isSymbol(")") {
                    advance(); advance(); advance()
                }
            }
            guard case .identifier(let name) = peek().kind else { index = start; return (false, false) }
            if isWeak && name == "self" { weakSelf = true }
            advance()
        } while accept(",") != nil
        guard accept("]") != nil else { index = start; return (false, false) }
        return (true, weakSelf)
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
            var points = 1
            if i + 6 < tokens.count, tokens[i + 2].isSymbol("("), tokens[i + 3].labelText == "points", tokens[i + 4].isSymbol(":"),
               case .integer(let n) = tokens[i + 5].kind, tokens[i + 6].isSymbol(")") {
                points = n
            }
            tests.append((name, token.span.start, points))
        }
        return tests
    }
}

/// The parser's tokens, lexed as the parser reaches them and released once
/// a top-level statement is parsed: a long script never holds all its
/// tokens at once. Indices are the token's place in the whole file; past
/// the end, every index reads the end token.
final class TokenBuffer {
    // Read at every token the parser looks at, by the one parser that owns
    // it: without Swift's dynamic exclusivity checks, as in the runtime.
    @exclusivity(unchecked) private var lexer: Lexer
    @exclusivity(unchecked) private var tokens: [Token] = []
    /// The index of `tokens[0]` in the whole file.
    @exclusivity(unchecked) private var base = 0
    @exclusivity(unchecked) private var ended = false
    /// No token yet, or the last one kept is a line break.
    @exclusivity(unchecked) private var atLineStart = true

    init(_ lexer: Lexer) {
        self.lexer = lexer
        tokens.reserveCapacity(64)
    }

    var lexerDiagnostics: [Diagnostic] { lexer.diagnostics }

    subscript(i: Int) -> Token {
        get {
            // Most reads are of a token already lexed.
            if i - base < tokens.count { return tokens[i - base] }
            fill(through: i)
            return i - base < tokens.count ? tokens[i - base] : tokens[tokens.count - 1]
        }
        set {
            fill(through: i)
            if i - base < tokens.count { tokens[i - base] = newValue }
        }
    }

    private func fill(through i: Int) {
        while !ended, base + tokens.count <= i {
            let token = lexer.nextToken()
            // Blank lines and leading line breaks are one line break or none.
            if token.kind.isNewline, atLineStart { continue }
            atLineStart = token.kind.isNewline
            tokens.append(token)
            if token.kind.isEnd { ended = true }
        }
    }

    /// Forgets the tokens before `i`.
    func release(before i: Int) {
        let count = Swift.min(i - base, tokens.count - 1)
        guard count > 0 else { return }
        tokens.removeFirst(count)
        base += count
    }
}
