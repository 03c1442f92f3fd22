import FlowRuntime

/// A func's or method's code. Made when the enclosing block is compiled
/// and filled when its declaration is reached, so calls written before the
/// declaration (funcs are hoisted, as in Swift) find it.
final class FunctionInfo {
    let declaration: FunctionDeclaration
    let location: SourceLocation
    /// A method keeps `self` in slot 0.
    let hasSelf: Bool
    /// A class's method whose closures hold `self` only weakly: its frame
    /// lets go of the object when it returns.
    var releasesSelf = false
    /// The scope of the type a method belongs to: its body runs in a frame
    /// under that scope's (a subclass may inherit it from another scope).
    unowned(unsafe) var home: Scope?
    var body: Code = { _ in .null }
    var frameSize = 0
    /// Each parameter's default value, evaluated in the call's frame.
    var defaults: [Code?] = []
    /// Each parameter's type, as written.
    var parameterTypes: [StaticType] = []
    /// What an argument becomes in a parameter of a written type (an Int
    /// given for a `Double` is a Double); nil where nothing changes.
    var parameterConversions: [Conversion.Convert?] = []
    /// The result's type: written after `->`, `()` where nothing is (Swift's
    /// Void), the object's for an `init`.
    var resultType: StaticType = .unknown
    var resultConversion: Conversion.Convert?
    /// No `->`: the func returns `()`, whatever its body's last value.
    var returnsVoid = false
    /// A stored property's `willSet` or `didSet`: in it, assigning that
    /// property stores it without running the observers again.
    var observedProperty: String?
    /// The other funcs of this name in its scope, told apart by their
    /// argument labels or their number (`events(forLast:)` beside
    /// `events(forLast:closed:)`), each in a slot of its own.
    var overloads: [(slot: Int, info: FunctionInfo)] = []

    /// `events(forLast:closed:)`: the name with its argument labels.
    var fullName: String { name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }

    /// The name with its labels and parameter types, which tell overloads
    /// apart (`count(_: Int)` beside `count(_: String)`).
    var signature: String {
        name + "(" + parameters.map { ($0.label ?? "_") + ": " + ($0.type?.text.filter { !$0.isWhitespace } ?? "") }.joined(separator: ", ") + ")"
    }

    /// This func and its overloads.
    var allOverloads: [FunctionInfo] { [self] + overloads.map(\.info) }

    init(_ declaration: FunctionDeclaration, location: SourceLocation, hasSelf: Bool) {
        self.declaration = declaration
        self.location = location
        self.hasSelf = hasSelf
    }

    var name: String { declaration.name }
    var parameters: [FunctionParameter] { declaration.parameters }

    /// Runs the body in a new frame under `parent`: `arguments` has one
    /// entry per parameter, nil where the default applies. `after` sees the
    /// frame before it goes, to copy out `inout` parameters and a mutated
    /// `self`.
    func run(parent: Frame, self selfValue: Value?, arguments: [Value?], after: ((Frame) -> Void)? = nil) throws -> Value {
        guard StackSpace.hasRoom() else { throw StackSpace.recursionTooDeep.located(at: location) }
        let frame = Frame(count: frameSize, parent: parent)
        let offset = hasSelf ? 1 : 0
        if let selfValue { frame.slots[0] = selfValue }
        for (i, argument) in arguments.enumerated() {
            if let argument {
                frame.slots[offset + i] = parameterConversions.isEmpty ? argument : parameterConversions[i]?(argument) ?? argument
            } else if let fallback = defaults[i] {
                frame.slots[offset + i] = try fallback(frame)
            } else {
                throw FlowError("missing argument for parameter '\(parameters[i].name)' of '\(name)'", at: location)
            }
        }
        defer {
            if releasesSelf, case .object(let object) = frame.slots[0] { frame.slots[0] = .function(WeakObject(object)) }
        }
        var result: Value
        do { result = try body(frame) } catch let signal as ReturnSignal { result = signal.value }
        after?(frame)
        if returnsVoid { return .void }
        if let resultConversion { result = resultConversion(result) }
        return result
    }
}

/// A `func` as a value: passed where a closure is expected (`scan(0, add)`),
/// it takes its arguments in order, defaults filling the rest.
final class UserFunction: Function {
    let info: FunctionInfo
    let captured: Frame

    init(_ info: FunctionInfo, captured: Frame) {
        self.info = info
        self.captured = captured
        super.init(name: info.name, parameterCount: info.parameters.count, location: info.location)
    }

    override func call(_ args: [Value]) throws -> Value {
        let count = info.parameters.count
        var values = args
        // A pair from zip or combineLatest spreads over two parameters.
        if values.count == 1, count > 1, let parts = values[0].tupleElements, parts.count <= count { values = parts }
        guard values.count <= count else {
            throw FlowError("'\(info.name)' takes \(count) argument\(count == 1 ? "" : "s") but was called with \(values.count)",
                            at: info.location)
        }
        return try info.run(parent: captured, self: nil, arguments: values.map { Optional($0) } + [Value?](repeating: .none, count: count - values.count))
    }
}

/// A `struct`, `enum` or `class` of the script, with the code of its members.
final class DeclaredType {
    let declaration: TypeDeclaration
    /// A class's superclass among the script's classes.
    var superclass: DeclaredType?
    /// A class's run-time description, made when its inheritance is known.
    var objectClass: ObjectClass?
    /// A class's `init`s: its own, or its superclass's when it declares none.
    var initialisers: [FunctionInfo] = []
    /// A class's `deinit` bodies, its own first, then its superclass's.
    var deinitialisers: [FunctionInfo] = []
    /// A class's `lazy` properties' values, each a getter of the object.
    var lazyGetters: [FunctionInfo] = []
    /// Stored properties, a superclass's first.
    lazy var allStored: [TypeDeclaration.StoredProperty] = (superclass?.allStored ?? []) + declaration.stored
    /// A class's stored properties' default values, compiled where it is declared.
    var fieldDefaults: [Code?] = []
    var isClass: Bool { declaration.kind == .class }
    /// Protocols an `extension Cart: Named` adds.
    var addedConformances: [String] = []
    /// Members a protocol's extension gives it (defaults it did not declare).
    var protocolDefaults: [ObjectIdentifier: [FunctionInfo]] = [:]

