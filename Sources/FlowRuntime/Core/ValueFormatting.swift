/// How values print, following Swift's `print`: a string at top level prints
/// bare, inside a collection it prints quoted (its "literal" form).
extension Value: CustomStringConvertible {
    public var description: String {
        if case .string(let s) = self { return s }
        // An enum case prints bare, as Swift's `print` shows it (`usd`,
        // `loaded(3)`); in a collection it keeps its dot (`[.usd]`).
        if case .tuple(let t) = self, let nominal = t.nominal, nominal.caseName != nil { return String(literal.dropFirst()) }
        return literal
    }

    /// The form a value takes inside a collection: strings quoted and escaped.
    public var literal: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return Self.format(d)
        case .string(let s): return Self.quote(s)
        case .duration(let t): return t.description
        case .array(let a): return "[" + a.map(\.literal).joined(separator: ", ") + "]"
        case .dictionary(let d):
            if d.isEmpty { return "[:]" }
            return "[" + d.map { "\($0.key.literal): \($0.value.literal)" }.joined(separator: ", ") + "]"
        case .tuple(let t):
            let parts = t.elements.indices.map { i in
                t.label(at: i).map { "\($0): \(t.elements[i].literal)" } ?? t.elements[i].literal
            }
            // A struct prints as its initialiser call, an enum case as the
            // case a script writes: `.loaded(3)`, `.usd`.
            switch t.nominal {
            case let nominal? where nominal.caseName != nil:
                return "." + nominal.caseName! + (parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")")
            case let nominal?:
                if let describe = nominal.describe { return describe(t) }
                return nominal.type + "(" + parts.joined(separator: ", ") + ")"
            case nil:
                return "(" + parts.joined(separator: ", ") + ")"
            }
        case .function(let f): return "<closure \(f.name)>"
        // A stream an operator made and named (a `groupBy` group, a
        // `window`) prints by its name; one a script wrote, by its kind.
        case .stream(let s):
            if let written = s.writtenAs { return written }
            return s.location == nil && s.label != nil ? "<\(s.displayName)>" : "<stream \(s.operatorName)>"
        // Swift prints the module's name before it (`main.Counter`); a
        // script has no module, so flow prints the class's name alone.
        case .object(let o): return o.objectClass.name
        case .event(let e, let spelling): return Self.format(e, spelling)
        }
    }

    static func format(_ d: Double) -> String {
        // A NaN keeps its sign, as Swift prints it: (-1.0).squareRoot() is -nan.
        if d.isNaN { return d.sign == .minus ? "-nan" : "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        return "\(d)"
    }

    static func format(_ event: Event, _ spelling: Event.Spelling = .reactiveX) -> String {
        switch (event, spelling) {
        case (.next(let v), .result): return "success(\(v.literal))"
        case (.next(let v), _): return "next(\(v.literal))"
        case (.error(let e), .reactiveX): return "error(\(e.value.literal))"
        case (.error(let e), .combine), (.error(let e), .result): return "failure(\(e.value.literal))"
        case (.completed, .reactiveX), (.completed, .result): return "completed"
        case (.completed, .combine): return "finished"
        }
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                if ch.value < 0x20 || ch.value == 0x7F {
                    out += "\\u{" + String(ch.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }
}

extension Event: CustomStringConvertible {
    public var description: String { Value.format(self) }
}
