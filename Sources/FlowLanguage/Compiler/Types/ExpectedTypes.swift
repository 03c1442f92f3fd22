import Collections
import FlowRuntime

/// Swift reads a literal, a collection literal and an implicit member by
/// the type expected of it: `5` where a `Double` is expected is `5.0`,
/// `[1, 2]` where `[Double]` is expected is `[1.0, 2.0]`, and `.standard`
/// where a `Config` is expected is `Config.standard`.
extension Compiler {
    func compiled(_ expr: Expr, expecting expected: StaticType, in scope: Scope) -> CompiledExpression {
        switch expr {
        case .literal(let value, let span) where expected.isKnown:
            return compiled(.literal(Conversion.literal(value, to: expected), span), in: scope)
        case .unary(.negate, .literal(let value, _), let span) where value.isNumber && expected.unwrapped == .double:
            // `-5` where a Double is expected: one literal, made now.
            guard let negated = try? Value.negate(Conversion.literal(value, to: .double)) else { return compiled(expr, in: scope) }
            return compiled(.literal(negated, span), in: scope)
        case .array(let elements, _):
            return compileArrayLiteral(elements, expecting: expected.unwrapped, in: scope)
        case .dictionary(let pairs, _):
            return compileDictionaryLiteral(pairs, expecting: expected.unwrapped, in: scope)
        case .tuple(let elements, let labels, _):
            var types: [StaticType] = Array(repeating: .unknown, count: elements.count)
            if case .tuple(let expectedTypes, _) = expected.unwrapped, expectedTypes.count == elements.count { types = expectedTypes }
            let parts = zip(elements, types).map { compiled($0, expecting: $1, in: scope) }
            let codes = parts.map(\.code)
            return CompiledExpression({ frame in .tuple(Tuple(try codes.map { try $0(frame) }, labels: labels)) },
                                      type: .tuple(parts.map(\.type), labels: labels), typeIsSure: parts.allSatisfy(\.typeIsSure))
        case .implicitMember(let name, let span):
            if let rewritten = implicitMember(name, span, arguments: nil, callSpan: span, expecting: expected, in: scope) {
                return compiled(rewritten, expecting: .unknown, in: scope)
            }
            return compiled(expr, in: scope)
        case .call(.implicitMember(let name, let span), let arguments, let callSpan):
            if let rewritten = implicitMember(name, span, arguments: arguments, callSpan: callSpan, expecting: expected, in: scope) {
                return compiled(rewritten, expecting: .unknown, in: scope)
            }
            return compiled(expr, in: scope)
        case .closure:
            // `let scale: (Double) -> Double = { $0 / 2 }`: the parameters
            // and the result take the written types.
            guard case .function(let parameters, let result) = expected.unwrapped else { return compiled(expr, in: scope) }
            closureParameterTypes = parameters
            closureResultType = result
            return compiled(expr, in: scope).typed(expected, sure: true)
        case .ternary(let condition, let whenTrue, let whenFalse, _) where expected.isKnown:
            return compileTernary(condition, whenTrue, whenFalse, expecting: expected, in: scope)
        default:
            return compiled(expr, in: scope)
        }
    }

    private func compileArrayLiteral(_ elements: [Expr], expecting expected: StaticType, in scope: Scope) -> CompiledExpression {
        var elementType: StaticType = if case .array(let element) = expected { element } else { .unknown }
        var parts = elements.map { compiled($0, expecting: elementType, in: scope) }
        if elementType == .unknown {
            // `[1, 2.5]` is a `[Double]`: its Ints are read as Doubles.
            elementType = StaticType.joined(parts.map(\.type))
            if elementType == .double, parts.contains(where: { $0.type == .int }) {
                parts = elements.map { compiled($0, expecting: .double, in: scope) }
            }
        }
        let codes = parts.map(\.code)
        let sure = parts.allSatisfy(\.typeIsSure)
        let type: StaticType = elements.isEmpty && elementType == .unknown ? .array(.unknown) : .array(elementType)
        if let constants = Self.constants(elements, parts) {
            let value = Value.array(constants)
            return CompiledExpression({ _ in value }, type: type, typeIsSure: sure)
        }
        return CompiledExpression({ frame in .array(try codes.map { try $0(frame) }) }, type: type, typeIsSure: sure)
    }

