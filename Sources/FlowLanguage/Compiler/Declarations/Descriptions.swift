import FlowRuntime

/// `CustomStringConvertible`: a struct or enum with a `description`
/// computed property prints as it says, in `print` and in `"\(x)"`, as in
/// Swift. Found where the printing is compiled: the script's types that
/// have one, with where their members run.
extension Compiler {
    /// How values print at this place in the script.
    func describer(in scope: Scope) -> (Value, Frame) throws -> String {
        let described = scope.visibleTypes.compactMap { type -> (name: String, getter: FunctionInfo, depth: Int)? in
            guard let getter = type.computed["description"] else { return nil }
            return (type.name, getter, scope.depth(to: getter.home ?? type.scope))
        }
        guard !described.isEmpty else { return { value, _ in value.description } }
        let byType = Dictionary(described.map { ($0.name, ($0.getter, $0.depth)) }, uniquingKeysWith: { first, _ in first })
        return { value, frame in
            guard let type = value.memberTypeName, let (getter, depth) = byType[type] else { return value.description }
            return try getter.run(parent: frame.ancestor(depth), self: value, arguments: []).description
        }
    }
}
