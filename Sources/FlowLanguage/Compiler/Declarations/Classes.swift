import FlowRuntime

/// Classes: objects with one identity that every name holding them shares,
/// made by an `init`, inheriting from one superclass, and gone (their
/// `deinit` run) when the last reference goes, as in Swift.
extension Compiler {
    // MARK: - Inheritance

    /// Links each class declared in `scope` to its superclass, when the
    /// first name it inherits from is one of the script's classes, and
    /// gives it what it inherits. Other names (`NSObject`,
    /// `ObservableObject`, protocols) are accepted and mean nothing more.
    func linkClasses(in scope: Scope) {
        var linking: Set<ObjectIdentifier> = []
        func link(_ type: DeclaredType) {
            guard type.isClass, type.objectClass == nil else { return }
            guard linking.insert(ObjectIdentifier(type)).inserted else {
                error("'\(type.name)' inherits from itself", type.declaration.nameSpan)
                return
            }
            if let first = type.declaration.conformances.first, let parent = scope.lookupType(first) {
                if parent.isClass {
                    link(parent)
                    type.superclass = parent.objectClass == nil ? nil : parent
                } else if type.declaration.conformances.count > 0 {
                    error("a class inherits from a class only: '\(first)' is a \(parent.declaration.kind.word)", type.declaration.nameSpan)
                }
            }
            inherit(into: type)
            type.objectClass = ObjectClass(name: type.name, fieldNames: type.allStored.map(\.name),
                                           publishedFields: type.allStored.map(\.isPublished), weakFields: type.allStored.map(\.isWeak),
                                           superclass: type.superclass?.objectClass)
        }
        for type in scope.types.values.sorted(by: { $0.declaration.span.start < $1.declaration.span.start }) { link(type) }
    }

    /// A subclass has its superclass's members it does not override, and
    /// its `init`s when it declares none, as Swift's subclasses do.
    private func inherit(into type: DeclaredType) {
        let declaration = type.declaration
        type.initialisers = declaration.initialisers.map { initialiser in
            let info = FunctionInfo(initialiser, location: location(initialiser.nameSpan), hasSelf: true)
            info.home = type.scope
            return info
        }
        if let body = declaration.deinitialiser {
            let deinitialiser = FunctionDeclaration(name: "deinit", nameSpan: declaration.nameSpan, parameters: [], body: body,
                                                    isMutating: false, isStatic: false, span: declaration.span)
            let info = FunctionInfo(deinitialiser, location: location(declaration.nameSpan), hasSelf: true)
            info.home = type.scope
            type.deinitialisers = [info]
        }
        type.lazyGetters = declaration.stored.filter(\.isLazy).map { property in
            let getter = FunctionDeclaration(name: property.name, nameSpan: property.span, parameters: [],
                                             body: [.return(property.defaultValue, property.span)], isMutating: false, isStatic: false,
                                             span: property.span)
            let info = FunctionInfo(getter, location: location(property.span), hasSelf: true)
            info.home = type.scope
            return info
        }
        guard let parent = type.superclass else { return }
        type.lazyGetters = parent.lazyGetters + type.lazyGetters
        for (name, info) in parent.methods where type.methods[name] == nil { type.methods[name] = info }
        for (name, info) in parent.computed where type.computed[name] == nil { type.computed[name] = info }
        for (name, accessors) in parent.accessors where type.accessors[name] == nil { type.accessors[name] = accessors }
        for (name, info) in parent.staticMethods where type.staticMethods[name] == nil { type.staticMethods[name] = info }
        for (name, info) in parent.staticComputed where type.staticComputed[name] == nil { type.staticComputed[name] = info }
        for (name, value) in parent.staticValues where type.staticValues[name] == nil { type.staticValues[name] = value }
        if type.initialisers.isEmpty { type.initialisers = parent.initialisers }
        type.deinitialisers += parent.deinitialisers
    }

