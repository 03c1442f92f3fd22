/// Named members of values: record (labelled tuple) fields, dictionary
/// keys, tuple positions (`t.0`), an event's `kind`/`value`/`error`, a
/// group's `key`. (An array's, a string's and a dictionary's properties,
/// `count`, `first`, `keys`, are methods of values in the language.)
extension Value {
    public func member(_ name: String) throws -> Value {
        switch self {
        case .tuple(let t):
            if let v = t.element(labelled: name) { return v }
            if name == "rawValue", let raw = t.nominal?.rawValue { return raw }
            if let i = Int(name), t.elements.indices.contains(i) { return t.elements[i] }
            if name == "count" { return .int(t.elements.count) }
        case .dictionary(let d):
            return d[.string(name)] ?? .null
        case .event(let e, _):
            switch (name, e) {
            case ("kind", .next): return "next"
            case ("kind", .error): return "error"
            case ("kind", .completed): return "completed"
            case ("value", .next(let v)): return v
            case ("value", _): return .null
            case ("error", .error(let err)): return err.value
            case ("error", _): return .null
            default: break
            }
        case .stream(let s):
            if name == "key", let group = s as? GroupedSubject { return group.key }
            if name == "value", let behavior = s as? BehaviorSubject { return behavior.value }
        case .array(let a):
            // Combine's `[1, 2, 3].publisher`.
            if name == "publisher" { return .stream(.from(a)) }
        case .object(let o):
            if let value = try o.field(name) { return value }
        case .duration(let t):
            if name == "seconds" { return .double(t.seconds) }
            if name == "milliseconds" { return .double(t.milliseconds) }
        default:
            break
        }
        throw FlowError("\(typeName) \(literal) has no member '\(name)'")
    }
}