    /// The values of a collection literal made only of literals (after
    /// their conversion), made once.
    private static func constants(_ elements: [Expr], _ parts: [CompiledExpression]) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for (element, part) in zip(elements, parts) {
            guard case .literal(let written, _) = element else { return nil }
            // A converted literal's value is the compiled code's own.
            values.append(part.type == .double ? Conversion.literal(written, to: .double) : written)
        }
        return values
    }

    private func compileDictionaryLiteral(_ pairs: [(key: Expr, value: Expr)], expecting expected: StaticType,
                                          in scope: Scope) -> CompiledExpression {
        var keyType: StaticType = .unknown, valueType: StaticType = .unknown
        if case .dictionary(let k, let v) = expected { (keyType, valueType) = (k, v) }
        let keys = pairs.map { compiled($0.key, expecting: keyType, in: scope) }
        var values = pairs.map { compiled($0.value, expecting: valueType, in: scope) }
        if keyType == .unknown { keyType = StaticType.joined(keys.map(\.type)) }
        if valueType == .unknown {
            valueType = StaticType.joined(values.map(\.type))
            if valueType == .double, values.contains(where: { $0.type == .int }) {
                values = pairs.map { compiled($0.value, expecting: .double, in: scope) }
            }
        }
        let codes = zip(keys.map(\.code), values.map(\.code)).map { ($0, $1) }
        let sure = keys.allSatisfy(\.typeIsSure) && values.allSatisfy(\.typeIsSure)
        return CompiledExpression({ frame in
            var dictionary = OrderedDictionary<Value, Value>(minimumCapacity: codes.count)
            for (key, value) in codes { dictionary[try key(frame)] = try value(frame) }
            return .dictionary(dictionary)
        }, type: .dictionary(key: keyType, value: valueType), typeIsSure: sure)
    }

    /// An implicit member (`.quiet`, `.init(volume: 5)`) written where a
    /// value of `expected` goes, as the member of that type it names;
    /// any other expression as it is.
    func implicitMemberSpelledOut(_ expr: Expr, expecting expected: StaticType, in scope: Scope) -> Expr {
        switch expr {
        case .implicitMember(let name, let span):
            return implicitMember(name, span, arguments: nil, callSpan: span, expecting: expected, in: scope) ?? expr
        case .call(.implicitMember(let name, let span), let arguments, let callSpan):
            return implicitMember(name, span, arguments: arguments, callSpan: callSpan, expecting: expected, in: scope) ?? expr
        default:
            return expr
        }
    }

    /// `.standard` where a `Config` is expected is `Config.standard`,
    /// `.init(retries: 1)` is `Config(retries: 1)`, `.some(x)` where an
    /// optional is expected is `x`, and `.just(x)` where a stream is
    /// expected is `just(x)`. Nil where the expected type says nothing.
    private func implicitMember(_ name: String, _ span: Span, arguments: [CallArgument]?, callSpan: Span,
                                expecting expected: StaticType, in scope: Scope) -> Expr? {
        if case .optional(let wrapped) = expected {
            if name == "none", arguments == nil { return .literal(.null, span) }
            if name == "some", let arguments, arguments.count == 1, arguments[0].label == nil {
                if let typeName = wrapped.nominalName, let rewritten = implicitMemberOf(typeName, arguments[0].value) { return rewritten }
                return arguments[0].value
            }
            return implicitMember(name, span, arguments: arguments, callSpan: callSpan, expecting: wrapped, in: scope)
        }
        switch expected {
        case .named(let typeName) where resolveType(typeName, in: scope) != nil,
             .generic(let typeName, _, _) where resolveType(typeName, in: scope) != nil:
            let typeExpr = Expr.name(typeName, span)
            guard let arguments else { return .member(typeExpr, name, nameSpan: span, span) }
            if name == "init" { return .call(callee: typeExpr, arguments: arguments, callSpan) }
            return .call(callee: .member(typeExpr, name, nameSpan: span, span), arguments: arguments, callSpan)
        case .stream:
            guard let arguments, let spec = operatorTable.lookup(name), spec.form != .method else { return nil }
            return .call(callee: .name(name, span), arguments: arguments, callSpan)
        default:
            return nil
        }
    }

    /// `.some(.standard)`: the inner implicit member, of the wrapped type.
    private func implicitMemberOf(_ typeName: String, _ expr: Expr) -> Expr? {
        switch expr {
        case .implicitMember(let name, let span): return .member(.name(typeName, span), name, nameSpan: span, span)
        case .call(.implicitMember(let name, let span), let arguments, let callSpan):
            if name == "init" { return .call(callee: .name(typeName, span), arguments: arguments, callSpan) }
            return .call(callee: .member(.name(typeName, span), name, nameSpan: span, span), arguments: arguments, callSpan)
        default: return nil
        }
    }
}