    /// A class's `init`s, `deinit` and property defaults, compiled where it
    /// is declared.
    func compileClassMembers(of type: DeclaredType) {
        // A lazy property's value is its getter's, made when first read.
        type.fieldDefaults = type.allStored.map { property in
            property.isLazy ? nil : property.defaultValue.map { compiledDefault($0, of: property, in: type.scope) }
        }
        for info in type.lazyGetters where type.declaration.stored.contains(where: { $0.isLazy && $0.span == info.declaration.nameSpan }) {
            compileFunction(info, in: type.scope, selfType: type)
        }
        for info in type.initialisers where info.home === type.scope && type.declaration.initialisers.contains(where: { $0 === info.declaration }) {
            compileFunction(info, in: type.scope, selfType: type)
        }
        if let own = type.deinitialisers.first, type.declaration.deinitialiser != nil {
            compileFunction(own, in: type.scope, selfType: type)
        }
        // A subclass inherits its superclass's inits only when its own
        // properties all have values without one, as in Swift.
        let unset = type.declaration.stored.filter { !$0.isLazy && $0.defaultValue == nil && !($0.isVariable && $0.isOptional) }
        if type.declaration.initialisers.isEmpty, let needing = unset.first {
            error("class '\(type.name)' has no initialisers: '\(needing.name)' has no value", needing.span,
                  help: "give it a default value, or write an init that sets it")
        }
        if !unset.isEmpty {
            for initialiser in type.declaration.initialisers { checkInitialisation(initialiser, of: type, sets: unset) }
        }
    }

    /// Swift's two-phase initialisation: a class's `init` sets its own
    /// properties on every path, before `super.init` (whose init may call
    /// a method this class overrides, which would read them unset), or by
    /// its end. Compile-time errors, as Swift's are, where flow would read
    /// nil.
    private func checkInitialisation(_ initialiser: FunctionDeclaration, of type: DeclaredType,
                                     sets properties: [TypeDeclaration.StoredProperty]) {
        let body = initialiser.body
        let delegation = body.indices.lazy.compactMap { i in Self.delegatingInit(in: body[i]).map { (index: i, call: $0) } }.first
        switch delegation {
        case let (index, call)? where call.who == "super":
            let set = Self.propertiesSet(by: body[..<index], already: []) ?? Set(properties.map(\.name))
            for property in properties where !set.contains(property.name) {
                error("'\(property.name)' is not set before super.init", call.nameSpan,
                      help: "set self.\(property.name) before calling super.init(): a class's own properties are set first, "
                          + "so the superclass's init, and a method of this class it calls, can read them")
            }
        case .some:
            return // self.init(...) sets them all
        case nil:
            if body.contains(where: Self.delegatesInside) { return }
            guard let set = Self.propertiesSet(by: body[...], already: []) else { return }
            for property in properties where !set.contains(property.name) {
                error("this init can end without setting '\(property.name)'", initialiser.nameSpan,
                      help: "set self.\(property.name) on every path through the init, or give it a default value")
            }
        }
    }

    /// `super.init(...)` or `self.init(...)` as a statement.
    private static func delegatingInit(in statement: Statement) -> (who: String, nameSpan: Span)? {
        guard case .expression(var expression) = statement else { return nil }
        while case .attempt(let inner, _) = expression { expression = inner }
        guard case .call(.member(.name(let who, _), "init", let nameSpan, _), _, _) = expression, who == "super" || who == "self" else { return nil }
        return (who, nameSpan)
    }

    /// Whether a delegating init is called inside a statement's blocks
    /// (not as the statement itself): such an init is left unchecked.
    private static func delegatesInside(_ statement: Statement) -> Bool {
        func blocks(_ statement: Statement) -> [[Statement]] {
            switch statement {
            case .expression(.conditional(let branch)): return [branch.body, branch.elseBody ?? []]
            case .expression(.switchOver(let choice)): return choice.cases.map(\.body)
            case .guard(_, let otherwise, _): return [otherwise]
            case .while(_, let body, _), .repeat(let body, _, _), .for(_, _, _, let body, _): return [body]
            case .doCatch(let body, let catches, _): return [body] + catches.map(\.body)
            default: return []
            }
        }
        return blocks(statement).joined().contains { delegatingInit(in: $0) != nil || delegatesInside($0) }
    }

    /// The properties of `self` that `statements` set on every path
    /// through them, or nil when no path comes out of their end (each
    /// returns or throws).
    private static func propertiesSet(by statements: ArraySlice<Statement>, already: Set<String>) -> Set<String>? {
        func both(_ a: Set<String>?, _ b: Set<String>?) -> Set<String>? {
            guard let a else { return b }
            guard let b else { return a }
            return a.intersection(b)
        }
        func targets(_ target: Expr) -> [String] {
            switch target {
            case .name(let name, _), .member(.name("self", _), let name, _, _): return [name]
            case .tuple(let elements, _, _): return elements.flatMap(targets)
            default: return []
            }
        }
        var set = already
        for statement in statements {
            switch statement {
            case .assignment(let target, .assign, _, _, _):
                set.formUnion(targets(target))
            case .return, .throw:
                return nil
            case .expression(.conditional(let branch)):
                guard let after = both(propertiesSet(by: branch.body[...], already: set),
                                       branch.elseBody.map { propertiesSet(by: $0[...], already: set) } ?? set) else { return nil }
                set = after
            case .expression(.switchOver(let choice)) where !choice.cases.isEmpty:
                guard let after = choice.cases.map({ propertiesSet(by: $0.body[...], already: set) }).reduce(nil as Set<String>?, { partial, next in
                    partial == nil ? next : both(partial, next)
                }) else { return nil }
                set = after
            case .repeat(let body, _, _):
                // Its body runs at least once.
                set = propertiesSet(by: body[...], already: set) ?? set
            case .doCatch(let body, let catches, _):
                guard let after = catches.reduce(propertiesSet(by: body[...], already: set), { both($0, propertiesSet(by: $1.body[...], already: set)) })
                else { return nil }
                set = after
            default:
                break
            }
        }
        return set
    }

