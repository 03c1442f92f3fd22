import FlowRuntime

/// The parser's expressions, lowest precedence first (as in Swift):
/// operators, postfix calls and members, primaries, strings, collections,
/// closures, and the Swift types that are read and dropped.
extension Parser {

    mutating func parseExpression() throws -> Expr {
        try nested(at: peek().span) { try $0.parseTernary() }
    }

    mutating func parseTernary() throws -> Expr {
        let condition = try parseOr()
        guard accept("?") != nil else { return condition }
        let whenTrue = try parseExpression()
        _ = try expect(":", "':' in the conditional expression")
        // A line may end with the `:` (`c ? a :` then the other value).
        while peek().kind.isNewline { advance() }
        let whenFalse = try parseExpression()
        return .ternary(condition, whenTrue, whenFalse, condition.span.to(whenFalse.span))
    }

    mutating func parseOr() throws -> Expr {
        try parseLeftAssociative(Self.disjunction) { try $0.parseAnd() }
    }

    mutating func parseAnd() throws -> Expr {
        try parseLeftAssociative(Self.conjunction) { try $0.parseComparison() }
    }

    // Made once: a literal here would be built at every level of every expression.
    private static let disjunction: [BinaryOperator] = [.or], conjunction: [BinaryOperator] = [.and]
    private static let additive: [BinaryOperator] = [.add, .subtract], multiplicative: [BinaryOperator] = [.multiply, .divide, .remainder]

