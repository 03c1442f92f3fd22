import FlowRuntime

/// Names the language provides besides the runtime's operators.
enum Builtins {
    /// Free functions of the language itself.
    static let languageFunctions: Set<String> = ["print", "cold", "hot", "time", "expect", "marbles", "String", "Int", "Double"]

    /// Methods that subscribe (the end of a chain).
    static let subscribingMethods: Set<String> = ["sink", "subscribe"]

    static var operatorFunctions: [String] {
        operatorTable.entries.filter { $0.form != .method }.flatMap { [$0.name] + $0.aliasNames }
    }

    static var operatorMethods: [String] {
        operatorTable.entries.filter { $0.form != .function }.flatMap { [$0.name] + $0.aliasNames }
    }

    static func isFunction(_ name: String) -> Bool {
        languageFunctions.contains(name) || operatorTable.lookup(name).map { $0.form != .method } == true
    }

    static var allNames: [String] { Array(languageFunctions) + operatorFunctions + ["args"] }

    static var allMethods: [String] {
        operatorMethods + Array(subscribingMethods) + Array(CollectionHelpers.names) + ["toBe"]
    }
}

/// The words a script can use, for completion in the REPL.
public enum Vocabulary {
    /// Sources and other free functions: the runtime's and the language's.
    public static var functions: [String] { (Builtins.allNames + ["let", "true", "false", "nil"]).uniqueSorted() }
    /// What can follow a `.`: operators, subscribing methods, collection helpers.
    public static var methods: [String] { Builtins.allMethods.uniqueSorted() }
}

extension Array where Element == String {
    func uniqueSorted() -> [String] { Array(Set(self)).sorted() }
}
