import FlowRuntime

/// What a call of a bare name, `name(arguments)`, means. As for a method
/// call (`MethodCallMeaning`), each kind of meaning is asked in the order
/// of `FunctionCallMeaning.order`, and the first that applies wins: the
/// script's own names come before the language's functions, and those
/// before the libraries' types and the operators, so a script's `func
/// merge` or `struct Timer` is its own, as in Swift. docs/architecture.md
/// states the order and a test reads it.
enum FunctionCallMeaning {
    enum Kind: String, CaseIterable {
        /// `count()` inside a method: a member of `self`'s type, unless the
        /// method declares that name itself.
        case selfMember
        /// `make()` inside a static method: a static member of its type.
        case staticMember
        /// A function, closure or value the script declares in scope.
        case scriptName
        /// `Cart(...)`: an initialiser of the script's type.
        case scriptType
        /// `Price(3)` for `typealias Price = Double`: what the alias names.
        case typeAlias
        /// The language's free functions (`print`, `cold`, `min`, `Date`).
        case languageFunction
        /// A library's type made with no arguments or a scheduler
        /// (`DisposeBag()`, `JSONEncoder()`, `DispatchQueue.main`).
        case libraryType
        /// An operator that makes a stream (`just`, `merge`, `interval`).
        case sourceOperator
    }

    /// The order meanings are asked in.
    static let order: [Kind] = Kind.allCases
}

extension Compiler {
    /// `name(arguments)`, with the meaning the first kind that applies gives.
    func compileNamedCall(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope,
                          from first: Int = 0) -> CompiledExpression {
        for kind in FunctionCallMeaning.order.dropFirst(first) {
            if let compiled = compileNamedCall(as: kind, name, nameSpan, arguments, span, in: scope) { return compiled }
        }
        unknownName(name, nameSpan, calling: true, in: scope)
        return CompiledExpression { _ in .null }
    }

    /// A name the script does not declare in scope, called: the meanings
    /// after the script's own names.
    func compileFunctionCall(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> CompiledExpression {
        compileNamedCall(name, nameSpan, arguments, span, in: scope, from: FunctionCallMeaning.order.firstIndex(of: .scriptType)!)
    }

    private func compileNamedCall(
        as kind: FunctionCallMeaning.Kind, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> CompiledExpression? {
        switch kind {
        case .selfMember:
            guard isImplicitSelf(name, in: scope) else { return nil }
            return compileMethodCall(.name("self", nameSpan), name, nameSpan, arguments, span, in: scope)
        case .staticMember:
            guard let type = implicitStaticType(name, in: scope) else { return nil }
            return CompiledExpression(compileStaticCall(type, name, nameSpan, arguments, span, in: scope))
        case .scriptName:
            guard let (depth, entry) = scope.resolve(name) else { return nil }
            if let info = entry.function {
                let result = writtenResultType(of: info.allOverloads, in: scope)
                return CompiledExpression(compileUserFunctionCall(info, depth: depth, slot: entry.slot, nameSpan, arguments, span, in: scope))
                    .typed(result ?? .unknown, sure: result != nil)
            }
            // A closure of a written type gives its result's type.
            let result: StaticType = if case .function(_, let result) = entry.type { result } else { .unknown }
            return CompiledExpression(compileValueCall(.name(name, nameSpan), arguments, span, in: scope), type: result,
                                      typeIsSure: entry.typeIsWritten)
        case .scriptType:
            guard let type = resolveType(name, in: scope) else { return nil }
            // `init?` and an enum's `init(rawValue:)` may give nil.
            let labels = arguments.map(\.label)
            let failable = type.declaration.initialisers.first { $0.parameters.map(\.label) == labels }?.isFailable == true
                || (type.isEnum && labels == ["rawValue"])
            let constructed = CompiledExpression(compileConstruction(type, nameSpan, arguments, span, in: scope))
            if !failable, let generic = writtenGenericType(of: type, at: nameSpan, in: scope) {
                // `Box<Double>(value: 2)`: the value as a `Box<Double>`.
                return converted(constructed, to: generic)
            }
            let made: StaticType = failable ? .optional(.named(type.name)) : .named(type.name)
            return constructed.typed(made, sure: true)
        case .typeAlias:
            guard declaresAliases, let aliased = scope.lookupAlias(name), aliased != name, FreeFunctions.named(aliased) != nil else { return nil }
            return compileFunctionCall(aliased, nameSpan, arguments, span, in: scope)
        case .languageFunction:
            guard Builtins.languageFunctions.contains(name) else { return nil }
            return compiledBuiltin(name, nameSpan, arguments, span, in: scope)
        case .libraryType:
            guard name.isCapitalised else { return nil }
            if name == "DisposeBag" || name == "Set", arguments.isEmpty {
                // RxSwift's `DisposeBag()`, Combine's `Set<AnyCancellable>()`.
                return CompiledExpression { _ in name == "DisposeBag" ? .function(DisposeBagValue()) : .array([]) }
            }
            if name == "Optional", resolveType(name, in: scope) == nil, arguments.count == 1, arguments[0].label == nil {
                return compileOptionalWrapping(arguments[0].value, typeSpan: nameSpan, in: scope)
            }
            if name == "NotificationCenter", arguments.isEmpty {
                return CompiledExpression { _ in .function(NotificationCenterValue()) }
            }
            if SwiftVocabulary.coders.contains(name), arguments.isEmpty {
                let coder = SwiftVocabulary.coder(name)
                return CompiledExpression { _ in coder }
            }
            if SwiftVocabulary.schedulerTypes.contains(name) {
                _ = compileArguments(arguments, in: scope)
                let scheduler = SwiftVocabulary.scheduler(name)
                return CompiledExpression { _ in scheduler }
            }
            return nil
        case .sourceOperator:
            guard let call = OperatorCall(name, labels: arguments.map(\.label), method: false) else { return nil }
            if call.spec.form == .method {
                error("'\(name)' is a method: call it on a stream, as in source.\(name)(...)", nameSpan)
                return CompiledExpression { _ in .null }
            }
            if let element = writtenElementType(at: nameSpan, in: scope) {
                return compileTypedSource(call, element: element, nameSpan, arguments, span, in: scope)
            }
            var made = compileOperator(call, receiver: nil, nameSpan, arguments, span, in: scope)
            if name == "zip", arguments.count > 1, arguments.allSatisfy({ argument in
                if case .array = guessedType(of: argument.value, in: scope) { true } else { false }
            }) {
                // Swift's `zip` of arrays is an array of tuples: `zip(xs, ys).map { ... }` is the array's map.
                made.isStream = false
            }
            return made
        }
    }
}
