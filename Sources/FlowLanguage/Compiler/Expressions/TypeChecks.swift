import FlowRuntime

/// `x is T`, `x as? T`, `x as! T`: values carry their kind, so a type test
/// asks the value. The types a value can be told apart by are the value
/// core's (`Int`, `Double`, `String`, `Bool`, arrays, dictionaries, sets,
/// optionals, `Any`), the script's own structs and enums, and its
/// protocols (the types that conform); any other name (a class, a protocol
/// flow does not know) is a compile error, not a silent false.
extension Compiler {
    func compileTypeCheck(_ inner: Expr, _ check: TypeCheck, _ type: String, _ typeSpan: Span, in scope: Scope) -> CompiledExpression {
        let written = staticType(text: type, in: scope)
        if check == .coercion {
            // `x as Any` keeps what is known of x; `5 as Double` is 5.0.
            guard written.isKnown else { return compiled(inner, in: scope) }
            return compiled(inner, convertingTo: written, in: scope)
        }
        let value = compile(inner, in: scope)
        guard let matches = typeTest(type, typeSpan, in: scope) else { return CompiledExpression { _ in .null } }
        let location = self.location(typeSpan)
        switch check {
        case .test:
            return CompiledExpression({ frame in .bool(matches(try value(frame))) }, type: .bool, typeIsSure: true)
        case .conditional:
            return CompiledExpression({ frame in
                let v = try value(frame)
                return matches(v) ? v : .null
            }, type: written.asOptional, typeIsSure: written.isKnown)
        case .forced, .coercion:
            return CompiledExpression({ frame in
                let v = try value(frame)
                guard matches(v) else { throw FlowError("could not cast \(v.typeName) \(v.literal) to \(type)", at: location) }
                return v
            }, type: written, typeIsSure: written.isKnown)
        }
    }

    /// A test of values for the type written `text`; nil, with the error
    /// reported, for a type flow cannot tell values of apart.
    func typeTest(_ text: String, _ span: Span, in scope: Scope) -> ((Value) -> Bool)? {
        var type = text.trimmingWhitespace()
        // An alias tests for the type it names (once: an alias of an alias is read again below).
        if declaresAliases, let aliased = scope.lookupAlias(type), aliased != type { return typeTest(aliased, span, in: scope) }
        type = type.trimmingWhitespace()
        if type.hasSuffix("?") || type.hasSuffix("!") {
            guard let wrapped = typeTest(String(type.dropLast()), span, in: scope) else { return nil }
            return { $0.isNull || wrapped($0) }
        }
        if let (head, arguments) = Self.genericParts(type) {
            switch (head, arguments.count) {
            case ("[]", 1), ("Array", 1), ("Set", 1):
                guard let element = typeTest(arguments[0], span, in: scope) else { return nil }
                return { if case .array(let a) = $0 { a.allSatisfy { element($0) } } else { false } }
            case ("[]", 2), ("Dictionary", 2):
                guard let key = typeTest(arguments[0], span, in: scope), let item = typeTest(arguments[1], span, in: scope) else { return nil }
                return { if case .dictionary(let d) = $0 { d.allSatisfy { key($0.key) && item($0.value) } } else { false } }
            default:
                break
            }
        }
        switch type {
        case "Int": return { if case .int = $0 { true } else { false } }
        case "Double", "Float", "CGFloat", "TimeInterval": return { if case .double = $0 { true } else { false } }
        case "String": return { if case .string = $0 { true } else { false } }
        case "Character": return { if case .string(let s) = $0 { s.count == 1 } else { false } }
        case "Bool": return { if case .bool = $0 { true } else { false } }
        case "Any": return { _ in true }
        default: break
        }
        if let nominal = Self.libraryTypes[type], resolveType(type, in: scope) == nil {
            return { if case .tuple(let t) = $0 { nominal.contains { $0 === t.nominal } } else { false } }
        }
        if let objectClass = DateFormatterValue.classes[type], resolveType(type, in: scope) == nil {
            return { if case .object(let o) = $0 { o.objectClass === objectClass } else { false } }
        }
        if scope.lookupProtocol(type) != nil {
            // The types that conform to it, by name (and the built-in ones an extension made conform).
            let conforming = Set(scope.visibleTypes.filter { $0.conforms(to: type, in: scope) }.map(\.name))
            return { $0.memberTypeName.map(conforming.contains) ?? false }
        }
        if let declared = resolveType(type, in: scope) {
            let name = declared.name
            return { value in
                switch value {
                case .tuple(let t): t.nominal?.type == name
                // An object is of its class and of each class above it.
                case .object(let o): o.objectClass.isKind(of: name)
                default: false
                }
            }
        }
        error("flow cannot test a value for the type '\(type)'", span,
              help: "it tests Int, Double, String, Bool, Character, arrays, dictionaries, sets, optionals, Any and the script's structs, enums and protocols")
        return nil
    }

    /// The library's types a value can be tested for, by the records that
    /// are of each (a `URLResponse` test holds for an `HTTPURLResponse`).
    static let libraryTypes: [String: [Nominal]] = [
        "URL": [URLValue.nominal], "URLRequest": [URLRequestValue.nominal], "HTTPURLResponse": [HTTPURLResponseValue.nominal],
        "URLResponse": [HTTPURLResponseValue.nominal], "Data": [DataValue.nominal], "Decimal": [DecimalValue.nominal], "Date": [DateValue.nominal],
        "TimeZone": [TimeZoneValue.nominal], "Locale": [LocaleValue.nominal],
    ]

    /// `[Int]` → ("[]", ["Int"]), `[String: Int]` → ("[]", ["String", "Int"]),
    /// `Array<Int>` → ("Array", ["Int"]); nil for a plain name.
    static func genericParts(_ type: String) -> (String, [String])? {
        if type.hasPrefix("["), type.hasSuffix("]") {
            let inside = String(type.dropFirst().dropLast())
            return ("[]", splitAtTopLevel(inside, separator: ":"))
        }
        guard let open = type.firstIndex(of: "<"), type.hasSuffix(">") else { return nil }
        let inside = String(type[type.index(after: open)..<type.index(before: type.endIndex)])
        return (String(type[..<open]), splitAtTopLevel(inside, separator: ","))
    }

    /// The parts of a type's text between separators outside brackets.
    private static func splitAtTopLevel(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for c in text {
            if c == "[" || c == "<" || c == "(" { depth += 1 }
            if c == "]" || c == ">" || c == ")" { depth -= 1 }
            if c == separator && depth == 0 {
                parts.append(current.trimmingWhitespace())
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current.trimmingWhitespace())
        return parts
    }
}
