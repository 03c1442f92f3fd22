import FlowRuntime

/// A struct's own `init`s, as Swift has them: a struct that declares one
/// loses its memberwise initialiser; an init sets `self`'s properties (it
/// runs as a mutating method on a value whose properties start at their
/// defaults), may call another with `self.init(...)`, and an `init?` may
/// give nil with `return nil`.
extension Compiler {
    func compileStructInitialiserCall(_ type: DeclaredType, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                                      in scope: Scope) -> Code {
        guard let info = chooseOverload(type.initialisers, arguments, span, in: scope, report: false) else {
            let inits = type.initialisers.map { type.name + "(" + $0.parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }.joined(separator: ", ")
            error("no init of '\(type.name)' takes these arguments", nameSpan, help: "its inits are \(inits)")
            return { _ in .null }
        }
        let binding = bindArguments(arguments, to: info.parameters, of: "\(type.name).init", at: span, report: false)!
        let bound = compileBoundArguments(arguments, binding, info.parameters, in: scope)
        let typeDepth = scope.depth(to: type.scope)
        let initDepth = scope.depth(to: info.home ?? type.scope)
        let labels = type.declaration.stored.map { Optional($0.name) }
        let nominal = Nominal(type: type.name)
        return { frame in
            let blank = try Self.blankStruct(type, labels: labels, nominal: nominal, home: frame.ancestor(typeDepth))
            var made = blank
            do {
                _ = try Self.invoke(bound, slotOffset: 1, in: frame) { values, after in
                    try info.run(parent: frame.ancestor(initDepth), self: blank, arguments: values) { callee in
                        after?(callee)
                        made = callee.slots[0]
                    }
                }
            } catch is FailedInitialisation {
                return .null
            }
            return made
        }
    }

    /// The value an init starts from: each property at its default, nil
    /// where it has none (the init sets it).
    static func blankStruct(_ type: DeclaredType, labels: [String?], nominal: Nominal, home: Frame) throws -> Value {
        let defaults = type.storedDefaults
        var elements: [Value] = []
        elements.reserveCapacity(labels.count)
        for i in labels.indices { elements.append(try i < defaults.count ? defaults[i]?(home) ?? .null : .null) }
        return .tuple(Tuple(elements, labels: labels, nominal: nominal))
    }
}
