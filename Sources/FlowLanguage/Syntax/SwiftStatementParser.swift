import FlowRuntime

/// Swift's statements and declarations: `var`, `if`, `guard`, `switch`,
/// loops, `func`, `struct` and `enum` (see grammar.md).
extension Parser {
    /// A contextual word (`mutating`, `get`): a name the parser reads as a
    /// word where it stands. Keywords are tokens (`isKeyword`).
    mutating func isWord(_ word: String) -> Bool {
        if case .identifier(let w) = peek().kind { return w == word }
        return false
    }

    mutating func isKeyword(_ keyword: Keyword) -> Bool { peek().isKeyword(keyword) }

    private func isKeyword(_ keyword: Keyword, at position: Int) -> Bool { tokens[position].isKeyword(keyword) }

    private func isWord(_ word: String, at position: Int) -> Bool {
        if case .identifier(let w) = tokens[position].kind { return w == word }
        return false
    }

    /// Access modifiers and attributes that change nothing in a script
    /// (`private`, `public`, `final`, `@discardableResult`).
    /// The few modifiers that matter to a class's property.
    struct PropertyModifiers: OptionSet {
        let rawValue: UInt8
        static let lazy = PropertyModifiers(rawValue: 1)
        /// `weak` or `unowned`.
        static let weak = PropertyModifiers(rawValue: 2)
        /// `@discardableResult`, which a func's calls heed.
        static let discardableResult = PropertyModifiers(rawValue: 4)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ word: String) {
            switch word {
            case "lazy": self = .lazy
            case "weak", "unowned": self = .weak
            default: self = []
            }
        }
    }

    /// Skips modifiers and attributes; returns those of a class's property.
    @discardableResult
    mutating func skipModifiers() -> PropertyModifiers {
        var skipped: PropertyModifiers = []
        while true {
            let token = peek()
            if token.isSymbol("@"), let name = tokens[index + 1].labelText, Self.ignoredAttributes.contains(name) {
                advance()
                advance()
                if name == "discardableResult" { skipped.insert(.discardableResult) }
                // `@available(iOS 15, *)`: its arguments too.
                if check("("), peek().span.start == tokens[index - 1].span.end {
                    var depth = 0
                    repeat {
                        if check("(") { depth += 1 }
                        if check(")") { depth -= 1 }
                        advance()
                    } while depth > 0 && !peek().kind.isEnd
                }
                // An attribute on a line of its own applies to the next one.
                while peek().kind.isNewline { advance() }
                continue
            }
            guard case .identifier(let word) = token.kind, Self.ignoredModifiers.contains(word) else { return skipped }
            let next = tokens[index + 1]
            if next.isSymbol("("), tokens[index + 3].isSymbol(")") {
                // `private(set)`, `unowned(unsafe)`
                advance(); advance(); advance(); advance()
                skipped.formUnion(PropertyModifiers(word))
                continue
            }
            guard next.labelText != nil || next.isSymbol("@") else { return skipped }
            skipped.formUnion(PropertyModifiers(word))
            advance()
        }
    }

    private static let ignoredModifiers: Set<String> = [
        "private", "fileprivate", "public", "internal", "open", "final", "lazy", "nonisolated", "indirect", "override",
        "convenience", "required", "weak", "unowned",
    ]
    private static let ignoredAttributes: Set<String> = [
        "discardableResult", "MainActor", "inlinable", "objc", "Sendable", "escaping", "available", "usableFromInline", "frozen",
        "autoclosure", "preconcurrency",
    ]

    // MARK: - Bindings

    /// `let x = e`, `var x = e`, `var x: Int`, `let (a, b) = pair`, `let _ = e`,
    /// and several at once (`var first = 0, second = 0`): the others wait
    /// in `pendingStatements`, in order.
    mutating func parseBinding(context: Context) throws -> Statement {
        let first = advance()
        let word = first.isKeyword(.let) ? "let" : "var"
        let isVariable = word == "var"
        let binding = try parseOneBinding(first, word: word, context: context)
        guard case .binding = binding else { return binding }
        while accept(",") != nil {
            pendingStatements.append(try parseOneBinding(first, word: word, context: context))
        }
        return binding
    }

    private mutating func parseOneBinding(_ first: Token, word: String, context: Context) throws -> Statement {
        let isVariable = word == "var"
        if check("(") || isWord("_") {
            let pattern = try parsePattern(binding: true)
            if let colon = accept(":"), !skipType() {
                throw fail("expected a type after ':'", at: peek().kind.isNewline ? colon.span : peek().span)
            }
            _ = try expect("=", "'=' after the pattern")
            let value = try parseExpression()
            return .destructuring(pattern, value: value, isVariable: isVariable, first.span.to(value.span))
        }
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.kind else {
            throw expectedName("expected a name after '\(word)'", at: nameToken)
        }
        do {
            // `let x: Double = 1`: the annotation is the value's type.
            var type: TypeText?
            if let colon = accept(":") {
                guard let written = parseTypeText() else {
                    throw fail("expected a type after ':'", at: peek().kind.isNewline ? colon.span : peek().span)
                }
                type = written
            }
            let typed = type != nil
            if bracesHoldObservers(at: index) { throw observedVariable() }
            if isVariable, typed, !check("=") {
                if check("{") {
                    throw fail("computed properties can only be declared in a struct or enum", at: peek().span,
                               help: "use a func, as in func \(name)() -> T { ... }")
                }
                // `var x: Int?`: nil until it is assigned, as in Swift.
                return .binding(name: name, nameSpan: nameToken.span, type: type, value: nil, isVariable: true, first.span.to(nameToken.span))
            }
            _ = try expect("=", "'=' after '\(word) \(name)'", help: isVariable ? "give it a first value, as in var \(name) = 0" : nil)
            let value = try parseExpression()
            if bracesHoldObservers(at: index) { throw observedVariable() }
            return .binding(name: name, nameSpan: nameToken.span, type: type, value: value, isVariable: isVariable, first.span.to(value.span))
        } catch {
            if context == .topLevel { brokenBindings.append((name, nameToken.span)) }
            throw error
        }
    }

    /// `var level = 1 { didSet { } }` outside a type, at the observers' braces.
    private mutating func observedVariable() -> Failure {
        fail("flow runs willSet and didSet on the properties of a type, not on a variable", at: peek().span,
             help: "keep the value in a property of a class or struct, with these observers, or call a func after each change")
    }

    // MARK: - Statements

    /// A statement that starts with one of Swift's words, or nil.
    mutating func parseSwiftStatement(context: Context) throws -> Statement? {
        let next = tokens[index + 1]
        switch peek().kind {
        case .keyword(let keyword): return try parseStatement(startingWith: keyword, next: next)
        case .identifier(let word): return try parseStatement(startingWith: word, next: next)
        default: return nil
        }
    }

    private mutating func parseStatement(startingWith keyword: Keyword, next: Token) throws -> Statement? {
        switch keyword {
        case .guard: return try parseGuard()
        case .while: return try parseWhile()
        case .for: return try parseFor()
        case .break, .continue: return try parseJump(keyword.rawValue)
        case .throw where !next.kind.isNewline:
            let throwToken = advance()
            let value = try parseExpression()
            return .throw(value, throwToken.span.to(value.span))
        case .typealias: return try parseTypeAlias()
        case .func, .static: return try parseTopLevelFunction()
        case .struct, .enum, .extension, .class:
            guard case .identifier = next.kind else { return nil }
            return .type(try parseTypeDeclaration())
        case .protocol:
            guard case .identifier = next.kind else { return nil }
            return .type(try parseProtocol())
        default:
            return nil
        }
    }

    /// A statement that starts with one of Swift's contextual words, which
    /// are names anywhere else: `repeat {` (and `repeat(2)`, the operator),
    /// `do {` (and `do(onNext:)`), `mutating func`.
    private mutating func parseStatement(startingWith word: String, next: Token) throws -> Statement? {
        // The word used as a name (`repeat.x`, `do(onNext:)`).
        if next.isSymbol("=") || next.isSymbol(".") || next.isSymbol(",") || next.isSymbol(")") { return nil }
        // Two names side by side (`fucn rate(...)`, `swich x {`): the first
        // is a keyword misspelled.
        if next.labelText != nil, !Self.statementKeywords.contains(word),
           let help = Suggestions.didYouMean(word, among: Self.statementKeywords) {
            throw fail("'\(word)' is not a keyword", at: peek().span, help: help)
        }
        switch word {
        case "repeat" where next.isSymbol("{"): return try parseRepeat()
        case "do" where next.isSymbol("{"): return try parseDoCatch()
        case "mutating": return try parseTopLevelFunction()
        default: return nil
        }
    }

    /// `func f()`, and `static func` or `mutating func` where only a type's
    /// func may be either.
    private mutating func parseTopLevelFunction() throws -> Statement {
        let start = peek()
        var isMutating = false, isStatic = false
        while isWord("mutating") || isKeyword(.static) {
            if isWord("mutating") { isMutating = true } else { isStatic = true }
            advance()
        }
        if !isKeyword(.func) || isMutating || isStatic {
            let word = isMutating ? "mutating" : "static"
            throw fail("'\(word)' can only be used on a func of a struct or enum", at: start.span)
        }
        return .function(try parseFunction(isMutating: false, isStatic: false))
    }

    static let statementKeywords = [
        "func", "var", "let", "if", "guard", "switch", "for", "while", "repeat", "struct", "enum", "class", "return", "break", "continue",
        "mutating", "static", "do", "catch", "throw",
    ]

    /// `{ statements }`: the body of an `if`, a loop or a func.
    mutating func parseBlock(_ what: String) throws -> (body: [Statement], close: Token) {
        guard check("{") else {
            throw fail("expected '{' to start the \(what)", at: peek().span)
        }
        let open = advance()
        let body = try bracketed(open) { parser in
            try parser.withNewlines(significant: true) { try $0.parseStatements(context: .block) }
        }
        let close = try close("}", opened: open, what)
        return (body, close)
    }

    private mutating func parseLoopBody(_ what: String) throws -> (body: [Statement], close: Token) {
        loopDepth += 1
        defer { loopDepth -= 1 }
        return try parseBlock(what)
    }

    /// The conditions of `if`, `guard` and `while`, separated by commas.
    mutating func parseConditions(of what: String) throws -> [Condition] {
        let trailingClosures = noTrailingClosure
        noTrailingClosure = true
        defer { noTrailingClosure = trailingClosures }
        var conditions: [Condition] = []
        repeat {
            while peek().kind.isNewline { advance() }
            if peek().isKeyword(.let) || isKeyword(.var) {
                let binder = advance()
                let nameToken = advance()
                guard case .identifier(let name) = nameToken.kind, name != "_" else {
                    throw expectedName("expected a name after '\(binder.isKeyword(.let) ? "let" : "var")'", at: nameToken)
                }
                if accept(":") != nil, !skipType() { throw fail("expected a type after ':'", at: peek().span) }
                // `if let x` is short for `if let x = x`.
                let value = accept("=") != nil ? try parseExpression() : .name(name, nameToken.span)
                conditions.append(.optionalBinding(name: name, nameSpan: nameToken.span, value: value, isVariable: !binder.isKeyword(.let)))
            } else if isKeyword(.case) {
                advance()
                let pattern = try parsePattern(binding: false)
                _ = try expect("=", "'=' and the value to match after the pattern", help: "as in if case .loaded(let v) = state { ... }")
                conditions.append(.matching(pattern, try parseExpression()))
            } else {
                if check("{") { throw fail("expected a condition after '\(what)'", at: peek().span) }
                conditions.append(.boolean(try parseExpression()))
            }
        } while accept(",") != nil
        return conditions
    }

    /// `if` as an expression: the value of the branch taken.
    mutating func parseIf() throws -> Expr {
        let ifToken = advance()
        let conditions = try parseConditions(of: "if")
        let (body, close) = try parseBlock("body of the if")
        var elseBody: [Statement]?
        var end = close.span
        if takeFollowing(.else) {
            if isKeyword(.if) {
                let nested = try parseIf()
                elseBody = [.expression(nested)]
                end = nested.span
            } else {
                let (block, close) = try parseBlock("else block")
                elseBody = block
                end = close.span
            }
        }
        return .conditional(IfExpression(conditions: conditions, body: body, elseBody: elseBody, span: ifToken.span.to(end)))
    }

    /// Consumes `word` (the `else` of an `if`, the `while` of a `repeat`)
    /// where it follows, on this line or a later one.
    private mutating func takeFollowing(_ word: Keyword) -> Bool {
        var i = index
        while tokens[i].kind.isNewline { i += 1 }
        guard isKeyword(word, at: i) else { return false }
        index = i + 1
        return true
    }

    private mutating func parseGuard() throws -> Statement {
        let guardToken = advance()
        let conditions = try parseConditions(of: "guard")
        guard isKeyword(.else) else {
            throw fail("expected 'else' after the conditions of guard", at: peek().span, help: "as in guard let v = x else { return }")
        }
        advance()
        let reportedBefore = reported.count
        let (body, close) = try parseBlock("else block of the guard")
        // A statement of the block that did not parse is reported already.
        if reported.count > reportedBefore { return .guard(conditions, else: body, guardToken.span.to(close.span)) }
        guard body.last.map(Self.leavesBlock) == true else {
            throw fail("the else block of a guard must leave: end it with return, break, continue or throw", at: close.span)
        }
        return .guard(conditions, else: body, guardToken.span.to(close.span))
    }

    /// Swift's functions that never return: a call of one ends a block.
    static let neverReturning: Set<String> = ["fatalError", "preconditionFailure", "exit", "abort"]

    /// Whether control never goes past a statement: `return`, `break`,
    /// `continue`, `throw`, or a call of a function that never returns.
    static func leavesBlock(_ statement: Statement) -> Bool {
        switch statement {
        case .return, .break, .continue, .throw: return true
        case .expression(.call(.name(let name, _), _, _)): return neverReturning.contains(name)
        case .expression(.call(.member(.name("Swift", _), let name, _, _), _, _)): return neverReturning.contains(name)
        default: return false
        }
    }

    private mutating func parseWhile() throws -> Statement {
        let whileToken = advance()
        let conditions = try parseConditions(of: "while")
        let (body, close) = try parseLoopBody("body of the while loop")
        return .while(conditions, body: body, whileToken.span.to(close.span))
    }

    /// `: Equatable, Named where T: X`: the names inherited or conformed to
    /// (a type's own arguments and a `where` clause are read and dropped).
    private mutating func parseInheritance(_ what: String) throws -> [String] {
        var inherited: [String] = []
        if accept(":") != nil {
            repeat {
                if case .identifier(let type) = peek().kind { inherited.append(type) }
                guard skipType() else { throw fail("expected \(what) after ':'", at: peek().span) }
            } while accept(",") != nil
        }
        skipWhereClause()
        return inherited
    }

    /// `protocol Named: Other { var name: String { get }; func greet() -> String }`:
    /// its name and what it inherits; the requirements are read and dropped
    /// (values are dynamic), and an `extension` of it gives its conforming
    /// types default members.
    private mutating func parseProtocol() throws -> TypeDeclaration {
        let keyword = advance()
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.kind else { throw expectedName("expected the protocol's name", at: nameToken) }
        let inherited = try parseInheritance("a protocol name")
        guard check("{") else { throw fail("expected '{' and the requirements of \(name)", at: peek().span) }
        let open = advance()
        var depth = 1
        var requirements: [TypeDeclaration.Requirement] = []
        var isStatic = false
        while depth > 0, !peek().kind.isEnd {
            let token = advance()
            if token.isSymbol("{") { depth += 1 }
            if token.isSymbol("}") { depth -= 1 }
            guard depth == 1 else { continue }
            // Only the names are kept: types and signatures are read and dropped.
            switch token.labelText {
            case "static", "class": isStatic = true
            case "func", "var", "let":
                if let member = peek().labelText, member != "_" {
                    requirements.append(.init(name: member, span: peek().span, isStatic: isStatic))
                }
                isStatic = false
            default:
                if token.kind.isNewline || token.isSymbol(";") { isStatic = false }
            }
        }
        guard depth == 0 else { throw fail("expected '}' to close \(name)", at: open.span) }
        let declaration = TypeDeclaration(kind: .protocol, name: name, nameSpan: nameToken.span, rawType: nil, conformances: inherited, stored: [],
                                          staticStored: [], computed: [], methods: [], cases: [], nested: [], span: keyword.span.to(tokens[index - 1].span))
        declaration.requirements = requirements
        return declaration
    }

    /// `do { ... } catch Failure.tooBig(let n) { ... } catch let e as T { ... } catch { ... }`
    private mutating func parseDoCatch() throws -> Statement {
        let doToken = advance()
        let (body, bodyClose) = try parseBlock("body of do")
        var catches: [CatchClause] = []
        var end = bodyClose.span
        while takeFollowing(.catch) {
            let catchToken = tokens[index - 1]
            var pattern: Pattern?
            var type: (name: String, span: Span)?
            if isKeyword(.is) {
                advance()
                type = try catchType()
            } else if !check("{") {
                pattern = try parsePattern(binding: false)
                if isKeyword(.as) {
                    advance()
                    type = try catchType()
                }
            }
            let (catchBody, close) = try parseBlock("body of catch")
            catches.append(CatchClause(pattern: pattern, type: type, body: catchBody, span: catchToken.span.to(close.span)))
            end = close.span
        }
        if catches.isEmpty {
            throw fail("expected 'catch' after the body of do", at: peek().span, help: "as in do { try f() } catch { print(error) }")
        }
        return .doCatch(body: body, catches: catches, doToken.span.to(end))
    }

    private mutating func catchType() throws -> (name: String, span: Span) {
        let start = peek().span.start
        guard skipType() else { throw fail("expected a type", at: peek().span) }
        let span = Span(start, tokens[index - 1].span.end)
        return (file.text(of: span), span)
    }

    private mutating func parseRepeat() throws -> Statement {
        let repeatToken = advance()
        let (body, _) = try parseLoopBody("body of the repeat loop")
        guard takeFollowing(.while) else {
            throw fail("expected 'while' and a condition after the body of repeat", at: peek().span)
        }
        let condition = try parseExpression()
        return .repeat(body: body, condition: condition, repeatToken.span.to(condition.span))
    }

    private mutating func parseFor() throws -> Statement {
        let forToken = advance()
        if isKeyword(.case) {
            throw fail("flow has no 'for case'", at: peek().span, help: "loop over the values and match them with if case or switch")
        }
        let pattern = try parsePattern(binding: true)
        guard peek().isKeyword(.in) else {
            throw fail("expected 'in' after the loop's variable", at: peek().span, help: "as in for x in [1, 2, 3] { ... }")
        }
        advance()
        let trailingClosures = noTrailingClosure
        noTrailingClosure = true
        let sequence = try parseExpression()
        var filter: Expr?
        if isKeyword(.where) {
            advance()
            filter = try parseExpression()
        }
        noTrailingClosure = trailingClosures
        let (body, close) = try parseLoopBody("body of the for loop")
        return .for(pattern, in: sequence, where: filter, body: body, forToken.span.to(close.span))
    }

    private mutating func parseJump(_ word: String) throws -> Statement {
        let token = advance()
        if case .identifier = peek().kind {
            throw fail("flow has no labelled statements", at: peek().span, help: "'\(word)' applies to the innermost loop")
        }
        if word == "continue" {
            guard loopDepth > 0 else { throw fail("'continue' can only be used inside a loop", at: token.span) }
            return .continue(token.span)
        }
        guard loopDepth > 0 || switchDepth > 0 else { throw fail("'break' can only be used inside a loop or a switch", at: token.span) }
        return .break(token.span)
    }

    // MARK: - switch and patterns

    mutating func parseSwitch() throws -> Expr {
        let switchToken = advance()
        let trailingClosures = noTrailingClosure
        noTrailingClosure = true
        let subject = try parseExpression()
        noTrailingClosure = trailingClosures
        guard check("{") else { throw fail("expected '{' and the cases of the switch", at: peek().span) }
        let open = advance()
        var cases: [SwitchExpression.Case] = []
        try bracketed(open) { parser in
            try parser.withNewlines(significant: true) { p in
                p.switchDepth += 1
                defer { p.switchDepth -= 1 }
                while true {
                    while p.peek().kind.isNewline { p.advance() }
                    if p.check("}") || p.peek().kind.isEnd { return }
                    let start = p.peek()
                    if p.check("@"), p.tokens[p.index + 1].labelText == "unknown" { p.advance(); p.advance() }
                    var patterns: [Pattern] = []
                    var guardExpr: Expr?
                    let colon: Token
                    do {
                        if p.isKeyword(.default) {
                            p.advance()
                        } else if p.isKeyword(.case) {
                            p.advance()
                            repeat {
                                while p.peek().kind.isNewline { p.advance() }
                                patterns.append(try p.parsePattern(binding: false))
                            } while p.accept(",") != nil
                            if p.isKeyword(.where) {
                                p.advance()
                                guardExpr = try p.parseExpression()
                            }
                        } else {
                            throw p.fail("expected 'case' or 'default' in the switch", at: start.span)
                        }
                        colon = try p.expect(":", "':' after the case")
                    } catch let failure as Failure {
                        // One error for a case that does not read; the next
                        // cases are read as cases, not as statements.
                        p.reported.appendCapped(failure.diagnostic)
                        p.skipToNextCase()
                        continue
                    }
                    let body = try p.parseStatements(context: .switchCase)
                    if body.isEmpty {
                        throw p.fail("a case needs at least one statement", at: colon.span, help: "write break to do nothing")
                    }
                    cases.append(.init(patterns: patterns, guardExpr: guardExpr, body: body, span: start.span.to(colon.span)))
                }
            }
        }
        let close = try close("}", opened: open, "switch")
        return .switchOver(SwitchExpression(subject: subject, cases: cases, span: switchToken.span.to(close.span)))
    }

    /// Past the rest of a case whose header did not read: to the next
    /// `case` or `default` of the switch, or its closing `}`.
    mutating func skipToNextCase() {
        synchronize()
        while !peek().kind.isEnd {
            while peek().kind.isNewline { advance() }
            if check("}") || isKeyword(.case) || isKeyword(.default) || peek().kind.isEnd { return }
            synchronize()
        }
    }

    /// A pattern of `case`, `for`, `if case` or `let ( )`. With `binding`,
    /// names bind (after `let`); otherwise they are values to compare.
    mutating func parsePattern(binding: Bool) throws -> Pattern {
        let token = peek()
        if case .identifier("_") = token.kind {
            advance()
            return .wildcard(token.span)
        }
        if token.isKeyword(.let) || isKeyword(.var) {
            advance()
            return try parsePattern(binding: true)
        }
        if token.isSymbol("(") {
            let (elements, labels, close) = try parseLabelledList("pattern") { try $0.parsePattern(binding: binding) }
            if elements.count == 1, labels[0] == nil { return elements[0] }
            return .tuple(elements, labels: labels, token.span.to(close.span))
        }
        if token.isSymbol("."), let name = tokens[index + 1].labelText, tokens[index + 1].span.start == token.span.end {
            advance()
            let nameToken = advance()
            return try parseCaseArguments(type: nil, name: name, start: token.span, end: nameToken.span, binding: binding)
        }
        if case .identifier(let typeName) = token.kind, typeName.isCapitalised, tokens[index + 1].isSymbol("."),
           let name = tokens[index + 2].labelText, !tokens[index + 3].isSymbol(".") {
            advance()
            advance()
            let nameToken = advance()
            return try parseCaseArguments(type: typeName, name: name, start: token.span, end: nameToken.span, binding: binding)
        }
        if binding, case .identifier(let name) = token.kind {
            advance()
            if check("?"), peek().span.start == token.span.end {
                let question = advance()
                return .some(.binding(name, token.span), token.span.to(question.span))
            }
            return .binding(name, token.span)
        }
        return .expression(try nested(at: token.span) { try $0.parseCoalescing() })
    }

    /// `(let v)`, `(x: let x, y: _)` after an enum case's name, if there.
    private mutating func parseCaseArguments(type: String?, name: String, start: Span, end: Span, binding: Bool) throws -> Pattern {
        guard check("("), peek().span.start == end.end else {
            return .enumCase(type: type, name: name, arguments: nil, labels: [], start.to(end))
        }
        let inner = try parsePattern(binding: binding)
        let span = start.to(inner.span)
        if case .tuple(let elements, let labels, _) = inner {
            return .enumCase(type: type, name: name, arguments: elements, labels: labels, span)
        }
        return .enumCase(type: type, name: name, arguments: [inner], labels: [nil], span)
    }

    // MARK: - Declarations

    /// Skips `<T: Equatable, U>` after a declared name.
    /// Skips `<T, U: Equatable>`; returns the parameters' names.
    @discardableResult
    private mutating func skipGenericParameters() -> [String] {
        guard check("<") else { return [] }
        var depth = 0
        var names: [String] = []
        repeat {
            if check("<") { depth += 1 } else if check(">") { depth -= 1 }
            advance()
            // A name at the first level, right after `<` or `,`.
            if depth == 1, case .identifier(let name) = peek().kind, tokens[index - 1].isSymbol("<") || tokens[index - 1].isSymbol(",") {
                names.append(name)
            }
        } while depth > 0 && !peek().kind.isEnd && !peek().kind.isNewline
        return names
    }

    /// `typealias Name = Type`, `typealias Pair<T> = (T, T)`.
    mutating func parseTypeAlias() throws -> Statement {
        let keyword = advance()
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.kind else { throw expectedName("expected the alias's name", at: nameToken) }
        let parameters = skipGenericParameters()
        _ = try expect("=", "'=' and the type it names")
        let start = peek().span.start
        guard skipType() else { throw fail("expected a type after '='", at: peek().span) }
        let typeSpan = Span(start, tokens[index - 1].span.end)
        return .typeAlias(name: name, nameSpan: nameToken.span, parameters: parameters, type: file.text(of: typeSpan), keyword.span.to(typeSpan))
    }

    /// Skips a `where T: Equatable` clause before a body.
    private mutating func skipWhereClause() {
        guard isKeyword(.where) else { return }
        while !check("{") && !peek().kind.isNewline && !peek().kind.isEnd { advance() }
    }

    mutating func parseFunction(isMutating: Bool, isStatic: Bool) throws -> FunctionDeclaration {
        let funcToken = advance()
        // `init(...)` and `init?(...)`: named `init`, with no `func`.
        let isInitialiser = funcToken.isKeyword(.`init`)
        var isFailable = false
        if isInitialiser, check("?") || check("!") {
            advance()
            isFailable = true
        }
        let nameToken = isInitialiser ? funcToken : advance()
        guard let name = isInitialiser ? "init" : nameToken.identifier else {
            if case .symbol = nameToken.kind {
                throw fail("flow cannot declare operators", at: nameToken.span, help: "declare a func with a name")
            }
            throw expectedName("expected the function's name after 'func'", at: nameToken)
        }
        let genericParameters = skipGenericParameters()
        guard check("(") else { throw fail("expected '(' and the parameters of \(name)", at: peek().span) }
        let open = advance()
        var parameters: [FunctionParameter] = []
        try bracketed(open) { parser in
            try parser.withNewlines(significant: false) { p in
                while !p.check(")") {
                    parameters.append(try p.parseParameter())
                    if p.accept(",") == nil { break }
                }
            }
        }
        _ = try withNewlines(significant: false) { try $0.close(")", opened: open, "parameter list") }
        while isWord("async") || isKeyword(.throws) || isKeyword(.rethrows) { advance() }
        var resultType: TypeText?
        if let arrow = accept("->") {
            guard let written = parseTypeText() else { throw fail("expected the result type after '->'", at: arrow.span) }
            resultType = written
        }
        skipWhereClause()
        let (body, close) = try inFunctionBody { try $0.parseBlock("body of \(name)") }
        let declaration = FunctionDeclaration(name: name, nameSpan: nameToken.span, parameters: parameters, body: body,
                                              isMutating: isMutating, isStatic: isStatic, isFailable: isFailable, span: funcToken.span.to(close.span))
        declaration.resultType = resultType
        declaration.genericParameters = genericParameters
        declaration.isFunc = !isInitialiser
        return declaration
    }

    /// `label name: Type = default`, `_ name: inout Type`, `name: Type`.
    private mutating func parseParameter() throws -> FunctionParameter {
        let first = advance()
        guard let firstName = first.labelText else { throw fail("expected a parameter name", at: first.span) }
        var label: String? = firstName == "_" ? nil : firstName
        var name = firstName
        var nameSpan = first.span
        if let second = peek().labelText, !check(":") {
            nameSpan = advance().span
            name = second
        } else {
            label = firstName
        }
        guard name != "_" || label == nil else { throw fail("expected a parameter name", at: nameSpan) }
        _ = try expect(":", "':' and the type of parameter '\(name)'")
        while check("@") { advance(); advance() }
        let isInout = isKeyword(.inout)
        guard let type = parseTypeText() else { throw fail("expected the type of parameter '\(name)'", at: peek().span) }
        if let dots = accept("...") {
            throw fail("flow has no variadic parameters", at: dots.span, help: "take an array instead")
        }
        var defaultValue: Expr?
        if accept("=") != nil { defaultValue = try parseExpression() }
        return FunctionParameter(label: label, name: name, nameSpan: nameSpan, defaultValue: defaultValue, isInout: isInout, type: type)
    }

    mutating func parseTypeDeclaration() throws -> TypeDeclaration {
        let keyword = advance()
        let kind: TypeDeclaration.Kind = switch keyword.kind {
        case .keyword(.struct): .struct
        case .keyword(.class): .class
        case .keyword(.extension): .extension
        default: .enum
        }
        let nameToken = advance()
        guard case .identifier(var name) = nameToken.kind else {
            throw expectedName("expected the name of the \(kind.word)", at: nameToken)
        }
        // `extension Cart.Line`: the type a nested name names.
        while kind == .extension, check("."), case .identifier(let inner) = tokens[index + 1].kind {
            advance()
            advance()
            name = inner
        }
        let genericParameters = skipGenericParameters()
        let inherited = try parseInheritance("a type name")
        guard check("{") else { throw fail("expected '{' and the members of \(name)", at: peek().span) }
        let open = advance()
        var members = Members()
        try bracketed(open) { parser in
            try parser.withNewlines(significant: true) { p in
                while true {
                    while p.peek().kind.isNewline { p.advance() }
                    if p.check("}") || p.peek().kind.isEnd { return }
                    do {
                        try p.parseMember(of: kind, named: name, into: &members)
                        let next = p.peek()
                        if !next.kind.isNewline && !next.isSymbol("}") && !next.kind.isEnd {
                            throw p.fail("expected a new line after this member", at: next.span)
                        }
                    } catch let failure as Failure {
                        p.reported.appendCapped(failure.diagnostic)
                        p.synchronize()
                    }
                }
            }
        }
        let close = try close("}", opened: open, kind.word)
        let rawType = kind == .enum ? inherited.first.flatMap { Self.rawValueTypes.contains($0) ? $0 : nil } : nil
        let declaration = TypeDeclaration(kind: kind, name: name, nameSpan: nameToken.span, rawType: rawType, conformances: inherited,
                                          stored: members.stored, staticStored: members.staticStored, computed: members.computed,
                                          methods: members.methods, cases: members.cases, nested: members.nested,
                                          span: keyword.span.to(close.span))
        declaration.initialisers = members.initialisers
        declaration.genericParameters = genericParameters
        declaration.typeAliases = members.typeAliases
        declaration.deinitialiser = members.deinitialiser
        return declaration
    }

    private static let rawValueTypes: Set<String> = ["String", "Int", "Double", "Character", "Float"]

    struct Members {
        var stored: [TypeDeclaration.StoredProperty] = []
        var staticStored: [TypeDeclaration.StoredProperty] = []
        var computed: [TypeDeclaration.ComputedProperty] = []
        var methods: [FunctionDeclaration] = []
        var cases: [TypeDeclaration.EnumCase] = []
        var nested: [TypeDeclaration] = []
        var initialisers: [FunctionDeclaration] = []
        var deinitialiser: [Statement]?
        var typeAliases: [(name: String, parameters: [String], type: String)] = []
    }

    private mutating func parseMember(of kind: TypeDeclaration.Kind, named typeName: String, into members: inout Members) throws {
        var modifiers = skipModifiers()
        var isPublished = false
        if kind == .class, peek().isSymbol("@"), tokens[index + 1].labelText == "Published" {
            advance()
            advance()
            isPublished = true
            modifiers.formUnion(skipModifiers())
        }
        if peek().isSymbol("@") {
            let name = tokens[index + 1].labelText ?? ""
            throw fail("flow has no property wrappers", at: peek().span.to(tokens[index + 1].span),
                       help: name == "Published" ? "@Published is for a class's var; elsewhere, a value that changes over time is a CurrentValueSubject(initial)" : "remove @\(name)")
        }
        var isStatic = false, isMutating = false
        while isKeyword(.static) || isWord("mutating") || isKeyword(.class) && ["func", "var", "let"].contains(tokens[index + 1].labelText ?? "") {
            if isWord("mutating") { isMutating = true } else { isStatic = true }
            advance()
            modifiers.formUnion(skipModifiers())
        }
        let start = peek()
        if isKeyword(.case) {
            guard kind == .enum else { throw fail("cases can only be declared in an enum", at: start.span) }
            advance()
            repeat {
                let nameToken = advance()
                guard case .identifier(let name) = nameToken.kind else { throw expectedName("expected the case's name", at: nameToken) }
                var associated: [String?]?
                if check("("), peek().span.start == nameToken.span.end { associated = try parseAssociatedValues() }
                var rawValue: Expr?
                if accept("=") != nil { rawValue = try parseExpression() }
                members.cases.append(.init(name: name, span: nameToken.span, associated: associated, rawValue: rawValue))
            } while accept(",") != nil
            return
        }
        if isKeyword(.func) {
            if isMutating, kind == .enum || isStatic { throw fail("only a struct's methods can be mutating", at: start.span) }
            let method = try parseFunction(isMutating: isMutating, isStatic: isStatic)
            method.isDiscardableResult = modifiers.contains(.discardableResult)
            members.methods.append(method)
            return
        }
        if isKeyword(.struct) || isKeyword(.enum) || isKeyword(.class) && tokens[index + 1].labelText != nil {
            members.nested.append(try parseTypeDeclaration())
            return
        }
        if isKeyword(.`init`) {
            guard kind == .class || kind == .struct else {
                throw fail("an \(kind == .enum ? "enum" : kind.word) has no init here", at: start.span,
                           help: kind == .enum ? "make a value from a case, or from a raw value with init(rawValue:)" : "declare the init in the type itself")
            }
            // A struct's init sets the properties of the value it makes, as a mutating method does.
            members.initialisers.append(try parseFunction(isMutating: kind == .struct, isStatic: false))
            return
        }
        if isKeyword(.`deinit`) {
            guard kind == .class else { throw fail("only a class has a deinit", at: start.span) }
            guard members.deinitialiser == nil else { throw fail("a class has one deinit", at: start.span) }
            advance()
            members.deinitialiser = try inFunctionBody { try $0.parseBlock("body of deinit") }.body
            return
        }
        if isKeyword(.typealias), case .typeAlias(let name, _, let parameters, let type, _) = try parseTypeAlias() {
            members.typeAliases.append((name, parameters, type))
            return
        }
        guard start.isKeyword(.let) || isKeyword(.var) else {
            throw fail("expected a property, a method\(kind == .enum ? ", a case" : "") or a nested type in \(typeName)", at: start.span)
        }
        let isVariable = isKeyword(.var)
        advance()
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.kind else { throw expectedName("expected the property's name", at: nameToken) }
        var type: TypeText?
        var isOptional = false
        if let colon = accept(":") {
            guard let written = parseTypeText() else {
                throw fail("expected a type after ':'", at: peek().kind.isNewline ? colon.span : peek().span)
            }
            type = written
            isOptional = tokens[index - 1].isSymbol("?") || tokens[index - 1].isSymbol("!")
        }
        let typed = type != nil
        var observers: (willSet: TypeDeclaration.PropertyAccessor?, didSet: TypeDeclaration.PropertyAccessor?) = (nil, nil)
        if check("{"), !bracesHoldObservers(at: index) {
            guard isVariable, typed else { throw fail("a computed property is written var \(name): Type { ... }", at: peek().span) }
            let (getter, setter) = try parseComputedBody(name)
            members.computed.append(.init(name: name, span: nameToken.span, body: getter, isStatic: isStatic, type: type, setter: setter))
            return
        }
        var defaultValue: Expr?
        if !check("{"), accept("=") != nil { defaultValue = try parseExpression() }
        if defaultValue != nil, bracesHoldGetterOrSetter(at: index) {
            throw fail("a computed property has no value of its own", at: peek().span,
                       help: "remove '= ...' and compute it in get { }, or keep the value and observe it with willSet or didSet")
        }
        if bracesHoldObservers(at: index) {
            let braces = peek()
            observers = try parseObservers(of: name)
            if !isVariable { report(fail("a let property cannot have willSet or didSet", at: braces.span, help: "declare it with var")) }
            if isStatic {
                report(fail("flow runs willSet and didSet on instance properties only", at: braces.span,
                            help: "change the static property in a static func that does what the observer would"))
            }
        }
        if isStatic {
            guard defaultValue != nil else { throw fail("a static property needs a value", at: nameToken.span) }
            members.staticStored.append(.init(name: name, span: nameToken.span, defaultValue: defaultValue, isVariable: isVariable))
            return
        }
        guard kind == .struct || kind == .class else {
            throw fail("\(kind == .enum ? "an enum" : "an extension") cannot have stored properties", at: nameToken.span,
                       help: kind == .enum ? "use a computed property, or a case with an associated value" : "use a computed property")
        }
        if !typed && defaultValue == nil { throw fail("expected a type or a default value for '\(name)'", at: peek().span) }
        if isPublished, !isVariable { throw fail("a @Published property is a var", at: start.span) }
        let isLazy = kind == .class && modifiers.contains(.lazy)
        if isLazy, defaultValue == nil { throw fail("a lazy property needs a value", at: nameToken.span) }
        if isLazy, let observer = observers.willSet ?? observers.didSet {
            report(fail("a lazy property cannot have observers", at: observer.span, help: "remove lazy, or the observer"))
        }
        members.stored.append(.init(name: name, span: nameToken.span, defaultValue: defaultValue, isVariable: isVariable,
                                    isPublished: isPublished, isLazy: isLazy, isOptional: isOptional,
                                    isWeak: kind == .class && modifiers.contains(.weak), type: type,
                                    willSet: observers.willSet, didSet: observers.didSet))
        // `let x: Int, y: Int`: more properties of the same kind.
        while accept(",") != nil {
            let next = advance()
            guard case .identifier(let nextName) = next.kind else { throw expectedName("expected the property's name", at: next) }
            var nextType: TypeText?
            if let colon = accept(":") {
                guard let written = parseTypeText() else { throw fail("expected a type after ':'", at: colon.span) }
                nextType = written
            }
            var nextDefault: Expr?
            if accept("=") != nil { nextDefault = try parseExpression() }
            if nextType == nil && nextDefault == nil { throw fail("expected a type or a default value for '\(nextName)'", at: peek().span) }
            members.stored.append(.init(name: nextName, span: next.span, defaultValue: nextDefault, isVariable: isVariable,
                                        isPublished: isPublished, isLazy: false, isOptional: nextType.map { $0.text.hasSuffix("?") } ?? false,
                                        isWeak: kind == .class && modifiers.contains(.weak), type: nextType))
        }
    }

    /// `{ statements }`, `{ get { statements } }`, or a getter and a
    /// setter, `{ get { } set { } }` (either first, as Swift allows).
    private mutating func parseComputedBody(_ name: String) throws -> (getter: [Statement], setter: TypeDeclaration.PropertyAccessor?) {
        try inFunctionBody { try $0.parseAccessors(name) }
    }

    private mutating func parseAccessors(_ name: String) throws -> (getter: [Statement], setter: TypeDeclaration.PropertyAccessor?) {
        guard let i = firstTokenInBraces(at: index), isWord("get", at: i) || isWord("set", at: i) else {
            return (try parseBlock("body of \(name)").body, nil)
        }
        let open = advance()
        index = i
        var getter: [Statement]?
        var setter: TypeDeclaration.PropertyAccessor?
        while isWord("get") || isWord("set") {
            let word = advance()
            if word.labelText == "get" {
                let body = try parseBlock("getter of \(name)").body
                if getter == nil { getter = body } else { report(fail("'\(name)' has two getters", at: word.span)) }
            } else {
                let accessor = try parseAccessor(word, naming: "newValue", of: name)
                if setter == nil { setter = accessor } else { report(fail("'\(name)' has two setters", at: word.span)) }
            }
            while peek().kind.isNewline { advance() }
        }
        _ = try close("}", opened: open, "computed property")
        if getter == nil { report(fail("'\(name)' has a setter and no getter", at: open.span, help: "add get { ... } that gives its value")) }
        return (getter ?? [], setter)
    }

    /// Whether the braces at `position` open a property's observers
    /// (`{ didSet { } }`) rather than a getter or a trailing closure: Swift
    /// tells them apart by the first word inside.
    func bracesHoldObservers(at position: Int) -> Bool {
        guard let i = firstTokenInBraces(at: position) else { return false }
        return isWord("willSet", at: i) || isWord("didSet", at: i)
    }

    /// Whether the braces at `position` open a getter and setter (`{ get { } }`).
    func bracesHoldGetterOrSetter(at position: Int) -> Bool {
        guard let i = firstTokenInBraces(at: position) else { return false }
        return (isWord("get", at: i) || isWord("set", at: i)) && (tokens[i + 1].isSymbol("{") || tokens[i + 1].isSymbol("("))
    }

    /// Where the first token inside the braces at `position` is, past new lines; nil if no braces open there.
    private func firstTokenInBraces(at position: Int) -> Int? {
        guard tokens[position].isSymbol("{") else { return nil }
        var i = position + 1
        while tokens[i].kind.isNewline { i += 1 }
        return i
    }

    /// An error that does not stop the parse: reported, and parsing goes on.
    mutating func report(_ failure: Failure) {
        reported.appendCapped(failure.diagnostic)
    }

    /// `{ willSet { } didSet(old) { } }`, from its `{`.
    private mutating func parseObservers(of name: String) throws
        -> (willSet: TypeDeclaration.PropertyAccessor?, didSet: TypeDeclaration.PropertyAccessor?) {
        let open = advance()
        var willSet: TypeDeclaration.PropertyAccessor?
        var didSet: TypeDeclaration.PropertyAccessor?
        while true {
            while peek().kind.isNewline { advance() }
            guard isWord("willSet") || isWord("didSet") else { break }
            let word = advance()
            let isWillSet = word.labelText == "willSet"
            let accessor = try inFunctionBody { try $0.parseAccessor(word, naming: isWillSet ? "newValue" : "oldValue", of: name) }
            if (isWillSet ? willSet : didSet) != nil {
                report(fail("'\(name)' has two \(isWillSet ? "willSet" : "didSet") observers", at: word.span))
            } else if isWillSet {
                willSet = accessor
            } else {
                didSet = accessor
            }
        }
        if isWord("get") || isWord("set") {
            throw fail("a property with observers stores its value: it has no get or set", at: peek().span,
                       help: "make it a computed property (var \(name): Type { get { ... } set { ... } }), or keep willSet and didSet")
        }
        _ = try close("}", opened: open, "observers of \(name)")
        return (willSet, didSet)
    }

    /// `set { }`, `didSet(old) { }`: the value's name, then the body.
    private mutating func parseAccessor(_ word: Token, naming defaultName: String, of property: String) throws -> TypeDeclaration.PropertyAccessor {
        let what = "\(word.labelText ?? "") of \(property)"
        var parameter = defaultName
        var parameterSpan = word.span
        if let open = accept("(") {
            let nameToken = advance()
            guard case .identifier(let written) = nameToken.kind else { throw expectedName("expected a name for the value of the \(what)", at: nameToken) }
            parameter = written
            parameterSpan = nameToken.span
            _ = try close(")", opened: open, what)
        }
        let (body, close) = try parseBlock(what)
        return .init(parameter: parameter, parameterSpan: parameterSpan, body: body, span: word.span.to(close.span), word: word.labelText ?? "")
    }

    /// `(Int)`, `(x: Int, y: String)`, `(_ value: Int)`: the labels.
    private mutating func parseAssociatedValues() throws -> [String?] {
        try parseLabelledList("associated values") { p in
            if p.isWord("_"), p.tokens[p.index + 1].labelText != nil, p.tokens[p.index + 2].isSymbol(":") {
                p.advance(); p.advance(); p.advance()
            }
            guard p.skipType() else { throw p.fail("expected the type of an associated value", at: p.peek().span) }
            if p.accept("=") != nil { _ = try p.parseExpression() }
        }.labels
    }

    /// `( [label:] element, ... )`, from its `(`: the elements, their
    /// labels (nil for none or `_`), and the closing `)`.
    private mutating func parseLabelledList<T>(_ what: String, _ element: (inout Parser) throws -> T) throws
        -> (elements: [T], labels: [String?], close: Token) {
        let open = advance()
        var elements: [T] = []
        var labels: [String?] = []
        try bracketed(open) { parser in
            try parser.withNewlines(significant: false) { p in
                while !p.check(")") {
                    var label: String?
                    if let name = p.peek().labelText, p.tokens[p.index + 1].isSymbol(":") {
                        label = name == "_" ? nil : name
                        p.advance()
                        p.advance()
                    }
                    labels.append(label)
                    elements.append(try element(&p))
                    if p.accept(",") == nil { break }
                }
            }
        }
        let close = try withNewlines(significant: false) { try $0.close(")", opened: open, what) }
        return (elements, labels, close)
    }
}