    // MARK: - Making objects

    /// `Counter(start: 3)`: a new object, its properties set to their
    /// defaults, then the `init` whose labels fit run on it. A failable
    /// `init?` that returns nil makes nil.
    func compileObjectConstruction(_ type: DeclaredType, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                                   in scope: Scope) -> Code {
        guard let objectClass = type.objectClass else { return { _ in .null } }
        let initialiser: (info: FunctionInfo, bound: BoundArguments)?
        if type.initialisers.isEmpty {
            if let first = arguments.first {
                error("'\(type.name)' has no init that takes arguments", first.labelSpan ?? first.value.span,
                      help: "write an init(...) in the class, or make it with \(type.name)()")
                return { _ in .null }
            }
            initialiser = nil
        } else {
            let fitting = type.initialisers.first { bindArguments(arguments, to: $0.parameters, of: "init", at: span, report: false) != nil }
            guard let info = fitting else {
                if type.initialisers.count == 1 {
                    _ = bindArguments(arguments, to: type.initialisers[0].parameters, of: "\(type.name).init", at: span)
                } else {
                    error("no init of '\(type.name)' takes these arguments", nameSpan,
                          help: "its inits are " + type.initialisers.map { "init(" + $0.parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }
                              .joined(separator: ", "))
                }
                return { _ in .null }
            }
            let binding = bindArguments(arguments, to: info.parameters, of: "init", at: span, report: false)!
            initialiser = (info, compileBoundArguments(arguments, binding, info.parameters, in: scope))
        }
        let classDepth = scope.depth(to: type.scope)
        let initDepth = initialiser.map { scope.depth(to: $0.info.home ?? type.scope) } ?? 0
        let deinitHomes = type.deinitialisers.map { scope.depth(to: $0.home ?? type.scope) }
        let deinitialisers = type.deinitialisers
        let lazyFields = type.allStored.enumerated().compactMap { i, property -> (Int, FunctionInfo, Int)? in
            guard property.isLazy, let getter = type.lazyGetters.first(where: { $0.declaration.nameSpan == property.span }) else { return nil }
            return (i, getter, scope.depth(to: getter.home ?? type.scope))
        }
        let env = environment
        let location = self.location(span)
        let making = "making \(type.name)"
        return { frame in
            // Making objects is work: a deinit that makes the next object
            // (or two classes' deinits making each other) never ends, and
            // is stopped with the budget, Ctrl-C, or its depth.
            if env.countsAStride() { try env.checkWork(making, at: location) }
            if ObjectRelease.generationOfNewObjects > ObjectRelease.deepestGeneration {
                throw FlowError("\(making) stopped: a deinit made an object whose deinit made another, "
                                + "\(ObjectRelease.deepestGeneration) deinits deep, which never ends (in Swift the stack would overflow); "
                                + "make the object outside the deinit", at: location)
            }
            let home = frame.ancestor(classDepth)
            // Read when the call runs: defaults are compiled where the class
            // is declared, possibly after this call.
            var fields: [Value] = []
            fields.reserveCapacity(type.fieldDefaults.count)
            for (i, code) in type.fieldDefaults.enumerated() {
                let value = try code?(home) ?? .null
                fields.append(objectClass.publishedFields[i] ? .stream(PublishedSubject(value)) : value)
            }
            for (i, getter, depth) in lazyFields {
                let parent = frame.ancestor(depth)
                fields[i] = .function(LazyProperty { object in try getter.run(parent: parent, self: object, arguments: []) })
            }
            let object = ScriptObject(objectClass, fields: fields)
            for (i, isWeak) in objectClass.weakFields.enumerated() where isWeak { object.fields[i] = object.stored(fields[i], at: i) }
            if !deinitialisers.isEmpty, objectClass.deinitializerOwner !== home {
                let frames = deinitHomes.map { frame.ancestor($0) }
                objectClass.deinitializerOwner = home
                objectClass.deinitializer = { dying in
                    for (info, parent) in zip(deinitialisers, frames) {
                        do { _ = try info.run(parent: parent, self: .object(dying), arguments: []) } catch {
                            let failure = FlowError.wrap(error).located(at: info.location)
                            env.run.failed(failure, report: env.reportStreamError)
                            // Stopped (Ctrl-C, the budget, the depth): the
                            // whole chain ends here with this one error.
                            if env.deinitChainMustEnd {
                                ObjectRelease.endChain()
                                return
                            }
                        }
                    }
                }
            }
            guard let (info, bound) = initialiser else { return .object(object) }
            do {
                _ = try Self.invoke(bound, slotOffset: 1, in: frame) { values, after in
                    try info.run(parent: frame.ancestor(initDepth), self: .object(object), arguments: values, after: after)
                }
            } catch is FailedInitialisation {
                return .null
            }
            return .object(object)
        }
    }

