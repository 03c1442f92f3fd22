import FlowRuntime

/// What `receiver.name(arguments)` means. Each kind of meaning is asked in
/// the order of `MethodCallMeaning.order`, and the first that applies
/// wins: the order is data, which docs/architecture.md states and a test
/// reads. The script's own members come before the language's special
/// forms and every library name, as a type's members do in Swift: a
/// class's `sync()` or `store(_:)` is its own. Where the receiver's type
/// is known only when the script runs, a member of the script's types is
/// dispatched by that type, and any other value takes the meaning the
/// kinds after it give.
enum MethodCallMeaning {
    enum Kind: String, CaseIterable {
        /// `expect(s).toBe(...)`, a test's expectation (and `expect(s).toBee`,
        /// its vocabulary misused).
        case expectation
        /// `file.read(...)`, where `file` is a module and no name of the script.
        case module
        /// `super.method()`, `self.init(...)`, `super.init(...)`.
        case superOrDelegatingInit
        /// `Cart.make()`, `Cart.Line(...)`: a static member or nested type of the script's.
        case scriptType
        /// A method (or a closure held in a property) the script's types
        /// declare, or a method that changes its receiver (`append`).
        case scriptMember
        /// The language's forms that read their call: `store(in: &set)`,
        /// `DispatchQueue`'s `async`, `asyncAfter` and `sync`, the JSON
        /// coders' `decode(_:from:)` and `encode(_:)`.
        case specialForm
        /// A library type's static member: `Observable.just(1)`,
        /// `Disposables.create`, `DispatchQueue.global()`.
        case libraryType
        /// Operators, subscriptions, collection helpers, modules' methods.
        case valueMethod
    }

    /// The order meanings are asked in.
    static let order: [Kind] = Kind.allCases
}

extension Compiler {
    func compileMethodCall(
        _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope,
        from first: Int = 0
    ) -> CompiledExpression {
        for (index, kind) in MethodCallMeaning.order.enumerated().dropFirst(first) {
            if let compiled = compileMethodCall(as: kind, base, name, nameSpan, arguments, span, in: scope, next: index + 1) {
                return compiled
            }
        }
        return compileValueMethodCall(base, name, nameSpan, arguments, span, in: scope)
    }

