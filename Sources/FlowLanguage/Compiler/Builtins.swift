import FlowRuntime

/// Names the language provides besides the runtime's operators.
enum Builtins {
    /// Free functions of the language itself.
    static var languageFunctions: Set<String> { FreeFunctions.names }

    /// Methods that subscribe (the end of a chain), and the labels of their
    /// handlers: flow's and Combine's `sink`, RxSwift's and RxJS's
    /// `subscribe`, RxSwift's `bind` and `drive`, CwlSignal's `subscribeValues`,
    /// Combine's `assign(to:on:)`.
    static let subscribingLabels: [String: [String?]] = [
        "sink": [nil, "receiveValue", "receiveCompletion"],
        "subscribe": [nil, "onNext", "onError", "onCompleted", "onDisposed", "onSuccess", "onFailure", "with", "context"],
        "bind": [nil, "onNext", "to"],
        "drive": [nil, "onNext", "onCompleted", "onDisposed", "with"],
        "emit": [nil, "onNext", "onCompleted", "onDisposed", "with", "to"],
        "subscribeValues": [nil],
        "assign": ["to", "on"],
    ]

    static let subscribingMethods = Set(subscribingLabels.keys)

    /// Whether a call subscribes: `subscribe(on:)` is the operator instead.
    static func isSubscribing(_ name: String, labels: [String?]) -> Bool {
        subscribingLabels[name] != nil && !(name == "subscribe" && labels == ["on"])
    }

    static var operatorFunctions: [String] {
        operatorTable.entries.filter { $0.form != .method }.flatMap { [$0.name] + $0.aliasNames }
    }

    static var operatorMethods: [String] {
        operatorTable.entries.filter { $0.form != .function }.flatMap { [$0.name] + $0.aliasNames }
    }

    static func isFunction(_ name: String) -> Bool {
        languageFunctions.contains(name) || operatorTable.lookup(name).map { $0.form != .method } == true
    }

    static var allNames: [String] { Array(languageFunctions) + operatorFunctions + ["args"] + SwiftVocabulary.streamConstants.keys.sorted() }

    static var allMethods: [String] {
        operatorMethods + Array(subscribingMethods) + Array(ValueMethods.groups.keys) + ["toBe"]
    }
}

/// The words a script can use, for completion in the REPL.
public enum Vocabulary {
    /// Sources and other free functions: the runtime's and the language's.
    public static var functions: [String] {
        (Builtins.allNames + ["let", "true", "false", "nil"] + Parser.statementKeywords + ["else", "case", "default", "where", "in"]).uniqueSorted()
    }
    /// What can follow a `.`: operators, subscribing methods, collection helpers.
    public static var methods: [String] { Builtins.allMethods.uniqueSorted() }
}

extension Array where Element == String {
    func uniqueSorted() -> [String] { Array(Set(self)).sorted() }
}
