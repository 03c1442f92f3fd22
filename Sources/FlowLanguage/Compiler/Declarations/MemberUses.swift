/// What `Program.memberUses` (an editor's definitions) is told of the
/// member names whose receiver is one of the script's types: nothing is
/// noted unless an editor asked, so `check` and `run` compile as before.
extension Compiler {
    /// A member of `type` named at `nameSpan`: static (`Coin.usd`, `.usd`,
    /// `Price.zero`) or of a value of the type.
    func noteMemberUse(_ name: String, at nameSpan: Span, of type: DeclaredType?, isStatic: Bool) {
        guard environment.memberUses != nil, let type, let declared = Self.declaredMember(name, of: type, isStatic: isStatic) else { return }
        // An implicit member's span holds its dot (`.usd`): the name is its end.
        let length = name.utf8.count
        environment.memberUses?[nameSpan.end - nameSpan.start > length ? Span(nameSpan.end - length, nameSpan.end) : nameSpan] = declared
    }

    /// A member read or called on `base`, whose type the compiler knows as
    /// `type`, or which is `self` (or `super`) in a method.
    func noteMemberUse(_ name: String, at nameSpan: Span, on base: Expr, typed type: StaticType, in scope: Scope) {
        guard environment.memberUses != nil else { return }
        if case .name(let word, _) = base, word == "self" || word == "super", let methodScope = scope.methodScope,
           let selfType = methodScope.selfType, scope.lookup(word) == nil || word == "self" {
            noteMemberUse(name, at: nameSpan, of: word == "super" ? selfType.superclass : selfType, isStatic: methodScope.isStatic)
            return
        }
        guard let typeName = type.nominalName else { return }
        noteMemberUse(name, at: nameSpan, of: resolveType(typeName, in: scope), isStatic: false)
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