    /// The call compiled with the meaning `kind` gives it; nil where that
    /// meaning does not apply. `next` is where the meanings after it start,
    /// for values a script member's dispatch leaves to them.
    private func compileMethodCall(
        as kind: MethodCallMeaning.Kind, _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
        in scope: Scope, next: Int
    ) -> CompiledExpression? {
        switch kind {
        case .expectation:
            guard case .call(.name("expect", _), let expectArgs, let expectSpan) = base, scope.lookup("expect") == nil else { return nil }
            if name == "toBe" { return CompiledExpression(compileExpectation(expectArgs, expectSpan, toBe: arguments, span, in: scope)) }
            error("an expectation is completed with toBe, as in expect(s).toBe(\"-a-|\")", nameSpan,
                  help: Suggestions.didYouMean(name, among: ["toBe"]))
            return CompiledExpression { _ in .null }
        case .module:
            // A name of the script's (a `let`, or a property of `self`: a class's `log`) hides a module of that name.
            guard case .name(let moduleName, _) = base, scope.lookup(moduleName) == nil, !isImplicitSelf(moduleName, in: scope),
                  let module = modules[moduleName] else { return nil }
            facts.usedModules.insert(moduleName)
            return CompiledExpression(compileModuleCall(module, name, nameSpan, arguments, span, in: scope))
        case .superOrDelegatingInit:
            guard case .name(let who, _) = base, who == "super" || who == "self" && name == "init", scope.lookup("super") == nil else { return nil }
            if name == "init" { return CompiledExpression(compileDelegatingInit(who, nameSpan, arguments, span, in: scope)) }
            return CompiledExpression(compileSuperCall(name, nameSpan, arguments, span, in: scope))
        case .scriptType:
            guard let type = resolveType(base, in: scope) else { return nil }
            if let nested = resolveType(.member(base, name, nameSpan: nameSpan, nameSpan), in: scope) {
                return CompiledExpression(compileConstruction(nested, nameSpan, arguments, span, in: scope)).typed(.named(nested.name), sure: true)
            }
            let result = type.staticMethods[name].flatMap { writtenResultType(of: $0.allOverloads, in: scope) }
            let called = CompiledExpression(compileStaticCall(type, name, nameSpan, arguments, span, in: scope))
            if case .name(_, let typeNameSpan) = base, result?.nominalName == type.name,
               let generic = writtenGenericType(of: type, at: typeNameSpan, in: scope) {
                // `Stack<Double>.of(1)`: a factory of the type gives a `Stack<Double>`.
                return converted(called, to: generic)
            }
            return called.typed(result ?? (type.caseNamed(name) != nil ? .named(type.name) : .unknown), sure: result != nil)
        case .scriptMember:
            return compileScriptMemberCall(base, name, nameSpan, arguments, span, in: scope, next: next)
        case .specialForm:
            if name == "store", arguments.count == 1, arguments[0].label == "in", case .inoutArgument(let target, _) = arguments[0].value {
                return CompiledExpression(compileStore(base, into: target, nameSpan, in: scope))
            }
            if name == "async" || name == "asyncAfter" || name == "sync" {
                return CompiledExpression(compileDispatchCall(base, name, nameSpan, arguments, in: scope))
            }
            if name == "decode" || name == "encode", let coderCall = compileCoderCall(base, name, nameSpan, arguments, in: scope) {
                return CompiledExpression(coderCall)
            }
            return compileURLSessionCall(base, name, nameSpan, arguments, in: scope)
        case .libraryType:
            return compileLibraryTypeCall(base, name, nameSpan, arguments, span, in: scope)
        case .valueMethod:
            return compileValueMethodCall(base, name, nameSpan, arguments, span, in: scope)
        }
    }

    /// A method the script's types declare, dispatched by the receiver's
    /// type; values of other types take the later meanings.
    private func compileScriptMemberCall(
        _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope, next: Int
    ) -> CompiledExpression? {
        let declaredMethod = scope.visibleTypes.contains { $0.methods[name] != nil }
        guard declaredMethod || ValueMethods.changingNames.contains(name) else { return nil }
        // `Swift.print`, `Observable.just`: a library's type or module is no value.
        if case .name(let typeName, _) = base, typeName.isCapitalised, scope.lookup(typeName) == nil, resolveType(typeName, in: scope) == nil {
            return nil
        }
        let arguments = argumentsOfGenericReceiver(base, name, arguments, in: scope)
        if environment.memberUses != nil { noteMemberUse(name, at: nameSpan, on: base, typed: guessedType(of: base, in: scope), in: scope) }
        let labels = arguments.map(\.label)
        // What the name means for values not of the script's types: where
        // that meaning does not fit this call, reaching it is an error then.
        let location = self.location(nameSpan)
        let laterMeaning: (Expr) -> Code = { receiver in
            let (code, failed) = self.compileQuietly { self.compileMethodCall(receiver, name, nameSpan, arguments, span, in: scope, from: next).code }
            guard failed else { return code }
            let given = Self.callShape(name, labels)
            let value = self.compile(receiver, in: scope)
            return { frame in
                let value = try value(frame)
                throw FlowError("\(value.typeName) \(value.literal) has no method \(given)", at: location)
            }
        }
        // A receiver of one of the script's types has no other meaning.
        var receiverType = StaticType.unknown
        if case .named(let typeName) = guessedType(of: base, in: scope), resolveType(typeName, in: scope) != nil {
            receiverType = .named(typeName)
        }
        let hasOtherMeaning = receiverType == .unknown && (Builtins.isSubscribing(name, labels: labels) || methodMeaning(name, labels: labels) != nil
            || Self.specialFormNames.contains(name))
        let result = scope.visibleTypes.compactMap { $0.methods[name] }
        let resultType = result.isEmpty ? nil : writtenResultType(of: result.flatMap(\.allOverloads), in: scope)
        if let dispatch = compileMethodDispatch(base, name, nameSpan, arguments, span, in: scope, fallback: hasOtherMeaning ? laterMeaning : nil) {
            // Neither a specialised form nor a stream: the value's type decides when it runs.
            return CompiledExpression(dispatch, type: hasOtherMeaning ? .unknown : resultType ?? .unknown,
                                      typeIsSure: !hasOtherMeaning && resultType != nil)
        }
        // The operators that share a mutating method's name (`append`) take
        // unlabelled values: a labelled form is the mutating method's.
        let operatorMayFit = hasOtherMeaning && labels.allSatisfy { $0 == nil }
        if let mutation = compileChangingMethodCall(base, name, nameSpan, arguments, in: scope, fallback: operatorMayFit ? laterMeaning : nil) {
            return CompiledExpression(mutation)
        }
        var call = compileMethodCall(base, name, nameSpan, arguments, span, in: scope, from: next)
        // A method of the script's types, or one that changes its receiver,
        // shares the name: the value is not surely the operator's stream.
        call.isStream = false
        return call
    }

