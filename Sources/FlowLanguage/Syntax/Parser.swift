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
    /// Statements parsed along with the last one, to be handed out next
    /// (`var a = 0, b = 0` is two bindings).
    var pendingStatements: [Statement] = []
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

    /// Where a name is expected and `token` is not one; a keyword there is
    /// one Swift allows only in backticks.
    func expectedName(_ message: String, at token: Token) -> Failure {
        guard case .keyword(let keyword) = token.kind else { return fail(message, at: token.span) }
        return fail("'\(keyword.rawValue)' is a keyword, not a name", at: token.span,
                    help: "to use it as a name, write it in backticks: `\(keyword.rawValue)`")
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
}
