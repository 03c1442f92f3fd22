import FlowRuntime

/// Choosing among funcs of one name, as Swift does: by the call's labels
/// and number of arguments, then by the types of the arguments where they
/// are known before running (a literal, a typed name, a typed result).
/// An exact match beats a literal's conversion (`5` fits an `Int` before a
/// `Double`). The choice is made once, when compiling.
extension Compiler {
    func chooseOverload(_ candidates: [FunctionInfo], _ arguments: [CallArgument], _ span: Span, in scope: Scope,
                        report: Bool = true) -> FunctionInfo? {
        let fitting = candidates.compactMap { info -> (FunctionInfo, [Int?])? in
            bindArguments(arguments, to: info.parameters, of: info.name, at: span, report: false).map { (info, $0) }
        }
        if fitting.count == 1 { return fitting[0].0 }
        guard !fitting.isEmpty else {
            if report {
                error("no '\(candidates[0].name)' takes these arguments; there are " + candidates.map(\.signature).joined(separator: ", "), span)
            }
            return nil
        }
        let argumentTypes = arguments.map { guessedType(of: $0.value, in: scope) }
        var best: [(FunctionInfo, Int)] = []
        for (info, binding) in fitting {
            var score = 0
            var fits = true
            for (p, a) in binding.enumerated() {
                guard let a else { continue }
                let parameter = staticType(text: info.parameters[p].type?.text, in: info.home ?? scope)
                let argument = argumentTypes[a]
                if !argument.isKnown || !parameter.isKnown { continue }
                if argument == parameter {
                    score += 2
                } else if case .literal(.int, _) = arguments[a].value, parameter.unwrapped == .double {
                    score += 1
                } else if Self.fits(argument, parameter) {
                    score += 1
                } else {
                    fits = false
                }
            }
            guard fits else { continue }
            if let top = best.first?.1, score < top { continue }
            if let top = best.first?.1, score > top { best = [] }
            best.append((info, score))
        }
        if best.count == 1 { return best[0].0 }
        if best.isEmpty {
            if report {
                let given = argumentTypes.map(\.swiftName).joined(separator: ", ")
                error("no '\(candidates[0].name)' takes arguments of types (\(given)); there are "
                      + fitting.map(\.0.signature).joined(separator: ", "), span)
            }
            return nil
        }
        if report, argumentTypes.allSatisfy(\.isKnown) {
            error("ambiguous use of '\(candidates[0].name)': " + best.map(\.0.signature).joined(separator: " and ") + " both fit", span,
                  help: "give the argument a type, as in x as Int")
            return nil
        }
        // Types not known before running: the first declared that fits.
        return best[0].0
    }

    /// An expression's type as far as it shows without compiling it: a
    /// literal's, a name's, a construction's, a conversion's.
    /// `Array(repeating: 0.0, count: n)`: an array of its element's type.
    func repeatedArrayType(_ arguments: [CallArgument], in scope: Scope) -> StaticType {
        let element = guessedType(of: arguments[0].value, in: scope)
        return element.isKnown ? .array(element) : .unknown
    }

    func guessedType(of expr: Expr, in scope: Scope) -> StaticType {
        switch expr {
        case .literal(let value, _): return .of(literal: value)
        case .string: return .string
        case .name(let name, _): return scope.resolve(name)?.entry.type ?? .unknown
        case .array(let elements, _): return .array(StaticType.joined(elements.map { guessedType(of: $0, in: scope) }))
        case .unary(.negate, let operand, _): return guessedType(of: operand, in: scope)
        case .call(.name("Array", _), let arguments, _) where arguments.map(\.label) == ["repeating", "count"] && scope.lookup("Array") == nil:
            return repeatedArrayType(arguments, in: scope)
        case .call(.name(let name, _), _, _):
            if let type = resolveType(name, in: scope) { return .named(type.name) }
            if let info = scope.resolve(name)?.entry.function { return writtenResultType(of: info.allOverloads, in: scope) ?? .unknown }
            return .unknown
        case .typeCheck(_, .coercion, let type, _, _), .typeCheck(_, .forced, let type, _, _):
            return staticType(text: type, in: scope)
        default: return .unknown
        }
    }
}