    /// `super.init(...)` and `self.init(...)` inside an `init`: another
    /// `init` run on the object being made.
    func compileDelegatingInit(_ who: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        guard let methodScope = scope.methodScope, let own = methodScope.selfType, own.isClass, methodScope.isInitialiser else {
            error("'\(who).init' can only be called in a class's init", nameSpan)
            return { _ in .null }
        }
        let type = who == "super" ? own.superclass : own
        guard let type else {
            // `super.init()` of NSObject or another class flow does not know: nothing to run.
            _ = compileArguments(arguments, in: scope)
            return { _ in .null }
        }
        guard let info = type.initialisers.first(where: { bindArguments(arguments, to: $0.parameters, of: "init", at: span, report: false) != nil }) else {
            if let first = type.initialisers.first {
                _ = bindArguments(arguments, to: first.parameters, of: "\(type.name).init", at: span)
            } else if !arguments.isEmpty {
                error("'\(type.name)' has no init that takes arguments", nameSpan)
            }
            return { _ in .null }
        }
        let binding = bindArguments(arguments, to: info.parameters, of: "init", at: span, report: false)!
        return compileRunOnSelf(info, binding, arguments, nameSpan, home: info.home ?? type.scope, in: scope)
    }

    /// Another `init` or a superclass's method run on `self`, with the call's arguments.
    private func compileRunOnSelf(_ info: FunctionInfo, _ binding: [Int?], _ arguments: [CallArgument], _ nameSpan: Span,
                                  home: Scope, in scope: Scope) -> Code {
        let bound = compileBoundArguments(arguments, binding, info.parameters, in: scope)
        let readSelf = compile(.name("self", nameSpan), in: scope)
        let depth = scope.depth(to: home)
        return { frame in
            let object = try readSelf(frame)
            return try Self.invoke(bound, slotOffset: 1, in: frame) { values, after in
                try info.run(parent: frame.ancestor(depth), self: object, arguments: values, after: after)
            }
        }
    }

    /// `super.method(...)`: the superclass's method, run on this object.
    func compileSuperCall(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        guard let own = scope.methodScope?.selfType, own.isClass, let parent = own.superclass,
              let info = parent.methods[name] else {
            if scope.methodScope?.selfType?.superclass == nil {
                // A superclass flow does not know (`UIViewController`): its methods do nothing.
                _ = compileArguments(arguments, in: scope)
                return { _ in .null }
            }
            error("the superclass has no method '\(name)'", nameSpan)
            return { _ in .null }
        }
        guard let binding = bindArguments(arguments, to: info.parameters, of: "super.\(name)", at: span) else { return { _ in .null } }
        return compileRunOnSelf(info, binding, arguments, nameSpan, home: info.home ?? parent.scope, in: scope)
    }

    /// `self` in a class's method. A closure made in the method reads it
    /// from the method's frame, which lets go of the object when the
    /// method returns unless a closure uses `self` without `[weak self]`:
    /// then it is nil in those closures once the object is gone.
    func compileObjectSelf(depth: Int, slot: Int, methodScope: Scope, in scope: Scope) -> Code {
        if depth > 0 {
            var s: Scope? = scope, weakly = false
            while let current = s, current !== methodScope {
                if current.capturesSelfWeakly { weakly = true }
                s = current.parent
            }
            if !weakly { methodScope.selfCapturedStrongly = true }
        }
        return { frame in
            let value = (depth == 0 ? frame : frame.ancestor(depth)).slots[slot]
            if case .function(let held as WeakObject) = value { return held.value }
            return value
        }
    }
}

/// `return nil` in a failable `init?`: the object is not made.
struct FailedInitialisation: Error {}
