import FlowLanguage
import Foundation

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
        /// The protocol's CompletionItemKind for it.
        var completionKind = NameResolution.variableKind
        /// Where its name can be used: from after its declaration (or the
        /// start of its block, for a func or a type) to the end of its block.
        var visible: Range<Int> = 0..<Int.max
    }

    // The protocol's CompletionItemKind numbers.
    static let functionKind = 3, fieldKind = 5, variableKind = 6, classKind = 7, enumKind = 13, constantKind = 21, structKind = 22
    static let enumMemberKind = 20, interfaceKind = 8

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
    /// Where each open scope's text is: what its names are visible in.
    private var extents: [Range<Int>] = [0..<Int.max]
    /// How many scopes are open inside the test block being walked.
    private var testDepth: Int?

    /// The script's text, for what a hover shows of a declaration the
    /// tree keeps only the name of (a protocol's requirement).
    private let source: SourceFile?

    init(_ script: Script, source: SourceFile? = nil) {
        self.source = source
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

    /// `visibleFrom`: where the name starts to be usable, if not right
    /// after it is written (after a `let`'s whole statement; a func's from
    /// the start of its block).
    private mutating func declare(_ name: String, _ span: Span, _ summary: String, unwritten: String? = nil,
                                  kind: Int = NameResolution.variableKind, visibleFrom: Int? = nil) {
        guard name != "_" else { return }
        let extent = extents[extents.count - 1]
        let from = min(max(visibleFrom ?? span.end, extent.lowerBound), extent.upperBound)
        declarations.append(Declaration(name: name, span: span, summary: summary, unwrittenBinding: unwritten, completionKind: kind,
                                        visible: from..<extent.upperBound))
        scopes[scopes.count - 1][name] = declarations.count - 1
    }

    /// The script's names that can be used at an offset, by Swift's scopes:
    /// the innermost declaration of each name.
    func visibleDeclarations(at offset: Int) -> [Int] {
        var byName: [String: Int] = [:]
        for (index, declaration) in declarations.enumerated() where declaration.visible.lowerBound <= offset && offset <= declaration.visible.upperBound {
            if let other = byName[declaration.name], declarations[other].visible.lowerBound > declaration.visible.lowerBound { continue }
            byName[declaration.name] = index
        }
        return byName.values.sorted()
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

    /// A scope whose names are visible within `extent` (the text of the
    /// construct that opens it; the enclosing scope's when nil).
    private mutating func scoped(_ extent: Span? = nil, _ body: (inout NameResolution) -> Void) {
        scopes.append([:])
        let outer = extents[extents.count - 1]
        let lower = max(extent?.start ?? outer.lowerBound, outer.lowerBound)
        extents.append(lower..<max(lower, min(extent?.end ?? outer.upperBound, outer.upperBound)))
        body(&self)
        extents.removeLast()
        scopes.removeLast()
    }

    private mutating func statements(_ list: [Statement], within extent: Span? = nil) {
        scoped(extent) { resolution in
            // Funcs and types are seen by every statement of their block.
            let start = resolution.extents[resolution.extents.count - 1].lowerBound
            for statement in list {
                switch statement {
                case .function(let function):
                    resolution.declare(function.name, function.nameSpan, Self.summary(of: function), kind: Self.functionKind, visibleFrom: start)
                case .type(let type):
                    resolution.declare(type.name, type.nameSpan, "\(type.kind.word) \(type.name)", kind: Self.kind(of: type), visibleFrom: start)
                default: break
                }
            }
            for statement in list { resolution.statement(statement) }
        }
    }

    private static func kind(of type: TypeDeclaration) -> Int {
        switch type.kind {
        case .struct: structKind
        case .enum: enumKind
        case .protocol: interfaceKind
        case .class, .extension: classKind
        }
    }

    private static func summary(of function: FunctionDeclaration) -> String {
        let labels = function.parameters.map { "\($0.label ?? "_"):" }.joined()
        return "func \(function.name)(\(labels))" + (function.resultType.map { " -> \($0.text)" } ?? "")
    }

    private mutating func statement(_ statement: Statement) {
        switch statement {
        case .binding(let name, let nameSpan, let type, let value, let isVariable, let span):
            if let value { expression(value) }
            let made = type.map { Self.writtenType($0.text) } ?? value.flatMap(Self.madeType)
            let shown = type.map { ": " + $0.text } ?? made.map { ": " + $0 + " (inferred)" } ?? ""
            // Not in its own value: `let total = tot` offers no `total`.
            declare(name, nameSpan, (isVariable ? "var " : "let ") + name + shown, kind: isVariable ? Self.variableKind : Self.constantKind,
                    visibleFrom: span.end + 1)
            if name != "_" {
                declarations[declarations.count - 1].typeName = made
                if type == nil { declarations[declarations.count - 1].unwrittenBinding = isVariable ? "var" : "let" }
                // The file's own scope and its statements' are the first two.
                declarations[declarations.count - 1].isTopLevelBinding = scopes.count == 2
                declarations[declarations.count - 1].isTestBinding = scopes.count == testDepth
            }
        case .destructuring(let pattern, let value, let isVariable, let span):
            expression(value)
            self.pattern(pattern, declaring: isVariable ? "var" : "let", visibleFrom: span.end + 1)
        case .expression(let e), .throw(let e, _):
            expression(e)
        case .test(_, let body, let span):
            testDepth = scopes.count + 1
            statements(body, within: span)
            testDepth = nil
        case .return(let e, _):
            if let e { expression(e) }
        case .assignment(let target, _, let value, _, _):
            expression(target)
            expression(value)
        case .guard(let conditions, let otherwise, let span):
            statements(otherwise, within: span)
            // A guard's names are for what follows it, not its else.
            for condition in conditions { self.condition(condition, visibleFrom: span.end + 1) }
        case .while(let conditions, let body, let span):
            scoped(span) { resolution in
                for condition in conditions { resolution.condition(condition) }
                resolution.statements(body)
            }
        case .repeat(let body, let condition, let span):
            statements(body, within: span)
            expression(condition)
        case .for(let pattern, let sequence, let filter, let body, let span):
            expression(sequence)
            scoped(span) { resolution in
                resolution.pattern(pattern, declaring: "let")
                if let filter { resolution.expression(filter) }
                resolution.statements(body)
            }
        case .function(let function):
            self.function(function)
        case .type(let type):
            self.type(type)
        case .typeAlias(let name, let nameSpan, _, let type, _):
            declare(name, nameSpan, "typealias \(name) = \(type)", kind: Self.classKind)
        case .doCatch(let body, let catches, let span):
            statements(body, within: span)
            for clause in catches {
                scoped(span) { resolution in
                    if let pattern = clause.pattern { resolution.pattern(pattern, declaring: "let") }
                    resolution.statements(clause.body)
                }
            }
        case .break, .continue:
            break
        }
    }

    private mutating func function(_ function: FunctionDeclaration) {
        scoped(function.span) { resolution in
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
        scoped(type.span) { resolution in
            // A type's members are seen in all of it.
            let start = type.span.start
            for stored in type.stored + type.staticStored {
                resolution.declare(stored.name, stored.span, (stored.isVariable ? "var " : "let ") + stored.name + (stored.type.map { ": " + $0.text } ?? ""),
                                   kind: Self.fieldKind, visibleFrom: start)
            }
            for computed in type.computed {
                resolution.declare(computed.name, computed.span, "var \(computed.name)" + (computed.type.map { ": " + $0.text } ?? ""),
                                   kind: Self.fieldKind, visibleFrom: start)
            }
            for method in type.methods {
                resolution.declare(method.name, method.nameSpan, Self.summary(of: method), kind: Self.functionKind, visibleFrom: start)
            }
            for enumCase in type.cases {
                resolution.declare(enumCase.name, enumCase.span, "case \(enumCase.name)", kind: Self.enumMemberKind, visibleFrom: start)
            }
            for nested in type.nested {
                resolution.declare(nested.name, nested.nameSpan, "\(nested.kind.word) \(nested.name)", kind: Self.kind(of: nested), visibleFrom: start)
            }
            // What a value of the protocol's type means by a member name.
            for requirement in type.requirements {
                resolution.declare(requirement.name, requirement.span, resolution.requirementSummary(requirement, of: type),
                                   kind: Self.functionKind, visibleFrom: start)
            }
            for stored in type.stored + type.staticStored { if let value = stored.defaultValue { resolution.expression(value) } }
            for computed in type.computed { resolution.statements(computed.body, within: computed.span) }
            for accessor in type.accessors {
                resolution.scoped(accessor.span) { resolution in
                    resolution.declare(accessor.parameter, accessor.parameterSpan, "parameter \(accessor.parameter)")
                    resolution.statements(accessor.body)
                }
            }
            for method in type.methods + type.initialisers { resolution.function(method) }
            if let deinitialiser = type.deinitialiser { resolution.statements(deinitialiser) }
            for nested in type.nested { resolution.type(nested) }
        }
    }

    /// A requirement as written (`func area() -> Double`), from its line;
    /// without the text, what it is.
    private func requirementSummary(_ requirement: TypeDeclaration.Requirement, of type: TypeDeclaration) -> String {
        let fallback = "requirement \(requirement.name) of protocol \(type.name)"
        guard let source else { return fallback }
        let (line, column) = source.lineAndColumn(of: requirement.span.start)
        let text = Array(source.lineText(line))
        // The requirement's own part of its line: from after the `;` or
        // `{` before it to the `;` after it.
        let at = min(max(column - 1, 0), text.count)
        let start = text[..<at].lastIndex { $0 == ";" || $0 == "{" }.map { $0 + 1 } ?? 0
        let end = text[at...].firstIndex { $0 == ";" } ?? text.count
        let written = String(text[start..<end]).trimmingCharacters(in: .whitespaces)
        return written.isEmpty ? fallback : written
    }

    private mutating func condition(_ condition: Condition, visibleFrom: Int? = nil) {
        switch condition {
        case .boolean(let e):
            expression(e)
        case .optionalBinding(let name, let nameSpan, let value, let isVariable):
            expression(value)
            declare(name, nameSpan, (isVariable ? "var " : "let ") + name, unwritten: isVariable ? "var" : "let",
                    kind: isVariable ? Self.variableKind : Self.constantKind, visibleFrom: visibleFrom ?? value.span.end)
        case .matching(let pattern, let e):
            expression(e)
            self.pattern(pattern, declaring: "let", visibleFrom: visibleFrom ?? e.span.end)
        }
    }

    private mutating func pattern(_ pattern: Pattern, declaring word: String, visibleFrom: Int? = nil) {
        switch pattern {
        case .wildcard: break
        case .binding(let name, let span):
            declare(name, span, "\(word) \(name)", unwritten: word, kind: word == "var" ? Self.variableKind : Self.constantKind, visibleFrom: visibleFrom)
        case .expression(let e): expression(e)
        case .tuple(let elements, _, _): for element in elements { self.pattern(element, declaring: word, visibleFrom: visibleFrom) }
        case .enumCase(_, _, let arguments, _, _):
            for argument in arguments ?? [] { self.pattern(argument, declaring: word, visibleFrom: visibleFrom) }
        case .some(let inner, _): self.pattern(inner, declaring: word, visibleFrom: visibleFrom)
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
            scoped(closure.span) { resolution in
                for (index, parameter) in (closure.parameters ?? []).enumerated() {
                    let written = index < closure.parameterTypes.count ? closure.parameterTypes[index]?.text : nil
                    resolution.declare(parameter.name, parameter.span, "parameter \(parameter.name)" + (written.map { ": " + $0 } ?? ""),
                                       unwritten: written == nil ? "parameter" : nil)
                }
                resolution.statements(closure.body)
            }
        case .unary(_, let inner, _), .member(let inner, _, _, _), .optionalBind(let inner, _), .optionalChain(let inner, _),
             .forceUnwrap(let inner, _), .inoutArgument(let inner, _), .typeCheck(let inner, _, _, _, _), .attempt(let inner, _),
             .oneSidedRange(_, let inner, _):
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
            // The body's text ends where the else's begins (the else's
            // first statement: no closer bound is kept).
            let elseStart = conditional.elseBody?.first?.span.start
            scoped(Span(conditional.span.start, elseStart ?? conditional.span.end)) { resolution in
                for condition in conditional.conditions { resolution.condition(condition) }
                resolution.statements(conditional.body)
            }
            if let otherwise = conditional.elseBody { statements(otherwise, within: Span(elseStart ?? conditional.span.end, conditional.span.end)) }
        case .switchOver(let switchExpression):
            expression(switchExpression.subject)
            for switchCase in switchExpression.cases {
                scoped(switchCase.span) { resolution in
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
