import FlowRuntime

/// The script's generic structs used with their type arguments, as Swift
/// code writes them: `Stack<Double>()`, `Stack<Double>.of(4)`,
/// `stack.push(3)` on a `Stack<Double>`. The type with its arguments is
/// `StaticType.generic`; these make the values and arguments of it.
extension Compiler {
    /// `Stack<Double>` written at the name of the script's generic type
    /// `type` (`Stack<Double>(items: [1])`, `Stack<Double>.of(1)`); nil where
    /// no type arguments are written there.
    func writtenGenericType(of type: DeclaredType, at nameSpan: Span, in scope: Scope) -> StaticType? {
        guard !type.declaration.genericParameters.isEmpty, let text = file.genericTypeText(at: nameSpan.start) else { return nil }
        let written = staticType(text: text, in: scope)
        guard case .generic(let name, _, _) = written, name == type.name else { return nil }
        return written
    }

    /// The arguments of `stack.push(3)` where `stack` is a `Stack<Double>`:
    /// each given to a parameter written with the type's parameters
    /// (`_ e: Element`) is read as that parameter's type there (`3 as
    /// Double`). The arguments as written elsewhere.
    func argumentsOfGenericReceiver(_ base: Expr, _ name: String, _ arguments: [CallArgument], in scope: Scope) -> [CallArgument] {
        guard case .generic(let typeName, let typeArguments, _) = guessedType(of: base, in: scope),
              let type = resolveType(typeName, in: scope), let method = type.methods[name] else { return arguments }
        let parameters = type.declaration.genericParameters
        let labels = arguments.map(\.label)
        guard let declaration = method.allOverloads.map(\.declaration).first(where: { declaration in
            declaration.parameters.count == arguments.count && zip(declaration.parameters, labels).allSatisfy { $0.label == $1 }
        }), parameters.count == typeArguments.count else { return arguments }
        let substitution = Dictionary(zip(parameters, typeArguments.map { TypeSyntax(parsing: $0.swiftName) ?? .named("Any", arguments: []) }),
                                      uniquingKeysWith: { first, _ in first })
        return zip(arguments, declaration.parameters).map { argument, parameter in
            guard !parameter.isInout, let text = parameter.type?.text, let written = TypeSyntax(parsing: text), written.mentions(parameters) else {
                return argument
            }
            let typed = staticType(written.substituting(substitution), in: type.scope)
            guard typed.isKnown else { return argument }
            var converted = argument
            converted.value = .typeCheck(argument.value, .coercion, type: typed.swiftName, typeSpan: argument.value.span, argument.value.span)
            return converted
        }
    }

    /// A value made as `type`: its properties of the type's parameters
    /// converted (`Box<Double>(value: 2)` holds 2.0).
    func converted(_ made: CompiledExpression, to type: StaticType) -> CompiledExpression {
        guard let convert = Conversion.to(type) else { return made.typed(type, sure: true) }
        let code = made.code
        return CompiledExpression({ frame in convert(try code(frame)) }, type: type, typeIsSure: true)
    }
}

extension Compiler {
    /// `Optional<Double>` written at `typeSpan`: its type, where it names one.
    func writtenOptionalType(at typeSpan: Span, in scope: Scope) -> StaticType? {
        guard let text = file.genericTypeText(at: typeSpan.start), case .optional(let wrapped) = staticType(text: text, in: scope),
              wrapped.isKnown else { return nil }
        return .optional(wrapped)
    }

    /// `Optional(4)`, `Optional<Double>(5)`, `Optional.some(x)`: the value,
    /// an optional of its type (flow keeps one nil, so wrapping a value
    /// changes how it is described, `Optional(4)`, not the value); with the
    /// type written, converted to it, as `Optional<Double>(5)` is `5.0`.
    func compileOptionalWrapping(_ argument: Expr, typeSpan: Span, in scope: Scope) -> CompiledExpression {
        if let written = writtenOptionalType(at: typeSpan, in: scope), case .optional(let wrapped) = written {
            return converted(compiled(argument, convertingTo: wrapped, in: scope), to: written)
        }
        let value = compiled(argument, in: scope)
        return value.typed(.optional(value.type), sure: value.typeIsSure && value.type.isKnown)
    }
}