    /// Whether it conforms to `name`, directly or through a protocol that
    /// inherits it.
    func conforms(to name: String, in scope: Scope) -> Bool {
        if let superclass, superclass.conforms(to: name, in: scope) { return true }
        var pending = declaration.conformances + addedConformances
        var seen: Set<String> = []
        while let next = pending.popLast() {
            if next == name { return true }
            guard seen.insert(next).inserted, let inherited = scope.lookupProtocol(next) else { continue }
            pending += inherited.conformances
        }
        return false
    }
    /// Where it was declared: its members' code runs in frames under that
    /// scope's frame.
    let scope: Scope
    var methods: [String: FunctionInfo] = [:]
    var staticMethods: [String: FunctionInfo] = [:]
    var computed: [String: FunctionInfo] = [:]
    var staticComputed: [String: FunctionInfo] = [:]
    /// Properties whose assignment runs more than a store (PropertyAccessors.swift).
    var accessors: [String: PropertyAccessors] = [:]
    var staticValues: [String: LazyValue] = [:]
    /// The `static var`s among them, which may change.
    var staticVariables: Set<String> = []
    /// It lacks something a protocol it conforms to requires (reported).
    var missesRequirements = false
    /// The memberwise initialiser's parameters: stored properties, less
    /// `let`s that have a value already.
    let initParameters: [FunctionParameter]
    var initDefaults: [Code?] = []
    /// Each stored property's default value (a struct's), where it has one.
    var storedDefaults: [Code?] = []
    var rawValues: [String: Value] = [:]

    init(_ declaration: TypeDeclaration, scope: Scope) {
        self.declaration = declaration
        self.scope = scope
        initParameters = declaration.stored.compactMap { property in
            if !property.isVariable && property.defaultValue != nil { return nil }
            return FunctionParameter(label: property.name, name: property.name, nameSpan: property.span,
                                     defaultValue: property.defaultValue, isInout: false, type: property.type)
        }
    }

    var name: String { declaration.name }
    var isEnum: Bool { declaration.kind == .enum }

    func caseNamed(_ name: String) -> TypeDeclaration.EnumCase? { declaration.cases.first { $0.name == name } }

    /// A case without associated values.
    func caseValue(_ name: String) -> Value {
        .tuple(Tuple([], nominal: Nominal(type: self.name, caseName: name, rawValue: rawValues[name])))
    }

    var allCases: Value { .array(declaration.cases.filter { $0.associated == nil }.map { caseValue($0.name) }) }

    func hasInstanceMember(_ name: String) -> Bool {
        if isClass, name.hasPrefix("$") || name == "objectWillChange" {
            // `$count`: a @Published property's publisher.
            return name == "objectWillChange" || allStored.contains { $0.isPublished && "$" + $0.name == name }
        }
        return hasProperty(name) || methods[name] != nil
            // An enum with raw values reads its own (`rawValue.uppercased()`).
            || (isEnum && name == "rawValue" && !rawValues.isEmpty)
            // An extension of a built-in type reads its methods (`count`, `uppercased()`).
            || (declaration.kind == .extension && ValueMethods.names(of: self.name).contains(name))
    }

    /// A stored or computed property by that name (which may hold a closure).
    func hasProperty(_ name: String) -> Bool {
        (isClass ? allStored : declaration.stored).contains { $0.name == name } || computed[name] != nil
    }

    func hasStaticMember(_ name: String) -> Bool {
        staticValues[name] != nil || staticMethods[name] != nil || staticComputed[name] != nil || caseNamed(name) != nil
    }
}

/// A `static let`: computed the first time it is read, as in Swift.
final class LazyValue {
    /// Set where the type is compiled; made when the type is declared, so
    /// code compiled before that finds it.
    var code: Code
    var value: Value?
    init(code: @escaping Code) { self.code = code }

    func get(_ frame: Frame) throws -> Value {
        if let value { return value }
        let computed = try code(frame)
        value = computed
        return computed
    }
}

extension Compiler {
    // MARK: - Hoisting

    /// Declares the funcs and types of a statement list before any of it
    /// compiles; returns the code that makes the funcs when the list runs.
    func hoist(_ statements: [Statement], in scope: Scope) -> ((Frame) throws -> Void)? {
        var functions: [(slot: Int, info: FunctionInfo)] = []
        var extensions: [TypeDeclaration] = []
        defer {
            linkClasses(in: scope)
            // A type's own extensions first: a protocol's defaults go to the
            // types that conform by then, and only where they lack the member.
            for declaration in extensions where scope.lookupProtocol(declaration.name) == nil { extend(declaration, in: scope) }
            for declaration in extensions where scope.lookupProtocol(declaration.name) != nil { extendProtocol(declaration, in: scope) }
            checkConformances(in: scope)
        }
        for statement in statements {
            switch statement {
            case .type(let declaration):
                guard scope.kind == .script || scope.kind == .test else {
                    error("types are declared at the top level of a script or test", declaration.nameSpan,
                          help: "move the \(declaration.kind.word) out of the block")
                    continue
                }
                // An extension adds to its type wherever the type is declared.
                switch declaration.kind {
                case .extension: extensions.append(declaration)
                case .protocol:
                    if scope.protocols[declaration.name] != nil || scope.types[declaration.name] != nil {
                        error("'\(declaration.name)' is already declared in this scope", declaration.nameSpan)
                    } else {
                        scope.protocols[declaration.name] = declaration
                    }
                default: register(declaration, in: scope)
                }
            case .typeAlias(let name, let nameSpan, let parameters, let type, _):
                if scope.typeAliases[name] != nil || scope.types[name] != nil {
                    error("'\(name)' is already a type in this scope", nameSpan)
                } else {
                    scope.typeAliases[name] = type
                    if !parameters.isEmpty { scope.typeAliasParameters[name] = parameters }
                    declaresAliases = true
                }
            case .function(let declaration):
                let info = FunctionInfo(declaration, location: location(declaration.nameSpan), hasSelf: false)
                if let first = scope.entries[declaration.name]?.function {
                    // Overloading by labels, number and types of arguments,
                    // as Swift does; the same signature twice is the same func twice.
                    let same = first.allOverloads.first { $0.signature == info.signature }
                    if let same {
                        let line = file.lineAndColumn(of: same.declaration.nameSpan.start).line
                        error("'\(info.fullName)' is already declared in this scope (line \(line))", declaration.nameSpan,
                              help: "overloads differ in their argument labels or parameter types; give it others, or another name")
                        continue
                    }
                    let slot = scope.reserve()
                    first.overloads.append((slot, info))
                    functions.append((slot, info))
                    continue
                }
                guard let slot = scope.declare(declaration.name, at: declaration.nameSpan, as: .function, function: info) else {
                    error("'\(declaration.name)' is already declared in this scope", declaration.nameSpan,
                          help: "a func's name is not also a variable's: give it another name")
                    continue
                }
                functions.append((slot, info))
            default:
                continue
            }
        }
        guard !functions.isEmpty else { return nil }
        return { frame in
            for (slot, info) in functions { frame.slots[slot] = .function(UserFunction(info, captured: frame)) }
        }
    }

    /// The built-in types an `extension` may add computed properties and
    /// methods to, as the values they hold (`extension Int { var doubled: Int { self * 2 } }`).
    static let extensibleTypes: Set<String> = ["Int", "Double", "String", "Bool", "Array", "Dictionary"]

    /// The script's type, or the built-in one, that an extension adds to.
    func extendedType(_ name: String, in scope: Scope) -> DeclaredType? {
        scope.lookupType(name) ?? scope.lookupBuiltinExtension(name)
    }

