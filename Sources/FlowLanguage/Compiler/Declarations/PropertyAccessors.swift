import FlowRuntime

/// What assigning a property runs besides storing a value, as in Swift: a
/// computed property's `set`, or a stored property's `willSet` and
/// `didSet`. Each accessor is a method of one parameter (`newValue`,
/// `oldValue` or the name the accessor gives), `mutating` in a struct.
struct PropertyAccessors {
    /// A computed property's getter, which a compound assignment (`+=`) reads.
    var getter: FunctionInfo?
    var setter: FunctionInfo?
    var willSet: FunctionInfo?
    var didSet: FunctionInfo?

    var isComputed: Bool { getter != nil }
    var functions: [FunctionInfo] { [setter, willSet, didSet].compactMap { $0 } }
}

extension Compiler {
    /// The accessors `declaration` writes, as methods of `type`, added to
    /// its table; the functions made, to compile with its other members.
    func addAccessors(of declaration: TypeDeclaration, to type: DeclaredType) -> [FunctionInfo] {
        var added: [FunctionInfo] = []
        func method(_ accessor: TypeDeclaration.PropertyAccessor?, of property: String, typed: TypeText?, observing: Bool) -> FunctionInfo? {
            guard let accessor else { return nil }
            let parameter = FunctionParameter(label: nil, name: accessor.parameter, nameSpan: accessor.parameterSpan, defaultValue: nil,
                                              isInout: false, type: typed)
            let function = FunctionDeclaration(name: accessor.word, nameSpan: accessor.span, parameters: [parameter], body: accessor.body,
                                               isMutating: !type.isClass, isStatic: false, span: accessor.span)
            function.resultType = TypeText(text: "Void", span: accessor.span)
            let info = FunctionInfo(function, location: location(accessor.span), hasSelf: true)
            info.home = type.scope
            if observing { info.observedProperty = property }
            added.append(info)
            return info
        }
        for property in declaration.stored where property.willSet != nil || property.didSet != nil {
            type.accessors[property.name] = PropertyAccessors(
                willSet: method(property.willSet, of: property.name, typed: property.type, observing: true),
                didSet: method(property.didSet, of: property.name, typed: property.type, observing: true))
        }
        for property in declaration.computed {
            guard let setter = property.setter else {
                // A get-only property: assigning it is an error that names it.
                if !property.isStatic, let getter = type.computed[property.name] {
                    type.accessors[property.name] = PropertyAccessors(getter: getter)
                }
                continue
            }
            if property.isStatic {
                error("flow runs the setters of instance properties only", setter.span,
                      help: "change a static var in a static func instead")
                continue
            }
            type.accessors[property.name] = PropertyAccessors(
                getter: type.computed[property.name],
                setter: method(setter, of: property.name, typed: property.type, observing: false))
        }
        return added
    }

    /// Compiles the accessors `declaration` wrote for `type`'s properties.
    func compileAccessors(of declaration: TypeDeclaration, in type: DeclaredType) {
        let names = Set(declaration.stored.map(\.name) + declaration.computed.map(\.name))
        for (name, accessors) in type.accessors where names.contains(name) {
            for info in accessors.functions where info.home === type.scope { compileFunction(info, in: type.scope, selfType: type) }
        }
    }

    /// The accessors of `name` in each of the types visible here that has
    /// some, by type name, with the depth of the frame they run under.
    func propertyAccessors(named name: String, in scope: Scope) -> [String: (accessors: PropertyAccessors, depth: Int)] {
        var table: [String: (accessors: PropertyAccessors, depth: Int)] = [:]
        for type in scope.visibleTypes where table[type.name] == nil {
            guard let accessors = type.accessors[name] else { continue }
            let home = (accessors.getter ?? accessors.functions.first)?.home ?? type.scope
            table[type.name] = (accessors, scope.depth(to: home))
        }
        return table
    }

    /// Whether assigning `self.name` here stores without the accessors, as
    /// Swift does in a type's own initialisers and in a property's own
    /// observers (a computed property has no storage: its setter always runs).
    func storesDirectly(_ name: String, in scope: Scope) -> Bool {
        guard let method = scope.methodScope, let type = method.selfType,
              let own = type.accessors[name], !own.isComputed else { return false }
        switch method.directStores {
        case .none: return false
        case .property(let observed): return observed == name
        case .declaredProperties: return type.declaration.stored.contains { $0.name == name }
        }
    }

    /// `container.name`, changed by `body`, through the property's
    /// accessors: a computed property's getter, then its `set`; a stored
    /// one's `willSet` with the new value, the store, then its `didSet`
    /// with the old one.
    /// `containing`: the property holds what changes (`vm.selected.name = x`):
    /// a get-only one may, when it gives an object, which changes where it is.
    static func assign(_ name: String, of container: inout Value, through accessors: PropertyAccessors, depth: Int, in frame: Frame,
                       containing: Bool = false, _ body: (inout Value) throws -> Void) throws {
        func run(_ accessor: FunctionInfo, with argument: Value) throws {
            var changed: Value?
            _ = try accessor.run(parent: frame.ancestor(depth), self: container, arguments: [argument]) { callee in
                changed = callee.slots[0]
            }
            // A struct's accessor is mutating: `self` as it left it is the value.
            if !container.isObject, let changed { container = changed }
        }
        if let getter = accessors.getter {
            var value = try getter.run(parent: frame.ancestor(depth), self: container, arguments: [])
            guard let setter = accessors.setter else {
                guard containing, value.isObject else {
                    throw FlowError("cannot change '\(name)' of \(container.typeName): it is a get-only computed property")
                }
                return try body(&value)
            }
            try body(&value)
            try run(setter, with: value)
            return
        }
        var old = Value.null
        try container.updateMember(name) { old = $0 }
        var new = old
        try body(&new)
        if let willSet = accessors.willSet { try run(willSet, with: new) }
        try container.updateMember(name) { $0 = new }
        if let didSet = accessors.didSet { try run(didSet, with: old) }
    }
}
