import Collections
import FlowRuntime

/// Swift gives a number the type declared for it: `5` given where a
/// `Double` is declared is `5.0`, and so is an Int known only when the
/// script runs (a marble's `5` passed to a `Double` parameter). A
/// conversion is made once, where the type is declared, and is nil where
/// nothing of that type can need one, so untyped code pays nothing.
enum Conversion {
    typealias Convert = (Value) -> Value

    static func to(_ type: StaticType) -> Convert? {
        switch type {
        case .double:
            return { value in
                if case .int(let i) = value { return .double(Double(i)) }
                return value
            }
        case .optional(let wrapped):
            guard let inner = to(wrapped) else { return nil }
            return { value in value.isNull ? value : inner(value) }
        case .array(let element):
            guard let inner = to(element) else { return nil }
            return { value in
                guard case .array(let items) = value else { return value }
                return .array(items.map(inner))
            }
        case .dictionary(let key, let valueType):
            let keys = to(key), values = to(valueType)
            guard keys != nil || values != nil else { return nil }
            return { value in
                guard case .dictionary(let pairs) = value else { return value }
                var converted = OrderedDictionary<Value, Value>(minimumCapacity: pairs.count)
                for (k, v) in pairs { converted[keys?(k) ?? k] = values?(v) ?? v }
                return .dictionary(converted)
            }
        case .tuple(let elements, _):
            let inner = elements.map(to)
            guard inner.contains(where: { $0 != nil }) else { return nil }
            return { value in
                guard case .tuple(var tuple) = value, tuple.elements.count == inner.count else { return value }
                for (i, convert) in inner.enumerated() {
                    if let convert { tuple.elements[i] = convert(tuple.elements[i]) }
                }
                return .tuple(tuple)
            }
        case .named("Decimal"):
            // `let price: Decimal = 19`: Swift's literal is a Decimal.
            return { value in
                switch value {
                case .int, .double: DecimalValue.number(value).map(DecimalValue.make) ?? value
                default: value
                }
            }
        case .generic(let name, _, let fields):
            // `let s: Stack<Double> = Stack(items: [1])`: the properties the
            // type parameter types take its argument, as Swift's literals would.
            let inner = fields.map(to)
            guard inner.contains(where: { $0 != nil }) else { return nil }
            return { value in
                guard case .tuple(var tuple) = value, tuple.nominal?.type == name, tuple.elements.count == inner.count else { return value }
                for (i, convert) in inner.enumerated() {
                    if let convert { tuple.elements[i] = convert(tuple.elements[i]) }
                }
                return .tuple(tuple)
            }
        case .unknown, .int, .string, .bool, .void, .stream, .named, .function:
            return nil
        }
    }

    /// A literal given where `type` is declared, as Swift reads it: the
    /// value now, so a run pays nothing.
    static func literal(_ value: Value, to type: StaticType) -> Value {
        to(type)?(value) ?? value
    }
}

extension Compiler {
    /// Compiles a value given where `declared` is written (a binding's
    /// annotation, a parameter, a result, a property): literals take the
    /// declared type, a value of another known type is Swift's compile
    /// error, and an Int known only when running converts.
    /// `reportingMismatch` false: the declared type is only likely (a `var`
    /// first given a literal), so a value of another type is let through.
    func compiled(_ expr: Expr, convertingTo declared: StaticType, reportingMismatch: Bool = true, in scope: Scope) -> CompiledExpression {
        var value = compiled(expr, expecting: declared, in: scope)
        guard declared.isKnown else { return value }
        if value.typeIsSure, reportingMismatch { reportMismatch(value.type, declared, at: expr.span) }
        if let convert = Conversion.to(declared) {
            let code = value.code
            value = CompiledExpression({ frame in convert(try code(frame)) }, isStream: value.isStream)
        }
        value.type = declared
        return value
    }

    /// Swift's "cannot convert value of type 'Int' to specified type
    /// 'Double'", for the types flow knows before running.
    func reportMismatch(_ given: StaticType, _ declared: StaticType, at span: Span) {
        guard !Self.fits(given, declared) else { return }
        if case .optional(let wrapped) = given, Self.fits(wrapped, declared) {
            error("value of optional type '\(given.swiftName)' must be unwrapped to a value of type '\(declared.swiftName)'", span,
                  help: "give a value for nil with ??, as in \(file.text(of: span)) ?? ..., or unwrap it with if let")
            return
        }
        let help: String? = switch (given, declared) {
        case (.int, .double): "convert it, as in Double(\(file.text(of: span)))"
        case (.double, .int): "convert it, as in Int(\(file.text(of: span)))"
        case (_, .string): "make a String of it, as in String(describing: \(file.text(of: span)))"
        default: nil
        }
        error("cannot convert value of type '\(given.swiftName)' to specified type '\(declared.swiftName)'", span, help: help)
    }