    /// `extension Cart { ... }`: its computed properties and methods join
    /// the type's, as in Swift (stored properties and cases cannot be
    /// added, as Swift says too).
    private func extend(_ declaration: TypeDeclaration, in scope: Scope) {
        let type: DeclaredType
        if let own = scope.lookupType(declaration.name) {
            type = own
        } else if Self.extensibleTypes.contains(declaration.name) {
            type = scope.lookupBuiltinExtension(declaration.name) ?? {
                let made = DeclaredType(declaration, scope: scope)
                scope.builtinExtensions[declaration.name] = made
                return made
            }()
        } else {
            error("flow cannot extend '\(declaration.name)'", declaration.nameSpan,
                  help: "extend one of the script's types, or Int, Double, String, Bool, Array or Dictionary")
            return
        }
        if scope.lookupType(declaration.name) == nil, let stored = declaration.staticStored.first {
            error("flow adds static properties only to the script's own types", stored.span,
                  help: "declare it at the top level, as in let \(stored.name) = ...")
        } else {
            for property in declaration.staticStored {
                if type.staticValues[property.name] != nil || type.hasInstanceMember(property.name) {
                    error("'\(property.name)' is already a member of \(type.name)", property.span, help: "give it another name")
                    continue
                }
                type.staticValues[property.name] = LazyValue(code: { _ in .null })
                if property.isVariable { type.staticVariables.insert(property.name) }
            }
        }
        type.addedConformances += declaration.conformances
        addMembers(of: declaration, to: type) { name, span in
            guard type.declaration !== declaration, type.hasInstanceMember(name) || type.staticMethods[name] != nil else { return true }
            error("'\(name)' is already a member of \(type.name)", span, help: "give it another name")
            return false
        }
    }

    /// Adds a declaration's methods and computed properties to `type`,
    /// those that `adds` lets in; the infos added, to compile later.
    @discardableResult
    private func addMembers(of declaration: TypeDeclaration, to type: DeclaredType,
                            where adds: (_ name: String, _ span: Span) -> Bool = { _, _ in true }) -> [FunctionInfo] {
        var added: [FunctionInfo] = []
        for method in declaration.methods where adds(method.name, method.nameSpan) {
            let info = FunctionInfo(method, location: location(method.nameSpan), hasSelf: !method.isStatic)
            info.home = type.scope
            // Overloads by labels and types join the first method of the name.
            if let first = (method.isStatic ? type.staticMethods : type.methods)[method.name], first.declaration !== method,
               declaration.methods.contains(where: { $0 === first.declaration }) {
                first.overloads.append((-1, info))
            } else if method.isStatic {
                type.staticMethods[method.name] = info
            } else {
                type.methods[method.name] = info
            }
            added.append(info)
        }
        for property in declaration.computed where adds(property.name, property.span) {
            let getter = FunctionDeclaration(name: property.name, nameSpan: property.span, parameters: [], body: property.body,
                                             isMutating: false, isStatic: property.isStatic, span: property.span)
            getter.resultType = property.type
            let info = FunctionInfo(getter, location: location(property.span), hasSelf: !property.isStatic)
            info.home = type.scope
            if property.isStatic { type.staticComputed[property.name] = info } else { type.computed[property.name] = info }
            added.append(info)
        }
        return added + addAccessors(of: declaration, to: type)
    }

    /// `extension Named { func greet() -> String { ... } }`: each type that
    /// conforms to the protocol and does not declare the member gets it, as
    /// Swift's default implementations.
    private func extendProtocol(_ declaration: TypeDeclaration, in scope: Scope) {
        if let stored = declaration.staticStored.first {
            error("a protocol's extension adds computed properties and methods", stored.span)
        }
        if environment.memberUses != nil { protocolExtensions.append(declaration) }
        for type in scope.visibleTypes where type.conforms(to: declaration.name, in: scope) {
            // What the type declares itself wins over the default.
            type.protocolDefaults[ObjectIdentifier(declaration)] = addMembers(of: declaration, to: type) { name, _ in
                !type.hasInstanceMember(name) && type.staticMethods[name] == nil && type.staticComputed[name] == nil
            }
        }
    }

    /// Each type declared here has what the script's protocols it conforms
    /// to require, by name: its own member, its superclass's, or a default
    /// from the protocol's extension. (Types and signatures are not
    /// compared: values are dynamic.)
    private func checkConformances(in scope: Scope) {
        let declared = (Array(scope.types.values) + Array(scope.builtinExtensions.values)).sorted { $0.declaration.span.start < $1.declaration.span.start }
        for type in declared where type.declaration.kind != .extension || Self.extensibleTypes.contains(type.name) {
            var checked: Set<String> = []
            var pending = type.declaration.conformances + type.addedConformances
            while let name = pending.popLast() {
                guard checked.insert(name).inserted, let proto = scope.lookupProtocol(name) else { continue }
                pending += proto.conformances
                for requirement in proto.requirements {
                    let has = requirement.isStatic
                        ? type.hasStaticMember(requirement.name)
                        : type.hasInstanceMember(requirement.name) || (type.isEnum && type.caseNamed(requirement.name) != nil)
                    guard !has else { continue }
                    type.missesRequirements = true
                    error("'\(type.name)' does not conform to '\(name)': it has no '\(requirement.name)'", type.declaration.nameSpan,
                          help: "add \(requirement.name) to \(type.name), or a default in an extension of \(name)")
                }
            }
        }
    }

    private func register(_ declaration: TypeDeclaration, in scope: Scope) {
        if let ui = declaration.conformances.first(where: Self.swiftUIProtocols.contains) {
            error("flow has no SwiftUI: '\(declaration.name)' is a \(ui)", declaration.nameSpan,
                  help: "keep the reactive part of the code (its publishers and operators), and print or draw marbles instead of views")
            return
        }
        if let previous = scope.types[declaration.name] {
            let line = file.lineAndColumn(of: previous.declaration.nameSpan.start).line
            error("a type named '\(declaration.name)' is already declared (line \(line))", declaration.nameSpan)
            return
        }
        let type = DeclaredType(declaration, scope: scope)
        scope.types[declaration.name] = type
        // A type's aliases: `Store.State`, and `State` where no other is.
        for alias in declaration.typeAliases {
            for name in [declaration.name + "." + alias.name, alias.name] where scope.typeAliases[name] == nil && scope.types[name] == nil {
                scope.typeAliases[name] = alias.type
                if !alias.parameters.isEmpty { scope.typeAliasParameters[name] = alias.parameters }
            }
            declaresAliases = true
        }
        addMembers(of: declaration, to: type)
        if declaration.kind == .struct {
            type.initialisers = declaration.initialisers.map { initialiser in
                let info = FunctionInfo(initialiser, location: location(initialiser.nameSpan), hasSelf: true)
                info.home = scope
                return info
            }
        }
        for property in declaration.staticStored where property.defaultValue != nil {
            type.staticValues[property.name] = LazyValue(code: { _ in .null })
            if property.isVariable { type.staticVariables.insert(property.name) }
        }
        // Raw values are literals: known before any code uses a case.
        if declaration.kind == .enum { compileRawValues(of: type) }
        for nested in declaration.nested { register(nested, in: scope) }
        checkDuplicateMembers(of: declaration)
    }