    private static func comparison(_ symbol: String) -> BinaryOperator? {
        // Most symbols after an operand are `)`, `,` or `.`: one byte tells.
        switch symbol.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"): break
        default: return nil
        }
        guard let op = BinaryOperator(rawValue: symbol), op.isComparison else { return nil }
        return op
    }

    mutating func parseComparison() throws -> Expr {
        let left = try parseCoalescing()
        guard case .symbol(let symbol) = peek().kind, let op = Self.comparison(symbol) else { return left }
        let opSpan = advance().span
        let right = try parseCoalescing()
        if case .symbol(let again) = peek().kind, Self.comparison(again) != nil {
            throw fail("comparisons cannot be chained", at: peek().span, help: "combine them with &&, as in a < b && b < c")
        }
        return .binary(op: op, left, right, opSpan: opSpan, left.span.to(right.span))
    }

    mutating func parseCoalescing() throws -> Expr {
        let left = try parseRange()
        guard let op = accept("??") else { return left }
        let right = try nested(at: op.span) { try $0.parseCoalescing() }
        return .binary(op: .nilCoalescing, left, right, opSpan: op.span, left.span.to(right.span))
    }

    /// `0..<n`, `1...n`: between additive and `??`, as in Swift.
    mutating func parseRange() throws -> Expr {
        let left = try parseAdditive()
        guard let op = accept("..<") ?? accept("...") else { return left }
        let range: BinaryOperator = op.isSymbol("...") ? .closedRange : .halfOpenRange
        if [")", "]", ",", ":", "{"].contains(where: { check($0) }) || peek().kind.isNewline || peek().kind.isEnd {
            // `xs[2...]`, `case 90...:`: Swift's one-sided ranges.
            guard range == .closedRange else {
                throw fail("a range written after its bound is closed: '\(file.text(of: left.span))...'", at: op.span,
                           help: "write \(file.text(of: left.span))... for the values from it up")
            }
            return .oneSidedRange(.from, left, left.span.to(op.span))
        }
        let right = try parseAdditive()
        if check("..<") || check("...") { throw fail("ranges cannot be chained", at: peek().span) }
        return .binary(op: range, left, right, opSpan: op.span, left.span.to(right.span))
    }

    mutating func parseAdditive() throws -> Expr {
        try parseLeftAssociative(Self.additive) { try $0.parseMultiplicative() }
    }

    mutating func parseMultiplicative() throws -> Expr {
        try parseLeftAssociative(Self.multiplicative) { try $0.parsePrefix() }
    }

    mutating func parseLeftAssociative(_ ops: [BinaryOperator], _ operand: (inout Parser) throws -> Expr) throws -> Expr {
        var left = try operand(&self)
        while case .symbol(let symbol) = peek().kind, let op = ops.first(where: { $0.rawValue == symbol }) {
            let opSpan = advance().span
            let right = try operand(&self)
            left = .binary(op: op, left, right, opSpan: opSpan, left.span.to(right.span))
        }
        return left
    }

    mutating func parsePrefix() throws -> Expr {
        // `try`, `try?` and `try!`: errors travel as stream errors in flow
        // and stop a statement, so Swift's markers are read and dropped.
        if peek().isKeyword(.try), !tokens[index + 1].kind.isNewline,
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
        if check("..<") || check("...") {
            // `..<0`, `...5`: Swift's one-sided ranges.
            let op = advance()
            let bound = try nested(at: op.span) { try $0.parsePrefix() }
            return .oneSidedRange(op.isSymbol("..<") ? .upTo : .through, bound, op.span.to(bound.span))
        }
        if case .symbol(let symbol) = peek().kind, let op = PrefixOperator(rawValue: symbol) {
            let opToken = advance()
            let operand = try nested(at: opToken.span) { try $0.parsePrefix() }
            if op == .negate, case .literal(let v, let span) = operand {
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
            // `x?.y` and `x!`, not the `?` of `c ? a : b` or a prefix `!`
            // (the value may end with a `)` its span leaves out: `(x as? T)?.y`).
            let touchesValue = token.span.start == expr.span.end || (index > 0 && token.span.start == tokens[index - 1].span.end)
            if touchesValue, token.isSymbol("?"), tokens[index + 1].isSymbol(".") || tokens[index + 1].isSymbol("["),
               tokens[index + 1].span.start == token.span.end {
                // `x?.y` and `x?[key]`.
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
            } else if case .keyword(let keyword) = token.kind, keyword == .as || keyword == .is {
                // `x as Double` reads x as the type; `x is T`, `x as? T` and
                // `x as! T` test its type.
                advance()
                let word = keyword.rawValue
                var check = TypeCheck.test
                if keyword == .as {
                    if accept("?") != nil { check = .conditional } else if accept("!") != nil { check = .forced } else { check = .coercion }
                }
                let typeStart = peek().span.start
                guard skipType() else { throw fail("expected a type after '\(word)'", at: peek().span) }
                let typeSpan = Span(typeStart, tokens[index - 1].span.end)
                expr = .typeCheck(expr, check, type: file.text(of: typeSpan), typeSpan: typeSpan, expr.span.to(typeSpan))
            } else if token.isSymbol("(") && onSameLine(token), Self.isCollectionType(expr), tokens[index + 1].isSymbol(")") {
                // `[Int]()`, `[String: Int]()`: an empty collection of the type written.
                advance()
                let close = advance()
                let empty: Expr = if case .dictionary = expr { .dictionary([], expr.span.to(close.span)) } else { .array([], expr.span.to(close.span)) }
                expr = writtenAs(expr.span, empty)
            } else if token.isSymbol("(") && onSameLine(token) {
                let written = constructedType(expr)
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
                if let written { expr = writtenConstruction(expr, of: written) }
            } else if token.isSymbol("[") && onSameLine(token), peek(offset: 1).labelText == "keyPath", peek(offset: 2).isSymbol(":") {
                // `todo[keyPath: path]`: the key path applied to the value, as a call of it.
                let open = advance()
                advance(); advance()
                let path = try withNewlines(significant: false) { try $0.parseExpression() }
                let close = try withNewlines(significant: false) { try $0.close("]", opened: open, "subscript") }
                expr = .call(callee: path, arguments: [CallArgument(label: nil, labelSpan: nil, value: expr, isTrailing: false)],
                             expr.span.to(close.span))
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

    /// An operator alone as an argument: a `)` or `,` follows it.
    mutating func isOperatorReference(offset: Int) -> Bool {
        let next = peek(offset: offset)
        return next.isSymbol(")") || next.isSymbol(",")
    }

    /// The type a call constructs where it is written with its element
    /// types: `[Double](...)`, `Array<Double>(...)`, `Dictionary<String, Double>()`,
    /// `Optional<Double>(4)`. Swift reads such a call's arguments by that
    /// type (`Array<Double>(repeating: 1, count: 2)` holds 1.0), so the call
    /// is read as its value coerced to the type (`writtenConstruction`).
    private func constructedType(_ callee: Expr) -> Span? {
        if Self.isCollectionType(callee), case .array = callee { return callee.span }
        guard case .name(let name, let span) = callee, name == "Array" || name == "Dictionary" || name == "Optional",
              let text = file.genericTypeText(at: span.start) else { return nil }
        return Span(span.start, span.start + text.utf8.count)
    }

    /// `call` read as Swift reads a construction of the type at `type`:
    /// `Array<Double>()` is `[] as [Double]`, `Dictionary<K, V>()` is
    /// `[:] as [K: V]`, `Optional<Double>(4)` is `4 as Double?`, any other
    /// form the call itself as the type.
    private func writtenConstruction(_ call: Expr, of type: Span) -> Expr {
        guard case .call(.name(let name, _), let arguments, let span) = call else { return writtenAs(type, call) }
        switch (name, arguments.count) {
        case ("Array", 0): return writtenAs(type, .array([], span))
        case ("Dictionary", 0): return writtenAs(type, .dictionary([], span))
        case ("Optional", 1) where arguments[0].label == nil: return writtenAs(type, arguments[0].value, span: span)
        default: return writtenAs(type, call)
        }
    }

    /// `value as T`, where `T` is the type written at `type`.
    private func writtenAs(_ type: Span, _ value: Expr, span: Span? = nil) -> Expr {
        .typeCheck(value, .coercion, type: file.text(of: type), typeSpan: type, span ?? value.span)
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
    /// A type, kept as its text and span for the compiler to read.
    mutating func parseTypeText() -> TypeText? {
        let start = peek().span.start
        guard skipType() else { return nil }
        let span = Span(start, tokens[index - 1].span.end)
        return TypeText(text: file.text(of: span), span: span)
    }

    mutating func skipType() -> Bool {
        let start = index
        if skipTypeBody() { return true }
        index = start
        return false
    }

    mutating func skipTypeBody() -> Bool {
        let modified = switch peek().kind {
        case .keyword(.inout): true
        case .identifier(let word): ["some", "any", "escaping"].contains(word)
        default: false
        }
        if modified, !tokens[index + 1].kind.isNewline, !tokens[index + 1].isSymbol(",") {
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
        // `Int??` is an optional of an optional; `x as? Int ?? 0` is a default.
        while check("?") || check("!") || (check("??") && peek().span.start == tokens[index - 1].span.end) { advance() }
        if peek().isKeyword(.throws) { advance() }
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
        // `var items = [Int]() { didSet { } }`: the braces are the property's observers (or a getter, an error).
        guard !noTrailingClosure, check("{"), onSameLine(peek()), !bracesHoldObservers(at: index), !bracesHoldGetterOrSetter(at: index) else {
            return nil
        }
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
        case .keyword(.if): return try parseIf()
        case .keyword(.switch): return try parseSwitch()
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
        case .symbol(let s) where BinaryOperator(rawValue: s)?.isReferable == true && isOperatorReference(offset: 1):
            // `reduce(0, +)`: an operator passed as a function, as in Swift.
            advance()
            let body = Expr.binary(op: BinaryOperator(rawValue: s)!, .shorthand(0, token.span), .shorthand(1, token.span), opSpan: token.span, token.span)
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
                    let signature = p.parseClosureSignature()
                    let body = try p.parseStatements(context: .closure)
                    let close = try p.close("}", opened: open, "closure")
                    let closure = Closure(parameters: signature.parameters, body: body, span: open.span.to(close.span),
                                          capturesSelfWeakly: signature.capturesSelfWeakly)
                    closure.parameterTypes = signature.parameterTypes
                    closure.resultType = signature.resultType
                    return .closure(closure)
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
    /// What a closure says before `in`.
    struct ClosureSignature {
        var parameters: [(name: String, span: Span)]?
        var parameterTypes: [TypeText?] = []
        var resultType: TypeText?
        var capturesSelfWeakly = false
    }

    mutating func parseClosureSignature() -> ClosureSignature {
        let start = index
        // The signature may sit on the line after `{`.
        while peek().kind.isNewline { advance() }
        let (captures, weakSelf) = readCaptureList()
        var names: [(String, Span)] = []
        var types: [TypeText?] = []
        let parenthesized = accept("(") != nil
        while case .identifier(let name) = peek().kind {
            names.append((name, advance().span))
            var type: TypeText?
            if parenthesized, accept(":") != nil {
                guard let written = parseTypeText() else { index = start; return ClosureSignature() }
                type = written
            }
            types.append(type)
            if accept(",") == nil { break }
        }
        if parenthesized && accept(")") == nil { index = start; return ClosureSignature() }
        var result: TypeText?
        if accept("->") != nil {
            guard let written = parseTypeText() else { index = start; return ClosureSignature() }
            result = written
        }
        if peek().isKeyword(.throws) { advance() }
        if !names.isEmpty || parenthesized || captures, peek().isKeyword(.in) {
            advance()
            // `{ [weak self] in ... $0 }`: a capture list alone names no parameters.
            let named = names.isEmpty && !parenthesized ? nil : names
            return ClosureSignature(parameters: named, parameterTypes: types, resultType: result, capturesSelfWeakly: weakSelf)
        }
        index = start
        return ClosureSignature()
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