    /// Whether a value of type `given` may stand where `declared` is
    /// written. Unknown on either side fits: the value decides.
    static func fits(_ given: StaticType, _ declared: StaticType) -> Bool {
        switch (given, declared) {
        case (.unknown, _), (_, .unknown), (.named, _), (_, .named), (.generic, _), (_, .generic), (.function, _), (_, .function),
             (.stream, _), (_, .stream):
            return true
        case (.optional(let g), .optional(let d)): return fits(g, d)
        case (_, .optional(let d)): return fits(given, d)
        case (.optional, _): return false
        case (.array(let g), .array(let d)): return fits(g, d)
        case (.dictionary(let gk, let gv), .dictionary(let dk, let dv)): return fits(gk, dk) && fits(gv, dv)
        case (.tuple(let g, _), .tuple(let d, _)): return g.count == d.count && zip(g, d).allSatisfy { fits($0, $1) }
        default: return given == declared
        }
    }
}

extension Compiler {
    /// The type of a place that is assigned, where it is known: a `var`
    /// (written, or its first value's: `var total = 0.0` holds Doubles), a
    /// typed stored property, an element of a typed collection. Nil where
    /// none is.
    func placeType(of target: Expr, in scope: Scope) -> StaticType? {
        switch target {
        case .name(let name, _):
            if isImplicitSelf(name, in: scope), let type = scope.methodScope?.selfType { return propertyType(name, of: type) }
            guard let entry = scope.resolve(name)?.entry, entry.type.isKnown else { return nil }
            return entry.type
        case .member(.name("self", _), let name, _, _):
            guard let type = scope.methodScope?.selfType else { return nil }
            return propertyType(name, of: type)
        case .member(let base, let name, _, _):
            // `account.balance = 5`, of a typed struct or object.
            guard let typeName = (placeType(of: base, in: scope) ?? knownType(of: base, in: scope))?.nominalName,
                  let type = resolveType(typeName, in: scope) else { return nil }
            return propertyType(name, of: type)
        case .subscriptAccess(let base, _, _):
            // `stock["milk"] = 5` in a `[String: Double]`: the value's type.
            switch placeType(of: base, in: scope) {
            case .dictionary(_, let value)?: return value.isKnown ? value.asOptional : nil
            case .array(let element)?: return element.isKnown ? element : nil
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Whether a place's type is sure (written, or of a sure value), so a
    /// value of another type given to it is Swift's error.
    func placeTypeIsSure(_ target: Expr, in scope: Scope) -> Bool {
        switch target {
        case .name(let name, _):
            if isImplicitSelf(name, in: scope) { return true }
            return scope.resolve(name)?.entry.typeIsWritten == true
        case .member, .subscriptAccess: return true
        default: return false
        }
    }

    /// A name's type where it is one of the script's types (`let a =
    /// Account()`): what it holds has that type's properties.
    private func knownType(of expr: Expr, in scope: Scope) -> StaticType? {
        let type = guessedType(of: expr, in: scope)
        if case .named = type { return type }
        return nil
    }

    /// A stored property's written type, where it has one.
    func propertyType(_ name: String, of type: DeclaredType) -> StaticType? {
        let stored = type.isClass ? type.allStored : type.declaration.stored
        guard let text = stored.first(where: { $0.name == name })?.type?.text else { return nil }
        // `var items: [Element]` of a `Stack<Element>`: known only with the type's arguments (`StaticType.generic`).
        if !type.declaration.genericParameters.isEmpty, let written = TypeSyntax(parsing: text),
           written.mentions(type.declaration.genericParameters) { return nil }
        let resolved = staticType(text: text, in: type.scope)
        return resolved.isKnown ? resolved : nil
    }
}

extension Value {
    /// `()`: what a func without a result type returns, as Swift's Void.
    static var void: Value { .tuple(Tuple([])) }
}

extension Compiler {
    /// The result type funcs declare, where they all declare the same one
    /// (a func without `->` returns `()`); nil where it is not known.
    func writtenResultType(of functions: [FunctionInfo], in scope: Scope) -> StaticType? {
        let types = functions.map { info -> StaticType in
            guard let written = info.declaration.resultType else { return info.declaration.isFunc ? .void : .unknown }
            return staticType(text: written.text, in: info.home ?? scope)
        }
        guard let first = types.first, first.isKnown, types.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}

extension Compiler {
    /// A stored property's default value, of the property's written type
    /// (`var balance: Double = 0` starts at 0.0).
    func compiledDefault(_ value: Expr, of property: TypeDeclaration.StoredProperty, in scope: Scope) -> Code {
        compiled(value, convertingTo: staticType(text: property.type?.text, in: scope), in: scope).code
    }
}