    /// Properties and cases have one name each; methods may share theirs
    /// with a property and with each other, told apart by their labels and
    /// types (overloads), and a static method by being static, as in Swift.
    private func checkDuplicateMembers(of declaration: TypeDeclaration) {
        var seen: Set<String> = []
        let members: [(String, Span)] = declaration.stored.map { ($0.name, $0.span) } + declaration.computed.map { ($0.name, $0.span) }
            + declaration.cases.map { ($0.name, $0.span) } + declaration.staticStored.map { ($0.name, $0.span) }
        for (name, span) in members where !seen.insert(name).inserted {
            error("'\(name)' is declared twice in \(declaration.name)", span, help: "give each property its own name")
        }
        var signatures: Set<String> = []
        for method in declaration.methods {
            let info = FunctionInfo(method, location: location(method.nameSpan), hasSelf: false)
            if !signatures.insert((method.isStatic ? "static " : "") + info.signature).inserted {
                error("'\(info.fullName)' is declared twice in \(declaration.name)", method.nameSpan,
                      help: "overloads differ in their argument labels or parameter types")
            } else if method.parameters.isEmpty, declaration.stored.contains(where: { $0.name == method.name })
                        || declaration.computed.contains(where: { $0.name == method.name }) {
                error("'\(method.name)()' has the name of a property of \(declaration.name)", method.nameSpan,
                      help: "a method that shares a property's name takes arguments; give it another name")
            }
        }
    }

    /// The code of a member func declared by `method`, among overloads.
    func memberFunction(_ method: FunctionDeclaration, of type: DeclaredType) -> FunctionInfo {
        let first = (method.isStatic ? type.staticMethods : type.methods)[method.name]!
        return first.allOverloads.first { $0.declaration === method } ?? first
    }

    private static let swiftUIProtocols: Set<String> = ["View", "App", "Scene", "PreviewProvider"]

    /// Compiles a func or a type where it is declared: its code sees the
    /// names declared before it, as in Swift.
    func compileDeclaration(_ statement: Statement, in scope: Scope) {
        switch statement {
        case .function(let declaration):
            guard let first = scope.entries[declaration.name]?.function else { break }
            if first.declaration === declaration { compileFunction(first, in: scope) }
            for overload in first.overloads where overload.info.declaration === declaration { compileFunction(overload.info, in: scope) }
        case .type(let declaration) where declaration.kind == .extension && scope.lookupProtocol(declaration.name) != nil:
            // A type told it misses a requirement is not told again by the defaults that use it.
            for type in scope.visibleTypes where !type.missesRequirements {
                for info in type.protocolDefaults[ObjectIdentifier(declaration)] ?? [] { compileFunction(info, in: type.scope, selfType: type) }
            }
        case .type(let declaration) where declaration.kind == .extension:
            guard let type = extendedType(declaration.name, in: scope) else { break }
            for method in declaration.methods {
                compileFunction(memberFunction(method, of: type), in: type.scope, selfType: type)
            }
            for property in declaration.computed {
                compileFunction((property.isStatic ? type.staticComputed : type.computed)[property.name]!, in: type.scope, selfType: type)
            }
            compileAccessors(of: declaration, in: type)
            for property in declaration.staticStored {
                if let value = property.defaultValue { type.staticValues[property.name]?.code = compile(value, in: type.scope) }
            }
        case .type(let declaration):
            if let type = scope.types[declaration.name], type.declaration === declaration { compileMembers(of: type) }
        default:
            break
        }
    }

    /// Compiles a type's defaults, static values, computed properties,
    /// methods and raw values.
    private func compileMembers(of type: DeclaredType) {
        let declaration = type.declaration
        if type.isClass {
            compileClassMembers(of: type)
        } else {
            type.initDefaults = type.initParameters.map { parameter in
                parameter.defaultValue.map { compiled($0, convertingTo: staticType(text: parameter.type?.text, in: type.scope), in: type.scope).code }
            }
            type.storedDefaults = declaration.stored.map { property in property.defaultValue.map { compiledDefault($0, of: property, in: type.scope) } }
            for info in type.initialisers { compileFunction(info, in: type.scope, selfType: type) }
        }
        for property in declaration.staticStored {
            if let value = property.defaultValue { type.staticValues[property.name]?.code = compile(value, in: type.scope) }
        }
        for method in declaration.methods {
            compileFunction(memberFunction(method, of: type), in: type.scope, selfType: type)
        }
        for property in declaration.computed {
            let info = (property.isStatic ? type.staticComputed : type.computed)[property.name]!
            compileFunction(info, in: type.scope, selfType: type)
        }
        compileAccessors(of: declaration, in: type)
        for nested in declaration.nested {
            if let inner = type.scope.types[nested.name], inner.declaration === nested { compileMembers(of: inner) }
        }
    }

    private func compileRawValues(of type: DeclaredType) {
        guard let rawType = type.declaration.rawType else {
            for item in type.declaration.cases where item.rawValue != nil {
                error("'\(type.name)' has no raw type: declare one, as in enum \(type.name): String", item.span)
            }
            return
        }
        let isFloatingPoint = rawType == "Double" || rawType == "Float"
        // The raw value a case without one takes, as Swift counts on from
        // the integer before it; nil after a raw value that is not one.
        var next: Int? = 0
        for item in type.declaration.cases {
            if item.associated != nil {
                error("a case of an enum with raw values cannot have associated values", item.span)
                continue
            }
            var raw: Value
            switch item.rawValue {
            case .literal(let value, let span)?:
                raw = value
                next = if case .int(let i) = value { i + 1 } else { nil }
                let fits = switch (rawType, value) {
                case ("Int", .int), ("String", .string), ("Character", .string), ("Double", .double), ("Double", .int),
                     ("Float", .double), ("Float", .int): true
                default: false
                }
                if !fits { error("the raw value of '\(item.name)' must be \(rawType == "Int" ? "an" : "a") \(rawType)", span) }
                // `case high = 3` of a Double enum is 3.0, as Swift's literal is.
                if isFloatingPoint, case .int(let i) = value { raw = .double(Double(i)) }
            case let other?:
                error("a raw value must be a literal", other.span)
                raw = .null
            case nil:
                switch rawType {
                case "Int", "Double", "Float":
                    guard let n = next else {
                        error("'\(item.name)' needs a raw value: the case before it is not an integer, so Swift does not count on from it",
                              item.span, help: "write one, as in case \(item.name) = 1.0")
                        raw = .null
                        break
                    }
                    raw = isFloatingPoint ? .double(Double(n)) : .int(n)
                    next = n + 1
                case "String", "Character": raw = .string(item.name)
                default:
                    error("'\(item.name)' needs a raw value, as in case \(item.name) = 1.0", item.span)
                    raw = .null
                }
            }
            if let clash = type.rawValues.first(where: { $0.value == raw && !raw.isNull }) {
                error("'\(item.name)' has the same raw value as '\(clash.key)'", item.span)
            }
            type.rawValues[item.name] = raw
        }
    }

