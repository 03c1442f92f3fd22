import FlowMarbles
import FlowRuntime

/// What `Program.bindingTypes` (an editor's hover) is told of the names the
/// compiler declares: closure and func parameters, `$0`, loop variables,
/// `if let` and `guard let` bindings, as well as `let`s and `var`s. Noted
/// only when asked; compiling is the same either way.
extension Compiler {
    /// Notes the type of the name written at `span` (or of the `$n` used there).
    func noteType(_ type: StaticType, at span: Span) {
        guard environment.bindingTypes != nil, type.isKnown else { return }
        environment.bindingTypes?[span.start] = type
    }

    /// The stream `cold("-a-b|")` or `hot("-a-^-b|", a: 1, b: 2)` makes, for
    /// a hover: Observable of its values' one type, as the marble string
    /// and literal labelled values say (a digit is an Int, a letter a
    /// String); nil where they differ or a value is not a literal.
    static func marbleStreamType(_ expr: Expr) -> StaticType? {
        guard case .call(.name(let name, _), let arguments, _) = expr, name == "cold" || name == "hot",
              let first = arguments.first, first.label == nil, let marbles = Self.literalText(first.value) else { return nil }
        var values: [String: Value] = [:]
        for argument in arguments.dropFirst() {
            guard let label = argument.label else { return nil }
            guard label != "error" else { continue }
            switch argument.value {
            case .literal(let value, _): values[label] = value
            case let other:
                guard let text = Self.literalText(other) else { return nil }
                values[label] = .string(text)
            }
        }
        guard let parsed = try? MarbleParser.parseEvents(marbles, values: values, allowSubscriptionPoint: name == "hot", isInput: true)
        else { return nil }
        var element: StaticType?
        for case .next(let value) in parsed.events.map(\.event) {
            let type: StaticType
            switch value {
            case .int: type = .int
            case .double: type = .double
            case .string: type = .string
            case .bool: type = .bool
            default: return nil
            }
            if let known = element, known != type { return nil }
            element = type
        }
        return element.map(StaticType.stream)
    }

    /// A string literal's text, without interpolation.
    private static func literalText(_ expr: Expr) -> String? {
        switch expr {
        case .literal(.string(let text), _): return text
        case .string(let parts, _):
            var text = ""
            for part in parts {
                guard case .text(let piece) = part else { return nil }
                text += piece
            }
            return text
        default: return nil
        }
    }
}
