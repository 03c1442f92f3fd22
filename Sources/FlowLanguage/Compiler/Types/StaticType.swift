import FlowRuntime

/// What the compiler knows of a value's type before the script runs.
/// Types are gradual: where the script writes a type, or an expression's
/// type follows from its parts (a literal, a typed name, an operator over
/// typed operands), it is known, and holds as in Swift; elsewhere it is
/// `unknown`, and the value's own kind decides when the script runs.
indirect enum StaticType: Equatable, Sendable {
    case unknown
    case int, double, string, bool
    /// `()`, what a func without a result type returns.
    case void
    case optional(StaticType)
    case array(StaticType)
    case dictionary(key: StaticType, value: StaticType)
    case tuple([StaticType], labels: [String?])
    /// A stream of elements of that type (`Observable<Int>`,
    /// `CurrentValueSubject<Double, Never>`).
    case stream(StaticType)
    /// A type known by its name only: one of the script's, or a library's.
    case named(String)
    /// One of the script's generic structs with its type arguments
    /// (`Stack<Double>`), and the types its stored properties take with
    /// them, in their order: a property written `Element` is a `Double`
    /// there, one that does not mention a type parameter is `unknown`.
    case generic(String, arguments: [StaticType], fields: [StaticType])
    /// A closure's or func's type: `(Double) -> Double`.
    case function(parameters: [StaticType], result: StaticType)

    var isKnown: Bool { self != .unknown }

    /// Foundation's `Decimal`, which the language defines (`DecimalValue`).
    static let decimal: StaticType = .named("Decimal")

    var isStream: Bool { if case .stream = self { true } else { false } }

    /// The name of a type known by its name, generic or not.
    var nominalName: String? {
        switch self {
        case .named(let name), .generic(let name, _, _): name
        default: nil
        }
    }

    /// Swift's name for it, as its compile errors write it.
    var swiftName: String {
        switch self {
        case .unknown: "Any"
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .bool: "Bool"
        case .void: "()"
        case .optional(let wrapped): wrapped.swiftName + "?"
        case .array(let element): "[" + element.swiftName + "]"
        case .dictionary(let key, let value): "[" + key.swiftName + ": " + value.swiftName + "]"
        case .tuple(let elements, let labels):
            "(" + zip(elements, labels).map { ($1.map { $0 + ": " } ?? "") + $0.swiftName }.joined(separator: ", ") + ")"
        case .stream(let element): "Observable<" + element.swiftName + ">"
        case .named(let name): name
        case .generic(let name, let arguments, _): name + "<" + arguments.map(\.swiftName).joined(separator: ", ") + ">"
        case .function(let parameters, let result):
            "(" + parameters.map(\.swiftName).joined(separator: ", ") + ") -> " + result.swiftName
        }
    }

    /// The type an optional wraps; itself where it is not optional.
    var unwrapped: StaticType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// `T?` of this type: Swift's `try?`, `as?` and optional chains do not
    /// nest an optional in another.
    var asOptional: StaticType {
        switch self {
        case .optional, .unknown: self == .unknown ? .optional(.unknown) : self
        default: .optional(self)
        }
    }

    var element: StaticType {
        switch self {
        case .array(let element), .stream(let element): element
        default: .unknown
        }
    }

    /// Whether a value of this type can need a conversion or a typed
    /// description: an Int becoming a Double, an optional printed as one.
    var mattersWhenRunning: Bool {
        switch self {
        case .unknown, .int, .string, .bool, .void, .named, .function: false
        case .double, .optional: true
        case .generic(_, _, let fields): fields.contains(where: \.mattersWhenRunning)
        case .array(let element), .stream(let element): element.mattersWhenRunning
        case .dictionary(let key, let value): key.mattersWhenRunning || value.mattersWhenRunning
        case .tuple(let elements, _): elements.contains(where: \.mattersWhenRunning)
        }
    }

    /// The type a literal value has in Swift where nothing else is known.
    static func of(literal value: Value) -> StaticType {
        switch value {
        case .int: .int
        case .double: .double
        case .string: .string
        case .bool: .bool
        case .null: .optional(.unknown)
        default: .unknown
        }
    }

    /// One type for the elements of a collection literal: the same type,
    /// or Double where Ints and Doubles mix (`[1, 2.5]` is `[Double]`).
    static func joined(_ types: [StaticType]) -> StaticType {
        guard var result = types.first else { return .unknown }
        for type in types.dropFirst() where type != result {
            switch (result, type) {
            case (.int, .double), (.double, .int): result = .double
            case (.optional(let a), let b) where a == b || a == .unknown: result = .optional(b == .unknown ? a : b)
            case (let a, .optional(let b)) where a == b || b == .unknown: result = .optional(a)
            default: return .unknown
            }
        }
        return result
    }
}