    /// A func's or method's body, parameters and defaults.
    func compileFunction(_ info: FunctionInfo, in scope: Scope, selfType: DeclaredType? = nil) {
        let declaration = info.declaration
        let inner = Scope(kind: .closure, parent: scope)
        if let selfType {
            inner.selfType = selfType
            inner.isStatic = declaration.isStatic
            inner.isMutating = declaration.isMutating
            inner.isFailableInitialiser = declaration.isFailable
            inner.isInitialiser = selfType.isClass && declaration.name == "init"
            if let observed = info.observedProperty {
                inner.directStores = .property(observed)
            } else if declaration.name == "init", !declaration.isFunc {
                inner.directStores = .declaredProperties
            }
            // A class's methods change the object `self` refers to, never `self`.
            if info.hasSelf { _ = inner.declare("self", at: declaration.nameSpan, as: .selfValue(isMutable: declaration.isMutating)) }
        }
        // A generic type's parameters (and a generic func's) are not known types here.
        inner.typeParameters = (selfType?.declaration.genericParameters ?? []) + declaration.genericParameters
        info.parameterTypes = declaration.parameters.map { staticType(text: $0.type?.text, in: inner) }
        let conversions = zip(declaration.parameters, info.parameterTypes).map { $0.isInout ? nil : Conversion.to($1) }
        info.parameterConversions = conversions.contains { $0 != nil } ? conversions : []
        for (parameter, type) in zip(declaration.parameters, info.parameterTypes) {
            if parameter.name == "_" {
                _ = inner.reserve()
            } else if inner.declare(parameter.name, at: parameter.nameSpan, as: .funcParameter(isInout: parameter.isInout),
                                    type: type, typeIsWritten: type.isKnown) == nil {
                error("two parameters named '\(parameter.name)'", parameter.nameSpan)
                _ = inner.reserve()
            } else {
                noteType(type, at: parameter.nameSpan)
            }
        }
        info.defaults = zip(declaration.parameters, info.parameterTypes).map { parameter, type in
            parameter.defaultValue.map { compiled($0, convertingTo: type, in: inner).code }
        }
        var body = declaration.body
        if let written = declaration.resultType {
            info.resultType = staticType(text: written.text, in: inner)
            info.resultConversion = Conversion.to(info.resultType)
            info.returnsVoid = info.resultType == .void
            if info.resultType.isKnown, !info.returnsVoid {
                inner.resultType = info.resultType
                inner.resultTypeText = written
                // A body of one expression returns it, of the result's type
                // (`-> Config { .init(retries: 1) }`).
                if body.count == 1, case .expression(let value) = body[0] { body = [.return(value, value.span)] }
            }
        } else if declaration.isFunc {
            info.resultType = .void
            info.returnsVoid = true
        }
        // The body's names may shadow the parameters (`var state = state`).
        info.body = compileSequence(body, in: Scope(kind: .block, parent: inner))
        info.frameSize = inner.count
        info.releasesSelf = selfType?.isClass == true && info.hasSelf && inner.createsClosures && !inner.selfCapturedStrongly
    }

    // MARK: - Resolving types and cases

    func resolveType(_ name: String, in scope: Scope) -> DeclaredType? {
        if name == "Self" { return scope.methodScope?.selfType }
        if let type = scope.lookupType(name) { return type }
        // An alias of one of the script's types (`CocoaAction` for `Action<Void, Void>`).
        guard declaresAliases, let aliased = scope.lookupAlias(name), aliased != name else { return nil }
        return scope.lookupType(TypeSyntax(parsing: aliased)?.baseName ?? aliased)
    }

    /// The type an expression names: `Cart`, or a nested `Cart.Line`; nil
    /// where a variable of that name hides it.
    func resolveType(_ expr: Expr, in scope: Scope) -> DeclaredType? {
        switch expr {
        case .name(let name, _):
            return scope.lookup(name) == nil ? resolveType(name, in: scope) : nil
        case .member(let base, let name, _, _):
            guard let outer = resolveType(base, in: scope), let nested = outer.declaration.nested.first(where: { $0.name == name }) else {
                return nil
            }
            return scope.lookupType(name).flatMap { $0.declaration === nested ? $0 : nil }
        default:
            return nil
        }
    }

    /// The enum that has case `name`: the one named, or the only one in
    /// scope (several: an error asking for the type).
    func resolveCase(type: String?, name: String, _ span: Span, in scope: Scope) -> DeclaredType? {
        if let type {
            guard let declared = resolveType(type, in: scope), declared.isEnum, declared.caseNamed(name) != nil else { return nil }
            return declared
        }
        let owners = enumsWithCase(name, in: scope)
        if owners.count > 1 { return nil }
        return owners.first
    }

    private func enumsWithCase(_ name: String, in scope: Scope) -> [DeclaredType] {
        var seen: Set<String> = []
        return scope.visibleTypes.filter { $0.isEnum && $0.caseNamed(name) != nil && seen.insert($0.name).inserted }
    }

    /// Reports `.usd` that is a case of several enums; true if it was.
    func resolveAmbiguity(_ name: String, _ span: Span, in scope: Scope) -> Bool {
        let owners = enumsWithCase(name, in: scope)
        guard owners.count > 1 else { return false }
        let names = owners.map(\.name)
        error("'.\(name)' is a case of \(names.dropLast().joined(separator: ", ")) and \(names.last!)", span,
              help: "name the type, as in \(names[0]).\(name)")
        return true
    }

    func visibleCaseNames(in scope: Scope) -> [String] {
        var seen: Set<String> = []
        return scope.visibleTypes.filter(\.isEnum).flatMap { $0.declaration.cases.map(\.name) }.filter { seen.insert($0).inserted }
    }

    /// A bare name inside a method that means a member of `self`.
    func isImplicitSelf(_ name: String, in scope: Scope) -> Bool {
        guard let methodScope = scope.methodScope, let type = methodScope.selfType, !methodScope.isStatic,
              !scope.declares(name, upTo: methodScope) else { return false }
        return type.hasInstanceMember(name)
    }

    /// A bare name inside a static method that means a static member.
    func implicitStaticType(_ name: String, in scope: Scope) -> DeclaredType? {
        guard let methodScope = scope.methodScope, let type = methodScope.selfType, methodScope.isStatic,
              !scope.declares(name, upTo: methodScope), type.hasStaticMember(name) else { return nil }
        return type
    }

    // MARK: - Arguments to parameters

