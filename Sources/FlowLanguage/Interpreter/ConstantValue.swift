import FlowMarbles
import FlowRuntime
import OrderedCollections

/// A value written as a script writes it, read without running anything:
/// what a learner types as the value of a marble they place (`10`, `-2.5`,
/// `"a b"`, `true`, `nil`, `(1, "a")`, `(x: 1, y: 2)`, `[1, 2]`,
/// `["k": 1]`). Anything else is not a constant: nil. With `marbleStreams`,
/// `cold("1-3|", a: 10)` is one too, the marble stream it writes: the
/// answer to a lane of groups or windows, each group as `toBe` takes it.
public enum ConstantValue {
    public static func read(_ text: String, marbleStreams: Bool = false) -> Value? {
        guard text.utf8.count <= 10_000 else { return nil }
        var parser = Parser(file: SourceFile(path: "<value>", text: text))
        guard let expr = try? parser.parseExpression(), parser.peek().kind.isEnd, parser.diagnostics.isEmpty else { return nil }
        return value(of: expr, depth: 0, marbleStreams: marbleStreams)
    }

    private static func value(of expr: Expr, depth: Int, marbleStreams: Bool) -> Value? {
        guard depth < 32 else { return nil }
        let value = { (expr: Expr) in Self.value(of: expr, depth: depth + 1, marbleStreams: marbleStreams) }
        switch expr {
        case .literal(let value, _):
            return value
        case .string(let parts, _):
            var text = ""
            for part in parts {
                guard case .text(let piece) = part else { return nil }
                text += piece
            }
            return .string(text)
        case .unary(.negate, let operand, _):
            switch value(operand) {
            case .int(let i)? where i != .min: return .int(-i)
            case .double(let d)?: return .double(-d)
            default: return nil
            }
        case .tuple(let elements, let labels, _):
            let values = elements.compactMap(value)
            guard values.count == elements.count else { return nil }
            return .tuple(Tuple(values, labels: labels))
        case .array(let elements, _):
            let values = elements.compactMap(value)
            guard values.count == elements.count else { return nil }
            return .array(values)
        case .dictionary(let pairs, _):
            var entries = OrderedDictionary<Value, Value>()
            for (key, item) in pairs {
                guard let k = value(key), let v = value(item) else { return nil }
                entries[k] = v
            }
            return .dictionary(entries)
        case .call(callee: .name("cold", _), let arguments, _) where marbleStreams:
            return coldStream(arguments, value: value)
        default:
            return nil
        }
    }

    /// `cold("-a|", a: 10, error: "boom")`: its marble and labelled values
    /// constants, the marble one that reads.
    private static func coldStream(_ arguments: [CallArgument], value: (Expr) -> Value?) -> Value? {
        guard let first = arguments.first, first.label == nil, case .string(let marble)? = value(first.value) else { return nil }
        var values: [String: Value] = [:]
        var error: Value?
        for argument in arguments.dropFirst() {
            guard let label = argument.label, !argument.isTrailing, let given = value(argument.value) else { return nil }
            switch (label, given) {
            case ("error", _): error = given
            case ("values", .dictionary(let entries)):
                for (key, item) in entries {
                    guard case .string(let symbol) = key else { return nil }
                    values[symbol] = item
                }
            default: values[label] = given
            }
        }
        return (try? ColdStream(marble, values: values, error: error)).map { .stream($0) }
    }
}
