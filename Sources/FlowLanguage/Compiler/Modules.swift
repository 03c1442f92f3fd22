import FlowRuntime

/// A namespace of functions a layer above the language provides
/// (`file.read(path)`, `json.parse(text)`). Its functions are specs like the
/// runtime's operators, so calls are checked, suggested and documented the
/// same way.
public struct BuiltinModule: Sendable {
    public let name: String
    public let summary: String
    public let functions: [OperatorSpec]
    /// Methods on values the module makes (`response.json()`).
    public let methods: [OperatorSpec]
    /// A typical call of a function, by its name, which `flow doc` shows
    /// (a module's functions reach outside, so no diagram can show them).
    public let examples: [String: String]
    /// What the module's name alone stands for, if anything (`env`, a
    /// dictionary a script reads with `env["NAME"]`).
    public let value: (@Sendable () throws -> Value)?

    public init(name: String, summary: String, functions: [OperatorSpec], methods: [OperatorSpec] = [], examples: [String: String] = [:],
                value: (@Sendable () throws -> Value)? = nil) {
        self.value = value
        self.name = name
        self.summary = summary
        self.functions = functions
        self.methods = methods
        self.examples = examples
    }

    public func function(_ name: String) -> OperatorSpec? {
        functions.first { $0.name == name || $0.aliasNames.contains(name) }
    }
}

/// A value read with a subscript that is not a dictionary the script can
/// see whole: `env["TOKEN"]`, whose every name is checked as it is read.
public protocol KeyedValues: AnyObject {
    func value(forKey key: Value) throws -> Value
    /// Its name and how it is read, for a script that tries to list,
    /// walk or change it (`env`, "read a variable at a time, ...").
    var keyedName: String { get }
    var howItIsRead: String { get }
}

extension Compiler {
    /// `module.function(args)`: a module's function, checked like an operator.
    func compileModuleCall(
        _ module: BuiltinModule, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> Code {
        guard let spec = module.function(name) else {
            error("module '\(module.name)' has no function '\(name)'", nameSpan,
                  help: Suggestions.didYouMean(name, among: module.functions.flatMap { [$0.name] + $0.aliasNames })
                      ?? "it has " + module.functions.map { "\(module.name).\($0.name)" }.joined(separator: ", "))
            return { _ in .null }
        }
        // Not marked a stream: a module's function may give a plain value.
        return compileOperator(OperatorCall(spec), receiver: nil, nameSpan, arguments, span, in: scope).code
    }
}