    /// Which argument goes to each parameter (nil: its default), by Swift's
    /// rules: labels in order, defaulted parameters may be left out, a
    /// trailing closure takes the next parameter. nil, with the error
    /// reported, when they do not fit.
    func bindArguments(_ arguments: [CallArgument], to parameters: [FunctionParameter], of what: String, at span: Span,
                       report: Bool = true) -> [Int?]? {
        var binding = [Int?](repeating: nil, count: parameters.count)
        var p = 0
        for (a, argument) in arguments.enumerated() {
            while p < parameters.count, !argument.isTrailing, parameters[p].label != argument.label, parameters[p].defaultValue != nil {
                p += 1
            }
            guard p < parameters.count else {
                if report {
                    let labels = parameters.map { "\($0.label ?? "_"):" }.joined()
                    error("'\(what)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") (\(what)(\(labels))), this one is extra",
                          argument.labelSpan ?? argument.value.span)
                }
                return nil
            }
            if !argument.isTrailing, parameters[p].label != argument.label {
                if report {
                    let at = argument.labelSpan ?? argument.value.span
                    switch (parameters[p].label, argument.label) {
                    case (let wanted?, nil):
                        error("missing argument label '\(wanted):' in the call to '\(what)'", at, help: "write \(wanted): before the value")
                    case (nil, let given?):
                        error("'\(what)' takes no label here: remove '\(given):'", at)
                    default:
                        error("'\(what)' expects the label '\(parameters[p].label!):' here, not '\(argument.label!):'", at)
                    }
                }
                return nil
            }
            binding[p] = a
            p += 1
        }
        for (i, parameter) in parameters.enumerated() where binding[i] == nil && parameter.defaultValue == nil {
            if report {
                error("missing argument '\(parameter.label.map { "\($0):" } ?? parameter.name)' in the call to '\(what)'", span)
            }
            return nil
        }
        return binding
    }

    /// The arguments of a call bound to parameters: each value's code
    /// (nil: the default) and, for `inout` ones, where to copy back.
    struct BoundArguments {
        var codes: [Code?]
        var places: [(parameter: Int, place: Modify)]
    }

    func compileBoundArguments(_ arguments: [CallArgument], _ binding: [Int?], _ parameters: [FunctionParameter],
                               in scope: Scope) -> BoundArguments {
        var bound = BoundArguments(codes: [], places: [])
        for (i, parameter) in parameters.enumerated() {
            guard let a = binding[i] else {
                bound.codes.append(nil)
                continue
            }
            let argument = arguments[a].value
            if parameter.isInout {
                guard case .inoutArgument(let target, _) = argument else {
                    error("'\(parameter.name)' is inout: pass a var with '&'", argument.span, help: "as in &\(file.text(of: argument.span))")
                    bound.codes.append(compile(argument, in: scope))
                    continue
                }
                if let place = compilePlace(target, in: scope) { bound.places.append((i, place)) }
                bound.codes.append(compile(target, in: scope))
            } else {
                if case .inoutArgument(_, let span) = argument {
                    error("'\(parameter.name)' is not inout: remove '&'", span)
                }
                // A parameter's written type is given to its argument, as a
                // binding's is to its value.
                let type = staticType(text: parameter.type?.text, in: scope)
                bound.codes.append(type.isKnown ? compiled(argument, convertingTo: type, in: scope).code : compile(argument, in: scope))
            }
        }
        return bound
    }

    /// Runs a bound call: evaluates arguments, calls, copies `inout`
    /// parameters back. `slotOffset` is where parameters start in the frame.
    static func invoke(_ bound: BoundArguments, slotOffset: Int, in frame: Frame,
                       _ call: ([Value?], ((Frame) -> Void)?) throws -> Value) throws -> Value {
        var values: [Value?] = []
        values.reserveCapacity(bound.codes.count)
        for code in bound.codes { values.append(try code?(frame)) }
        guard !bound.places.isEmpty else { return try call(values, nil) }
        var results: [Value] = []
        let result = try call(values) { callee in results = bound.places.map { callee.slots[slotOffset + $0.parameter] } }
        for (i, item) in bound.places.enumerated() {
            let value = results[i]
            try item.place(frame) { $0 = value }
        }
        return result
    }

    // MARK: - Calls of funcs

    /// `f(label: x)` where `f` is a func declared in scope.
    func compileUserFunctionCall(_ primary: FunctionInfo, depth: Int, slot primarySlot: Int, _ nameSpan: Span, _ arguments: [CallArgument],
                                 _ span: Span, in scope: Scope) -> Code {
        // Among overloads, the one whose labels and arguments fit.
        var (info, slot) = (primary, primarySlot)
        if !primary.overloads.isEmpty {
            guard let chosen = chooseOverload(primary.allOverloads, arguments, span, in: scope) else { return { _ in .null } }
            info = chosen
            slot = chosen === primary ? primarySlot : primary.overloads.first { $0.info === chosen }!.slot
        }
        noteFunctionCall(info.name, at: nameSpan, reaching: info)
        guard let binding = bindArguments(arguments, to: info.parameters, of: info.name, at: span) else { return { _ in .null } }
        let bound = compileBoundArguments(arguments, binding, info.parameters, in: scope)
        let location = self.location(span)
        return { frame in
            guard case .function(let function) = frame.ancestor(depth).slots[slot], let user = function as? UserFunction else {
                throw FlowError("'\(info.name)' is not made yet", at: location)
            }
            return try Self.invoke(bound, slotOffset: 0, in: frame) { values, after in
                try user.info.run(parent: user.captured, self: nil, arguments: values, after: after)
            }
        }
    }

    // MARK: - Types in expressions

    /// `UserLocation(latitude: 1, longitude: 2)` or `Currency(rawValue: "usd")`.
    func compileConstruction(_ type: DeclaredType, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        if type.isClass { return compileObjectConstruction(type, nameSpan, arguments, span, in: scope) }
        if type.isEnum {
            guard arguments.count == 1, arguments[0].label == "rawValue", type.declaration.rawType != nil else {
                error(type.declaration.rawType == nil ? "an enum without raw values is made from its cases, as in .\(type.declaration.cases.first?.name ?? "x")"
                      : "an enum is made from a raw value, as in \(type.name)(rawValue: x)", nameSpan)
                return { _ in .null }
            }
            // `Level(rawValue: 2)` of a Double enum looks up 2.0.
            let rawType = staticType(text: type.declaration.rawType, in: scope)
            let raw = compiled(arguments[0].value, convertingTo: rawType, in: scope).code
            let table = type.declaration.cases.compactMap { item in type.rawValues[item.name].map { ($0, type.caseValue(item.name)) } }
            return { frame in
                let value = try raw(frame)
                return table.first { $0.0 == value }?.1 ?? .null
            }
        }
        if !type.initialisers.isEmpty { return compileStructInitialiserCall(type, nameSpan, arguments, span, in: scope) }
        guard let binding = bindArguments(arguments, to: type.initParameters, of: type.name, at: span) else { return { _ in .null } }
        let bound = compileBoundArguments(arguments, binding, type.initParameters, in: scope)
        let depth = scope.depth(to: type.scope)
        // Stored `let`s with a value are not parameters, but are fields.
        let fixed = type.declaration.stored.map { property -> Code? in
            guard !property.isVariable, let value = property.defaultValue else { return nil }
            return compiledDefault(value, of: property, in: type.scope)
        }
        let labels = type.declaration.stored.map { Optional($0.name) }
        let nominal = Nominal(type: type.name)
        let location = self.location(nameSpan)
        return { frame in
            let root = frame.ancestor(depth)
            // Read when the call runs: a type's defaults are compiled where
            // it is declared, possibly after this call (a nested type).
            let defaults = type.initDefaults
            var parameter = 0
            var elements: [Value] = []
            elements.reserveCapacity(fixed.count)
            for constant in fixed {
                if let constant {
                    elements.append(try constant(root))
                    continue
                }
                if let code = bound.codes[parameter] {
                    elements.append(try code(frame))
                } else if parameter < defaults.count, let fallback = defaults[parameter] {
                    elements.append(try fallback(root))
                } else {
                    throw FlowError("'\(type.name)' needs a value for '\(type.initParameters[parameter].name)'", at: location)
                }
                parameter += 1
            }
            return .tuple(Tuple(elements, labels: labels, nominal: nominal))
        }
    }

    /// `Currency.usd`, `Action.loaded`, `Config.shared`, `Currency.allCases`.
    func compileStaticMember(_ type: DeclaredType, _ name: String, _ nameSpan: Span, in scope: Scope) -> Code {
        noteMemberUse(name, at: nameSpan, of: type, isStatic: true)
        let depth = scope.depth(to: type.scope)
        if let item = type.caseNamed(name) {
            guard let labels = item.associated else {
                let value = type.caseValue(name)
                return { _ in value }
            }
            // A case with associated values, unapplied, is a function that makes it.
            let nominal = Nominal(type: type.name, caseName: name)
            let function = Value.function(Function.variadic(name: name) { args in
                var values = args
                if values.count == 1, labels.count > 1, let parts = values[0].tupleElements { values = parts }
                return .tuple(Tuple(values, labels: labels, nominal: nominal))
            })
            return { _ in function }
        }
        if name == "allCases", type.isEnum { let all = type.allCases; return { _ in all } }
        if let lazy = type.staticValues[name] { return { frame in try lazy.get(frame.ancestor(depth)) } }
        if let getter = type.staticComputed[name] {
            return { frame in try getter.run(parent: frame.ancestor(depth), self: nil, arguments: []) }
        }
        if name == "self" { let value = SwiftVocabulary.type(type.name); return { _ in value } }
        let members = type.declaration.cases.map(\.name) + Array(type.staticValues.keys) + Array(type.staticMethods.keys)
        if type.isEnum, !type.declaration.cases.isEmpty {
            let cases = type.declaration.cases.map { "." + $0.name }.joined(separator: ", ")
            error("'\(type.name)' has no case '\(name)'", nameSpan,
                  help: (suggestion(for: name, among: members).map { $0 + "; " } ?? "") + "its cases are \(cases)")
        } else {
            error("'\(type.name)' has no static member '\(name)'", nameSpan, help: suggestion(for: name, among: members))
        }
        return { _ in .null }
    }

    /// `Action.loaded(3)`, `.move(x: 1, y: 2)`: a case with its associated values.
    func compileCaseConstruction(_ type: DeclaredType, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        noteMemberUse(name, at: nameSpan, of: type, isStatic: true)
        guard let labels = type.caseNamed(name)?.associated else {
            error("'.\(name)' has no associated values: write .\(name) without ( )", nameSpan)
            return { _ in .null }
        }
        guard arguments.count == labels.count else {
            error("'.\(name)' has \(labels.count) associated value\(labels.count == 1 ? "" : "s"), got \(arguments.count)", nameSpan)
            return { _ in .null }
        }
        for (argument, label) in zip(arguments, labels) where argument.label != label {
            error(label.map { "'.\(name)' expects the label '\($0):' here" } ?? "'.\(name)' takes no label here", argument.labelSpan ?? argument.value.span)
        }
        let codes = arguments.map { compile($0.value, in: scope) }
        let nominal = Nominal(type: type.name, caseName: name)
        return { frame in .tuple(Tuple(try codes.map { try $0(frame) }, labels: labels, nominal: nominal)) }
    }

    /// `Type.make(x)`: a static method, or a case with associated values.
    func compileStaticCall(_ type: DeclaredType, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                           in scope: Scope) -> Code {
        noteMemberUse(name, at: nameSpan, of: type, isStatic: true)
        if type.caseNamed(name) != nil { return compileCaseConstruction(type, name, nameSpan, arguments, in: scope) }
        guard let first = type.staticMethods[name] else {
            error("'\(type.name)' has no static method '\(name)'", nameSpan, help: suggestion(for: name, among: Array(type.staticMethods.keys)))
            return { _ in .null }
        }
        guard let info = first.overloads.isEmpty ? first : chooseOverload(first.allOverloads, arguments, span, in: scope) else {
            return { _ in .null }
        }
        noteStaticCall(name, at: nameSpan, of: type, reaching: info)
        guard let binding = bindArguments(arguments, to: info.parameters, of: "\(type.name).\(name)", at: span) else { return { _ in .null } }
        let bound = compileBoundArguments(arguments, binding, info.parameters, in: scope)
        let depth = scope.depth(to: type.scope)
        return { frame in
            try Self.invoke(bound, slotOffset: 0, in: frame) { values, after in
                try info.run(parent: frame.ancestor(depth), self: nil, arguments: values, after: after)
            }
        }
    }

    // MARK: - Members and methods of values

    /// Reading `value.name` where a declared type has a computed property
    /// by that name: chosen by the value's type when it runs. (A case's
    /// `rawValue` it carries itself: `Value.member` reads it.)
    func compileDynamicMember(_ base: @escaping Code, _ name: String, _ nameSpan: Span, in scope: Scope) -> Code? {
        var getters: [String: (info: FunctionInfo, depth: Int)] = [:]
        for type in scope.visibleTypes where getters[type.name] == nil {
            if let info = type.computed[name] { getters[type.name] = (info, scope.depth(to: info.home ?? type.scope)) }
        }
        guard !getters.isEmpty else { return nil }
        let location = self.location(nameSpan)
        let methods = ValueMethods.property(named: name)
        return { frame in
            let value = try base(frame)
            if let type = value.memberTypeName, let (info, depth) = getters[type] {
                return try info.run(parent: frame.ancestor(depth), self: value, arguments: [])
            }
            return try located(location) { try value.property(name, methods: methods) }
        }
    }

    /// `value.name(args)` where declared types have a method `name`: the
    /// value's type picks it when the call runs; other values get what the
    /// name means without the types (`fallback`), if anything.
    func compileMethodDispatch(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                               in scope: Scope, fallback: ((Expr) -> Code)?) -> Code? {
        var seen: Set<String> = []
        let candidates = scope.visibleTypes.compactMap { type -> (DeclaredType, FunctionInfo)? in
            guard seen.insert(type.name).inserted, let info = type.methods[name] else { return nil }
            return (type, info)
        }
        guard !candidates.isEmpty else { return nil }
        // Each type's overload that fits the call.
        let fits = candidates.compactMap { type, info in
            chooseOverload(info.allOverloads, arguments, span, in: scope, report: false).map { (type, $0) }
        }
        if fits.isEmpty {
            if fallback == nil { _ = bindArguments(arguments, to: candidates[0].1.parameters, of: name, at: span) }
            return fallback.map { $0(base) }
        }
        // The same name may be a mutating method of arrays or Bools (`toggle`).
        let changing = ValueMethods.group(named: name).flatMap { $0.changesReceiver ? $0 : nil }
        let mutation = changing?.bind(labels: arguments.map(\.label), values: arguments.map { _ in nil }, trailingClosure: arguments.last?.isTrailing == true)
        let mutating = fits.contains { $0.1.declaration.isMutating } || mutation != nil
        var place: Modify?
        if mutating {
            if Self.isPlace(base), let root = Self.placeRoot(base), root == "self" || isChangeable(root: root, in: scope) {
                place = compilePlace(base, in: scope)
            } else if mutation == nil, fits.allSatisfy({ $0.1.declaration.isMutating }) {
                let what = Self.placeRoot(base).map { "'\($0)' is not a var" } ?? "its receiver is not a var"
                error("'\(name)' is mutating, and \(what)", nameSpan, help: "call it on a var, as in var copy = value; copy.\(name)(...)")
                return { _ in .null }
            }
        }
        var table: [String: (info: FunctionInfo, bound: BoundArguments, depth: Int)] = [:]
        for (type, info) in fits {
            let binding = bindArguments(arguments, to: info.parameters, of: name, at: span, report: false)!
            table[type.name] = (info, compileBoundArguments(arguments, binding, info.parameters, in: scope), scope.depth(to: info.home ?? type.scope))
        }
        let location = self.location(nameSpan)
        // Values of other types go to the fallback.
        let (slot, otherCode) = compileThroughHiddenSlot(fallback, base, nameSpan, in: scope)
        let compiledReceiver = place == nil ? compiled(base, in: scope) : nil
        let receiver = compiledReceiver?.code
        if environment.memberUses != nil {
            // The method the call reaches on a value of the receiver's type,
            // where compiling it told that type, at whatever depth.
            let type = compiledReceiver?.type ?? placeType(base, in: scope)
            noteMemberUse(name, at: nameSpan, on: base, typed: type, in: scope, chosen: fits.map { ($0.0, $0.1) })
        }
        let mutationArguments = mutation.map { _ in compileArguments(arguments, in: scope) }
        func noMethod(_ value: Value) -> FlowError {
            FlowError("\(value.typeName) \(value.literal) has no method '\(name)'", at: location)
        }
        if let place {
            return { frame in
                var result = Value.null
                var handled = false
                try place(frame) { selfValue in
                    guard let type = selfValue.memberTypeName, let entry = table[type] else {
                        guard let mutation, let mutationArguments, !selfValue.isStream else { return }
                        handled = true
                        let values = try mutationArguments.evaluate(frame)
                        result = try located(location) {
                            try changing!.apply(to: &selfValue, labels: mutation, arguments: values)
                        }
                        return
                    }
                    handled = true
                    let mutates = entry.info.declaration.isMutating
                    var changed: Value?
                    let receiver = selfValue
                    result = try Self.invoke(entry.bound, slotOffset: 1, in: frame) { values, after in
                        try entry.info.run(parent: frame.ancestor(entry.depth), self: receiver, arguments: values) { callee in
                            after?(callee)
                            if mutates { changed = callee.slots[0] }
                        }
                    }
                    if let changed { selfValue = changed }
                }
                if handled { return result }
                var value = Value.null
                try place(frame) { value = $0 }
                guard let otherCode else { throw noMethod(value) }
                frame.slots[slot] = value
                return try otherCode(frame)
            }
        }
        return { frame in
            let value = try receiver!(frame)
            if let type = value.memberTypeName, let entry = table[type] {
                if entry.info.declaration.isMutating {
                    throw FlowError("'\(name)' is mutating: call it on a var", at: location)
                }
                return try Self.invoke(entry.bound, slotOffset: 1, in: frame) { values, after in
                    try entry.info.run(parent: frame.ancestor(entry.depth), self: value, arguments: values, after: after)
                }
            }
            guard let otherCode else { throw noMethod(value) }
            frame.slots[slot] = value
            return try otherCode(frame)
        }
    }

    /// A method call's other meaning (`fallback`, given the receiver as an
    /// expression), compiled to read a receiver already evaluated: the
    /// caller stores it in the returned slot first, so it is evaluated once.
    func compileThroughHiddenSlot(_ fallback: ((Expr) -> Code)?, _ base: Expr, _ nameSpan: Span, in scope: Scope) -> (slot: Int, code: Code?) {
        guard let fallback else { return (0, nil) }
        // A space keeps the name out of any script's reach.
        let hidden = " receiver \(nameSpan.start)"
        let slot = scope.declare(hidden, at: nameSpan) ?? scope.entries[hidden]!.slot
        return (slot, fallback(.name(hidden, base.span)))
    }

    /// A variable, or a member or element of one.
    static func isPlace(_ expr: Expr) -> Bool {
        switch expr {
        case .name, .shorthand: return true
        case .member(let base, _, _, _), .subscriptAccess(let base, _, _), .forceUnwrap(let base, _), .optionalBind(let base, _):
            return isPlace(base)
        default: return false
        }
    }

    static func placeRoot(_ expr: Expr) -> String? {
        switch expr {
        case .name(let name, _): return name
        case .shorthand(let n, _): return "$\(n)"
        case .member(let base, _, _, _), .subscriptAccess(let base, _, _), .forceUnwrap(let base, _), .optionalBind(let base, _):
            return placeRoot(base)
        default: return nil
        }
    }

    /// Whether a place rooted at `root` may change: a `var`, a closure's
    /// parameter (named or `$0`: an accumulator's `inout` state), or `self`'s
    /// stored property in a mutating method.
    func isChangeable(root: String, in scope: Scope) -> Bool {
        if root.hasPrefix("$") { return scope.enclosingClosure != nil }
        return scope.resolve(root)?.entry.binding.isMutable == true || isImplicitSelf(root, in: scope)
    }
}

extension Value {
    /// The type whose members a value has: its struct's or enum's name, or
    /// the built-in type an `extension` may add to (`Int`, `Array`, …).
    var memberTypeName: String? {
        switch self {
        case .tuple(let t): t.nominal?.type
        case .object(let o): o.objectClass.name
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .bool: "Bool"
        case .array: "Array"
        case .dictionary: "Dictionary"
        default: nil
        }
    }
}
