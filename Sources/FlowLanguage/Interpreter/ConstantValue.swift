import FlowRuntime
import OrderedCollections

/// A value written as a script writes it, read without running anything:
/// what a learner types as the value of a marble they place (`10`, `-2.5`,
/// `"a b"`, `true`, `nil`, `(1, "a")`, `(x: 1, y: 2)`, `[1, 2]`,
/// `["k": 1]`). Anything else is not a constant: nil.
public enum ConstantValue {
    public static func read(_ text: String) -> Value? {
        guard text.utf8.count <= 10_000 else { return nil }
        var parser = Parser(file: SourceFile(path: "<value>", text: text))
        guard let expr = try? parser.parseExpression(), parser.peek().kind.isEnd, parser.diagnostics.isEmpty else { return nil }
        return value(of: expr, depth: 0)
    }

    private static func value(of expr: Expr, depth: Int) -> Value? {
        guard depth < 32 else { return nil }
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
        case .unary("-", let operand, _):
            switch value(of: operand, depth: depth + 1) {
            case .int(let i)? where i != .min: return .int(-i)
            case .double(let d)?: return .double(-d)
            default: return nil
            }
        case .tuple(let elements, let labels, _):
            let values = elements.compactMap { value(of: $0, depth: depth + 1) }
            guard values.count == elements.count else { return nil }
            return .tuple(Tuple(values, labels: labels))
        case .array(let elements, _):
            let values = elements.compactMap { value(of: $0, depth: depth + 1) }
            guard values.count == elements.count else { return nil }
            return .array(values)
        case .dictionary(let pairs, _):
            var entries = OrderedDictionary<Value, Value>()
            for (key, item) in pairs {
                guard let k = value(of: key, depth: depth + 1), let v = value(of: item, depth: depth + 1) else { return nil }
                entries[k] = v
            }
            return .dictionary(entries)
        default:
            return nil
        }
    }
}