    /// `store(_:in:)`: how a call's name and labels read.
    static func callShape(_ name: String, _ labels: [String?]) -> String {
        name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }

    /// Names the language's special forms read.
    static let specialFormNames: Set<String> = ["store", "async", "asyncAfter", "sync"]

    private func compileLibraryTypeCall(
        _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> CompiledExpression? {
        guard case .name(let type, let typeSpan) = base, scope.lookup(type) == nil else { return nil }
        // `Observable.just(1)`, `Publishers.Merge(a, b)`, `ReplaySubject.create(bufferSize: 2)`:
        // a type's static member is the free function of that name.
        if operatorTable.resolve("\(type).\(name)", labels: arguments.map(\.label)) != nil {
            return compileFunctionCall("\(type).\(name)", typeSpan.to(nameSpan), arguments, span, in: scope)
        }
        if name == "random", RandomValues.typeNames.contains(type), resolveType(type, in: scope) == nil {
            return compileRandomCall(type, nameSpan, arguments, in: scope)
        }
        if type == "Optional", name == "some", resolveType(type, in: scope) == nil, arguments.count == 1, arguments[0].label == nil {
            return compileOptionalWrapping(arguments[0].value, typeSpan: typeSpan, in: scope)
        }
        if type == "Disposables", name == "create" {
            // What `Observable.create`'s closure returns: its teardown
            // closure, or nothing to do.
            let args = compileArguments(arguments, in: scope)
            if args.codes.count > 1 || args.labels.contains(where: { $0 != nil }) {
                error("Disposables.create takes nothing or one closure, run when the subscription ends", nameSpan)
            }
            return CompiledExpression { frame in try args.evaluate(frame).first ?? .null }
        }
        if SwiftVocabulary.namespaces.contains(type) {
            return compileFunctionCall(name, nameSpan, arguments, span, in: scope)
        }
        if name == "Name", type == "Notification" || type == "NSNotification", arguments.count == 1, arguments[0].label == nil {
            // `Notification.Name("didLogin")`.
            let raw = compile(arguments[0].value, in: scope)
            return CompiledExpression { frame in NotificationValue.makeName(try raw(frame).asString()) }
        }
        if UnsupportedAPIs.named(type) != nil, resolveType(type, in: scope) == nil {
            // `Timer.scheduledTimer(...)`, `UserDefaults.standard.set(...)`: one error, saying what to write instead.
            unknownName(type, typeSpan, in: scope)
            return CompiledExpression { _ in .null }
        }
        if SwiftVocabulary.schedulers[type] != nil {
            // `DispatchQueue.global(qos: .background)`: compiled for its
            // mistakes, then a scheduler like the others.
            _ = compileArguments(arguments, in: scope)
            let scheduler = SwiftVocabulary.scheduler("\(type).\(name)")
            return CompiledExpression { _ in scheduler }
        }
        return nil
    }
}
