import FlowRuntime

/// How `print`, `"\(x)"` and `String(describing:)` show a value, as Swift's
/// do:
/// - a value of a type with a `description` (CustomStringConvertible)
///   shows what it says, wherever it stands: alone, in a collection, in an
///   optional;
/// - a value whose type is known to be optional shows as `Optional(3)`, or
///   `nil`;
/// - inside a collection, an optional or a struct, strings are quoted and
///   an enum case names its type (`[Phase.idle]`; Swift adds its module,
///   `main.Phase.idle`, which a script does not have).
struct ValueDescriber {
    /// The script's types with a `description`: its getter, and how many
    /// frames up from the printing place its home frame is.
    let descriptions: [String: (getter: FunctionInfo, depth: Int)]
    /// The written types of the script's structs' stored properties, where
    /// one needs a typed description (an optional field).
    let fieldTypes: [String: [StaticType]]

    func describe(_ value: Value, as type: StaticType, nested: Bool = false, frame: Frame) throws -> String {
        if case .optional(let wrapped) = type {
            if value.isNull { return "nil" }
            return "Optional(" + (try describe(value, as: wrapped, nested: true, frame: frame)) + ")"
        }
        if !descriptions.isEmpty, let name = value.memberTypeName, let (getter, depth) = descriptions[name] {
            return try getter.run(parent: frame.ancestor(depth), self: value, arguments: []).description
        }
        switch value {
        case .string(let s):
            return nested ? Value.quote(s) : s
        case .array(let items):
            let element = if case .array(let e) = type { e } else { StaticType.unknown }
            return "[" + (try items.map { try describe($0, as: element, nested: true, frame: frame) }.joined(separator: ", ")) + "]"
        case .dictionary(let pairs):
            if pairs.isEmpty { return "[:]" }
            var keyType = StaticType.unknown, valueType = StaticType.unknown
            if case .dictionary(let k, let v) = type { (keyType, valueType) = (k, v) }
            return "[" + (try pairs.map { key, item in
                try describe(key, as: keyType, nested: true, frame: frame) + ": " + describe(item, as: valueType, nested: true, frame: frame)
            }.joined(separator: ", ")) + "]"
        case .tuple(let tuple) where tuple.nominal?.describe != nil:
            // A built-in type that prints its own way (a `Date`).
            return tuple.nominal!.describe!(tuple)
        case .tuple(let tuple):
            var types: [StaticType] = if case .tuple(let written, _) = type { written } else { [] }
            if let nominal = tuple.nominal, nominal.caseName == nil, let fields = fieldTypes[nominal.type] { types = fields }
            let parts = try tuple.elements.indices.map { i in
                let shown = try describe(tuple.elements[i], as: i < types.count ? types[i] : .unknown, nested: true, frame: frame)
                return tuple.label(at: i).map { "\($0): \(shown)" } ?? shown
            }
            let list = "(" + parts.joined(separator: ", ") + ")"
            guard let nominal = tuple.nominal else { return list }
            guard let caseName = nominal.caseName else { return nominal.type + list }
            return (nested ? nominal.type + "." : "") + caseName + (parts.isEmpty ? "" : list)
        case .event(let event, let spelling):
            // A completion or a materialized event: its value as it would
            // print inside an enum case (`failure(the network is offline)`).
            switch (event, spelling) {
            case (.next(let v), .result): return "success(" + (try describe(v, as: .unknown, nested: true, frame: frame)) + ")"
            case (.next(let v), _): return "next(" + (try describe(v, as: .unknown, nested: true, frame: frame)) + ")"
            case (.error(let e), .reactiveX): return "error(" + (try describe(e.value, as: .unknown, nested: true, frame: frame)) + ")"
            case (.error(let e), _): return "failure(" + (try describe(e.value, as: .unknown, nested: true, frame: frame)) + ")"
            case (.completed, _): return value.description
            }
        default:
            return nested ? value.literal : value.description
        }
    }
}

extension Compiler {
    /// How values of static type `type` print at this place in the script.
    /// `nested`: as inside a collection, Swift's `String(reflecting:)`
    /// (a string quoted).
    func describer(for type: StaticType = .unknown, nested: Bool = false, in scope: Scope) -> (Value, Frame) throws -> String {
        let visible = scope.visibleTypes
        var descriptions: [String: (getter: FunctionInfo, depth: Int)] = [:]
        var fieldTypes: [String: [StaticType]] = [:]
        for declared in visible {
            if let getter = declared.computed["description"], descriptions[declared.name] == nil {
                descriptions[declared.name] = (getter, scope.depth(to: getter.home ?? declared.scope))
            }
            if declared.declaration.kind == .struct, fieldTypes[declared.name] == nil {
                let types = declared.declaration.stored.map { staticType(text: $0.type?.text, in: declared.scope) }
                if types.contains(where: \.mattersWhenRunning) { fieldTypes[declared.name] = types }
            }
        }
        let describer = ValueDescriber(descriptions: descriptions, fieldTypes: fieldTypes)
        if nested { return { value, frame in try describer.describe(value, as: type, nested: true, frame: frame) } }
        if descriptions.isEmpty, fieldTypes.isEmpty, !type.mattersWhenRunning {
            // Scalars, the common case, need no walk.
            return { value, frame in
                switch value {
                case .array, .dictionary, .tuple: try describer.describe(value, as: type, frame: frame)
                default: value.description
                }
            }
        }
        return { value, frame in try describer.describe(value, as: type, frame: frame) }
    }
}
