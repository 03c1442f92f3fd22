import FlowLanguage

/// Which declaration of a script each name in it refers to, by Swift's
/// scopes: a `let` is seen after it to the end of its block, funcs and
/// types in their whole block, parameters in their body, a condition's
/// bindings in what it guards. Names the script does not declare (the
/// language's, a module's) refer to nothing here.
struct NameResolution {
    struct Declaration {
        let name: String
        /// Where its name is written.
        let span: Span
        /// How it is declared, as a hover shows it (`let price: Double`).
        let summary: String
        /// A `let` or `var` of the script's top level, which a run binds.
        var isTopLevelBinding = false
        /// A `let` or `var` of a test block's own statements, which the
        /// block's run binds.
        var isTestBinding = false
        /// The script's type it holds, where written (`let p: Price`) or
        /// made (`let p = Price(amount: 2)`).
        var typeName: String?
        /// A name whose type is not written (a `let`, a closure's parameter,
        /// a loop variable, an `if let`): how it is declared (`let`,
        /// `parameter`), so a hover can say the type the compiler inferred.
        var unwrittenBinding: String?
    }

    /// Where each closure that names no parameters (`{ $0 * 2 }`) is written:
    /// what a `$0` in it belongs to.
    private(set) var shorthandClosures: [Span] = []

    /// The script's types by name, nested ones too.
    private(set) var types: [String: TypeDeclaration] = [:]

    /// `Price` of `Price(amount: 2)`, `Price.zero` or `Price`.
    static func madeType(_ e: Expr) -> String? {
        switch e {
        case .call(.name(let name, _), _, _), .name(let name, _): return name.isCapitalisedName ? name : nil
        case .call(.member(.name(let name, _), _, _, _), _, _), .member(.name(let name, _), _, _, _): return name.isCapitalisedName ? name : nil
        default: return nil
        }
    }

