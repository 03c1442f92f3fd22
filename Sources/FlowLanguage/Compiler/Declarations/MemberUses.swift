/// What `Program.memberUses` (an editor's definitions) is told of the
/// member names whose receiver's type the compiler knows, and of the calls
/// of the script's funcs: for each, the declaration the compiled code
/// reaches (among overloads, the one the call's labels and arguments
/// chose). Nothing is noted unless an editor asked, so `check` and `run`
/// compile as before.
extension Compiler {
    /// The name written at `nameSpan` means the declaration whose name is at
    /// `declared`. An implicit member's span holds its dot (`.usd`): the
    /// name is its end.
    private func noteUse(_ name: String, at nameSpan: Span, declaredAt declared: Span) {
        let length = name.utf8.count
        environment.memberUses?[nameSpan.end - nameSpan.start > length ? Span(nameSpan.end - length, nameSpan.end) : nameSpan] = declared
    }

    /// A member of `type` named at `nameSpan`: static (`Coin.usd`, `.usd`,
    /// `Price.zero`) or of a value of the type. `chosen`: the method a call
    /// reaches on a value of each type, where overloads were chosen among.
    func noteMemberUse(_ name: String, at nameSpan: Span, of type: DeclaredType?, isStatic: Bool,
                       chosen: [(type: DeclaredType, method: FunctionInfo)] = []) {
        guard environment.memberUses != nil, let type else { return }
        var current: DeclaredType? = type
        while !chosen.isEmpty, let candidate = current {
            // A subclass holds its superclass's methods as its own.
            if let method = chosen.first(where: { $0.type === candidate })?.method {
                return noteUse(name, at: nameSpan, declaredAt: method.declaration.nameSpan)
            }
            current = candidate.superclass
        }
        guard let declared = Self.declaredMember(name, of: type, isStatic: isStatic) else { return }
        noteUse(name, at: nameSpan, declaredAt: declared)
    }

    /// A static method called on `type` (`Price.make(1)`): among its
    /// overloads, the one the call chose.
    func noteStaticCall(_ name: String, at nameSpan: Span, of type: DeclaredType, reaching method: FunctionInfo) {
        guard environment.memberUses != nil else { return }
        noteUse(name, at: nameSpan, declaredAt: method.declaration.nameSpan)
    }

    /// A call of one of the script's funcs by its name (`area(width: 2)`):
    /// among the funcs of that name, the one the call chose.
    func noteFunctionCall(_ name: String, at nameSpan: Span, reaching function: FunctionInfo) {
        guard environment.memberUses != nil else { return }
        noteUse(name, at: nameSpan, declaredAt: function.declaration.nameSpan)
    }

    /// A member read or called on `base`, whose type the compiler knows as
    /// `type` (however deep: `a.wallet.total()`, `$0.total()`, a func's
    /// result), or which is `self` (or `super`) in a method. A value typed
    /// by one of the script's protocols means the protocol's requirement,
    /// or the method an extension of the protocol gives it. `chosen`: as
    /// for `noteMemberUse(_:at:of:isStatic:chosen:)`.
    func noteMemberUse(_ name: String, at nameSpan: Span, on base: Expr, typed type: StaticType, in scope: Scope,
                       chosen: [(type: DeclaredType, method: FunctionInfo)] = []) {
        guard environment.memberUses != nil else { return }
        if case .name(let word, _) = base, word == "self" || word == "super", let methodScope = scope.methodScope,
           let selfType = methodScope.selfType, scope.lookup(word) == nil || word == "self" {
            noteMemberUse(name, at: nameSpan, of: word == "super" ? selfType.superclass : selfType, isStatic: methodScope.isStatic,
                          chosen: word == "super" ? [] : chosen)
            return
        }
        guard let typeName = type.unwrapped.nominalName else { return }
        if let declared = resolveType(typeName, in: scope) {
            noteMemberUse(name, at: nameSpan, of: declared, isStatic: false, chosen: chosen)
        } else if let declared = protocolMember(name, of: typeName, in: scope) {
            noteUse(name, at: nameSpan, declaredAt: declared)
        }
    }

    /// Where protocol `name`'s member is declared: its requirement (its
    /// own or one it inherits), else a method or property an extension of
    /// the protocol gives.
    private func protocolMember(_ member: String, of name: String, in scope: Scope) -> Span? {
        var pending = [name], seen: Set<String> = []
        while let next = pending.popLast() {
            guard seen.insert(next).inserted, let declaration = scope.lookupProtocol(next) else { continue }
            if let requirement = declaration.requirements.first(where: { $0.name == member }) { return requirement.span }
            pending += declaration.conformances.reversed()
        }
        for extensionDeclaration in protocolExtensions where seen.contains(extensionDeclaration.name) {
            if let method = extensionDeclaration.methods.first(where: { $0.name == member }) { return method.nameSpan }
            if let computed = extensionDeclaration.computed.first(where: { $0.name == member }) { return computed.span }
        }
        return nil
    }

    /// The type of a place (`a.wallet`, `$0`, `items[0]`) as far as its
    /// declarations tell, without compiling it again: where a member is
    /// assigned or a mutating method is called, for the editor only.
    func placeType(_ place: Expr, in scope: Scope) -> StaticType {
        switch place {
        case .name(let name, _):
            if name == "self", scope.lookup("self") == nil, let selfType = scope.methodScope?.selfType { return .named(selfType.name) }
            return guessedType(of: place, in: scope)
        case .shorthand(let n, _):
            guard let closure = scope.enclosingClosure else { return .unknown }
            let sure = n < closure.shorthandTypes.count ? closure.shorthandTypes[n] : .unknown
            return sure.isKnown || n >= closure.shorthandHints.count ? sure : closure.shorthandHints[n]
        case .member(let base, let name, _, _):
            return memberType(of: placeType(base, in: scope).unwrapped, name, in: scope)?.type ?? .unknown
        case .subscriptAccess(let base, _, _):
            return placeType(base, in: scope).subscripted
        case .forceUnwrap(let base, _), .optionalBind(let base, _):
            return placeType(base, in: scope).unwrapped
        default:
            return guessedType(of: place, in: scope)
        }
    }

    /// A case in a pattern (`case .loaded(let v):`, `if case Coin.usd = c`),
    /// whose span is the whole pattern's: its name is the one after a dot.
    func noteCaseUse(_ name: String, of type: DeclaredType, inPattern span: Span) {
        guard environment.memberUses != nil else { return }
        let written = Array(("." + name).utf8), bytes = file.bytes
        var start = span.start
        while start + written.count <= Swift.min(span.end, bytes.count) {
            if bytes[start..<start + written.count].elementsEqual(written) {
                noteMemberUse(name, at: Span(start + 1, start + written.count), of: type, isStatic: true)
                return
            }
            start += 1
        }
    }

    /// Where `type`'s member `name` is declared (its name's span), its
    /// superclasses' too; extensions' methods have joined the type's.
    static func declaredMember(_ name: String, of type: DeclaredType, isStatic: Bool) -> Span? {
        var current: DeclaredType? = type
        while let type = current {
            let declaration = type.declaration
            if isStatic {
                if let item = declaration.cases.first(where: { $0.name == name }) { return item.span }
                if let stored = declaration.staticStored.first(where: { $0.name == name }) { return stored.span }
                if let member = type.staticMethods[name] ?? type.staticComputed[name] { return member.declaration.nameSpan }
            } else {
                if let stored = declaration.stored.first(where: { $0.name == name }) { return stored.span }
                if let member = type.methods[name] ?? type.computed[name] { return member.declaration.nameSpan }
            }
            current = type.superclass
        }
        return nil
    }
}