/// The names Swift and the libraries give the types flow knows.
enum KnownTypeNames {
    static let integers: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
    static let floatingPoint: Set<String> = ["Double", "Float", "Float32", "Float64", "CGFloat", "TimeInterval", "Decimal"]
    static let strings: Set<String> = ["String", "Substring", "Character"]
    /// Generic streams whose first argument is the element's type.
    static let streams: Set<String> = [
        "Observable", "PublishSubject", "BehaviorSubject", "ReplaySubject", "PublishRelay", "BehaviorRelay",
        "AnyPublisher", "PassthroughSubject", "CurrentValueSubject", "Just", "Future", "Deferred", "Empty", "Fail",
        "Single", "Maybe", "Driver", "Signal", "Infallible", "Published.Publisher", "Signal.Output",
    ]
}

extension Compiler {
    /// What a written type means here: the script's typealiases are
    /// followed (to a depth, so an alias of itself ends).
    func staticType(_ syntax: TypeSyntax, in scope: Scope, depth: Int = 0) -> StaticType {
        guard depth < 16 else { return .unknown }
        switch syntax {
        // Written optionals nest (`Int??`), as Swift's do.
        case .optional(let wrapped): return .optional(staticType(wrapped, in: scope, depth: depth + 1))
        case .array(let element): return .array(staticType(element, in: scope, depth: depth + 1))
        case .dictionary(let key, let value):
            return .dictionary(key: staticType(key, in: scope, depth: depth + 1), value: staticType(value, in: scope, depth: depth + 1))
        case .tuple(let elements, let labels):
            if elements.isEmpty { return .void }
            return .tuple(elements.map { staticType($0, in: scope, depth: depth + 1) }, labels: labels)
        case .function(let parameters, let result):
            return .function(parameters: parameters.map { staticType($0, in: scope, depth: depth + 1) },
                             result: staticType(result, in: scope, depth: depth + 1))
        case .named(let written, let arguments):
            let name = written.hasPrefix("Swift.") ? String(written.dropFirst(6)) : written
            if arguments.isEmpty, scope.isTypeParameter(name) { return .unknown }
            if declaresAliases, scope.lookupType(name) == nil, let aliased = scope.lookupAlias(name), aliased != name,
               var target = TypeSyntax(parsing: aliased) {
                // `Pair<Int>` for `typealias Pair<T> = (T, T)`: T is Int there.
                let parameters = scope.lookupAliasParameters(name)
                if !parameters.isEmpty, parameters.count == arguments.count {
                    target = target.substituting(Dictionary(uniqueKeysWithValues: zip(parameters, arguments)))
                }
                return staticType(target, in: scope, depth: depth + 1)
            }
            if let type = scope.lookupType(name) {
                let parameters = type.declaration.genericParameters
                guard !parameters.isEmpty, parameters.count == arguments.count, !type.isClass else { return .named(name) }
                return genericType(type, arguments, in: scope, depth: depth)
            }
            if KnownTypeNames.integers.contains(name) { return .int }
            if KnownTypeNames.floatingPoint.contains(name) { return name == "Decimal" ? .named(name) : .double }
            if KnownTypeNames.strings.contains(name) { return .string }
            if name == "Bool" { return .bool }
            if name == "Set", arguments.count == 1 { return .array(staticType(arguments[0], in: scope, depth: depth + 1)) }
            if name == "Any" || name == "AnyObject" || name == "AnyHashable" { return .unknown }
            if KnownTypeNames.streams.contains(name) {
                return .stream(arguments.first.map { staticType($0, in: scope, depth: depth + 1) } ?? .unknown)
            }
            return .named(name)
        }
    }