    /// The type a written type names, without optionals: `Price` of `Price?`.
    static func writtenType(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace }.prefix { $0 != "?" && $0 != "!" && $0 != "<" })
    }

    private(set) var declarations: [Declaration] = []
    /// Each use of a declared name, with the declaration it means.
    private(set) var uses: [(span: Span, declaration: Int)] = []
    private var scopes: [[String: Int]] = [[:]]
    /// How many scopes are open inside the test block being walked.
    private var testDepth: Int?

    init(_ script: Script) {
        statements(script.statements)
    }

    /// The declaration named or used at a byte offset.
    func declaration(at offset: Int) -> Int? {
        if let use = uses.first(where: { $0.span.start <= offset && offset <= $0.span.end }) { return use.declaration }
        return declarations.indices.first { declarations[$0].span.start <= offset && offset <= declarations[$0].span.end }
    }

    func uses(of declaration: Int) -> [Span] {
        uses.filter { $0.declaration == declaration }.map(\.span)
    }

    // MARK: - Walking the tree

    private mutating func declare(_ name: String, _ span: Span, _ summary: String, unwritten: String? = nil) {
        guard name != "_" else { return }
        declarations.append(Declaration(name: name, span: span, summary: summary, unwrittenBinding: unwritten))
        scopes[scopes.count - 1][name] = declarations.count - 1
    }

    /// The innermost closure without named parameters around an offset.
    func shorthandClosure(at offset: Int) -> Span? {
        shorthandClosures.filter { $0.start <= offset && offset < $0.end }.max { $0.start < $1.start }
    }

    private mutating func use(_ name: String, _ span: Span) {
        for scope in scopes.reversed() {
            if let declaration = scope[name] {
                uses.append((span, declaration))
                return
            }
        }
    }

    private mutating func scoped(_ body: (inout NameResolution) -> Void) {
        scopes.append([:])
        body(&self)
        scopes.removeLast()
    }

    private mutating func statements(_ list: [Statement]) {
        scoped { resolution in
            // Funcs and types are seen by every statement of their block.
            for statement in list {
                switch statement {
                case .function(let function): resolution.declare(function.name, function.nameSpan, Self.summary(of: function))
                case .type(let type): resolution.declare(type.name, type.nameSpan, "\(type.kind.word) \(type.name)")
                default: break
                }
            }
            for statement in list { resolution.statement(statement) }
        }
    }

    private static func summary(of function: FunctionDeclaration) -> String {
        let labels = function.parameters.map { "\($0.label ?? "_"):" }.joined()
        return "func \(function.name)(\(labels))" + (function.resultType.map { " -> \($0.text)" } ?? "")
    }

    private mutating func statement(_ statement: Statement) {
        switch statement {
        case .binding(let name, let nameSpan, let type, let value, let isVariable, _):
            if let value { expression(value) }
            let made = type.map { Self.writtenType($0.text) } ?? value.flatMap(Self.madeType)
            let shown = type.map { ": " + $0.text } ?? made.map { ": " + $0 + " (inferred)" } ?? ""
            declare(name, nameSpan, (isVariable ? "var " : "let ") + name + shown)
            if name != "_" {
                declarations[declarations.count - 1].typeName = made
                if type == nil { declarations[declarations.count - 1].unwrittenBinding = isVariable ? "var" : "let" }
                // The file's own scope and its statements' are the first two.
                declarations[declarations.count - 1].isTopLevelBinding = scopes.count == 2
                declarations[declarations.count - 1].isTestBinding = scopes.count == testDepth
            }
        case .destructuring(let pattern, let value, let isVariable, _):
            expression(value)
            self.pattern(pattern, declaring: isVariable ? "var" : "let")
        case .expression(let e), .throw(let e, _):
            expression(e)
        case .test(_, let body, _):
            testDepth = scopes.count + 1
            statements(body)
            testDepth = nil
        case .return(let e, _):
            if let e { expression(e) }
        case .assignment(let target, _, let value, _, _):
            expression(target)
            expression(value)
        case .guard(let conditions, let otherwise, _):
            statements(otherwise)
            for condition in conditions { self.condition(condition) }
        case .while(let conditions, let body, _):
            scoped { resolution in
                for condition in conditions { resolution.condition(condition) }
                resolution.statements(body)
            }
        case .repeat(let body, let condition, _):
            statements(body)
            expression(condition)
        case .for(let pattern, let sequence, let filter, let body, _):
            expression(sequence)
            scoped { resolution in
                resolution.pattern(pattern, declaring: "let")
                if let filter { resolution.expression(filter) }
                resolution.statements(body)
            }
        case .function(let function):
            self.function(function)
        case .type(let type):
            self.type(type)
        case .typeAlias(let name, let nameSpan, _, let type, _):
            declare(name, nameSpan, "typealias \(name) = \(type)")
        case .doCatch(let body, let catches, _):
            statements(body)
            for clause in catches {
                scoped { resolution in
                    if let pattern = clause.pattern { resolution.pattern(pattern, declaring: "let") }
                    resolution.statements(clause.body)
                }
            }
        case .break, .continue:
            break
        }
    }

    private mutating func function(_ function: FunctionDeclaration) {
        scoped { resolution in
            for parameter in function.parameters {
                if let value = parameter.defaultValue { resolution.expression(value) }
                resolution.declare(parameter.name, parameter.nameSpan, "parameter \(parameter.name)" + (parameter.type.map { ": " + $0.text } ?? ""),
                                   unwritten: parameter.type == nil ? "parameter" : nil)
                resolution.declarations[resolution.declarations.count - 1].typeName = parameter.type.map { Self.writtenType($0.text) }
            }
            resolution.statements(function.body)
        }
    }

    private mutating func type(_ type: TypeDeclaration) {
        if type.kind != .extension || types[type.name] == nil { types[type.name] = type }
        scoped { resolution in
            for stored in type.stored + type.staticStored {
                resolution.declare(stored.name, stored.span, (stored.isVariable ? "var " : "let ") + stored.name + (stored.type.map { ": " + $0.text } ?? ""))
            }
            for computed in type.computed {
                resolution.declare(computed.name, computed.span, "var \(computed.name)" + (computed.type.map { ": " + $0.text } ?? ""))
            }
            for method in type.methods { resolution.declare(method.name, method.nameSpan, Self.summary(of: method)) }
            for enumCase in type.cases { resolution.declare(enumCase.name, enumCase.span, "case \(enumCase.name)") }
            for nested in type.nested { resolution.declare(nested.name, nested.nameSpan, "\(nested.kind.word) \(nested.name)") }
            for stored in type.stored + type.staticStored { if let value = stored.defaultValue { resolution.expression(value) } }
            for computed in type.computed { resolution.statements(computed.body) }
            for method in type.methods + type.initialisers { resolution.function(method) }
            if let deinitialiser = type.deinitialiser { resolution.statements(deinitialiser) }
            for nested in type.nested { resolution.type(nested) }
        }
    }

    private mutating func condition(_ condition: Condition) {
        switch condition {
        case .boolean(let e):
            expression(e)
        case .optionalBinding(let name, let nameSpan, let value, let isVariable):
            expression(value)
            declare(name, nameSpan, (isVariable ? "var " : "let ") + name, unwritten: isVariable ? "var" : "let")
        case .matching(let pattern, let e):
            expression(e)
            self.pattern(pattern, declaring: "let")
        }
    }

    private mutating func pattern(_ pattern: Pattern, declaring word: String) {
        switch pattern {
        case .wildcard: break
        case .binding(let name, let span): declare(name, span, "\(word) \(name)", unwritten: word)
        case .expression(let e): expression(e)
        case .tuple(let elements, _, _): for element in elements { self.pattern(element, declaring: word) }
        case .enumCase(_, _, let arguments, _, _): for argument in arguments ?? [] { self.pattern(argument, declaring: word) }
        case .some(let inner, _): self.pattern(inner, declaring: word)
        }
    }

    private mutating func expression(_ e: Expr) {
        switch e {
        case .name(let name, let span):
            use(name, span)
        case .literal, .shorthand, .implicitMember, .keyPath:
            break
        case .string(let parts, _):
            for case .interpolation(let inner) in parts { expression(inner) }
        case .array(let elements, _), .tuple(let elements, _, _):
            for element in elements { expression(element) }
        case .dictionary(let pairs, _):
            for pair in pairs {
                expression(pair.key)
                expression(pair.value)
            }
        case .closure(let closure):
            if closure.parameters == nil { shorthandClosures.append(closure.span) }
            scoped { resolution in
                for (index, parameter) in (closure.parameters ?? []).enumerated() {
                    let written = index < closure.parameterTypes.count ? closure.parameterTypes[index]?.text : nil
                    resolution.declare(parameter.name, parameter.span, "parameter \(parameter.name)" + (written.map { ": " + $0 } ?? ""),
                                       unwritten: written == nil ? "parameter" : nil)
                }
                resolution.statements(closure.body)
            }
        case .unary(_, let inner, _), .member(let inner, _, _, _), .optionalBind(let inner, _), .optionalChain(let inner, _),
             .forceUnwrap(let inner, _), .inoutArgument(let inner, _), .typeCheck(let inner, _, _, _, _), .attempt(let inner, _):
            expression(inner)
        case .binary(_, let left, let right, _, _), .subscriptAccess(let left, let right, _):
            expression(left)
            expression(right)
        case .ternary(let condition, let yes, let no, _):
            expression(condition)
            expression(yes)
            expression(no)
        case .call(let callee, let arguments, _):
            expression(callee)
            for argument in arguments { expression(argument.value) }
        case .conditional(let conditional):
            scoped { resolution in
                for condition in conditional.conditions { resolution.condition(condition) }
                resolution.statements(conditional.body)
            }
            if let otherwise = conditional.elseBody { statements(otherwise) }
        case .switchOver(let switchExpression):
            expression(switchExpression.subject)
            for switchCase in switchExpression.cases {
                scoped { resolution in
                    for pattern in switchCase.patterns { resolution.pattern(pattern, declaring: "let") }
                    if let guardExpr = switchCase.guardExpr { resolution.expression(guardExpr) }
                    resolution.statements(switchCase.body)
                }
            }
        }
    }
}

extension String {
    var isCapitalisedName: Bool { first.map { $0.isUppercase } ?? false }
}