    /// `Stack<Double>`: its stored properties' types with `Element` read as
    /// `Double`. A property's type is followed a few levels deep only, so a
    /// type that holds itself (`Node<T>` with a `Node<T>?`) stays finite.
    private func genericType(_ type: DeclaredType, _ arguments: [TypeSyntax], in scope: Scope, depth: Int) -> StaticType {
        let resolved = arguments.map { staticType($0, in: scope, depth: depth + 1) }
        guard depth < 4 else { return .generic(type.name, arguments: resolved, fields: []) }
        let substitution = Dictionary(zip(type.declaration.genericParameters, arguments), uniquingKeysWith: { first, _ in first })
        let fields = type.declaration.stored.map { property -> StaticType in
            guard let text = property.type?.text, let written = TypeSyntax(parsing: text), written.mentions(substitution.keys) else { return .unknown }
            return staticType(written.substituting(substitution), in: type.scope, depth: depth + 1)
        }
        return .generic(type.name, arguments: resolved, fields: fields)
    }

    /// A type's text as the parser kept it; unknown where it does not read.
    func staticType(text: String?, in scope: Scope) -> StaticType {
        guard let text, let syntax = TypeSyntax(parsing: text) else { return .unknown }
        return staticType(syntax, in: scope)
    }
}

extension StaticType {
    /// What `x[i]` gives: an array's element, a dictionary's value as an
    /// optional (the key may be missing).
    var subscripted: StaticType {
        switch self {
        case .array(let element): element
        case .dictionary(_, let value): value.asOptional
        default: .unknown
        }
    }
}

extension Compiler {
    /// The type of a member read on a value of a known type: the script's
    /// typed properties, and the collections' properties that Swift types
    /// (`first` is an optional). `isWritten`: the script wrote it, or it
    /// is the library's.
    func memberType(of receiver: StaticType, _ name: String, in scope: Scope) -> (type: StaticType, isWritten: Bool)? {
        switch (receiver, name) {
        case (.array(let element), "first"), (.array(let element), "last"): return (element.asOptional, true)
        case (.array, "count"), (.string, "count"), (.dictionary, "count"): return (.int, true)
        case (.array, "isEmpty"), (.string, "isEmpty"), (.dictionary, "isEmpty"): return (.bool, true)
        case (.array(let element), "publisher"): return element.isKnown ? (.stream(element), true) : nil
        case (.dictionary(let key, _), "keys"): return (.array(key), true)
        case (.dictionary(_, let value), "values"): return (.array(value), true)
        case (.stream(let element), "value"): return element.isKnown ? (element, true) : nil
        case (.generic(let typeName, _, let fields), _):
            // `stack.items` of a `Stack<Double>` is a `[Double]`.
            if let type = resolveType(typeName, in: scope), let index = type.declaration.stored.firstIndex(where: { $0.name == name }),
               index < fields.count, fields[index].isKnown {
                return (fields[index], true)
            }
            return memberType(of: .named(typeName), name, in: scope)
        case (.int, _), (.double, _): return Self.numberMemberType(of: receiver, name).map { ($0, true) }
        case (.named(let typeName), _):
            guard let type = resolveType(typeName, in: scope) else { return nil }
            if let written = propertyType(name, of: type) { return (written, true) }
            if let getter = type.computed[name], let text = getter.declaration.resultType?.text {
                let resolved = staticType(text: text, in: type.scope)
                return resolved.isKnown ? (resolved, true) : nil
            }
            return nil
        default:
            return nil
        }
    }
}
