/// `#if`, `#elseif`, `#else` and `#endif`: the lines of a branch not taken
/// are skipped before any token is made, as Swift's compiler skips them.
/// flow runs a script as `swift run` builds a debug program on Linux:
/// `DEBUG` is defined, `os(Linux)` holds, and `canImport` holds for the
/// modules whose vocabulary flow reads.
enum CompilationConditions {
    static let definedFlags: Set<String> = ["DEBUG"]
    static let importableModules: Set<String> = [
        "Foundation", "Dispatch", "Glibc", "Swift", "Combine", "OpenCombine", "RxSwift", "RxCocoa", "RxRelay", "RxBlocking",
        "CwlSignal", "FoundationNetworking",
    ]

    #if arch(x86_64)
    static let architecture = "x86_64"
    #elseif arch(arm64)
    static let architecture = "arm64"
    #else
    static let architecture = "unknown"
    #endif

    /// The directives, with the word that names each.
    static let directives: [String] = ["if", "elseif", "else", "endif"]

    /// Swift's `#` forms that are neither directives nor comments in
    /// Swift code: each is an error saying what flow does instead.
    static let unsupportedForms: [String: String] = [
        "selector": "flow has no Objective-C selectors: pass a closure instead",
        "keyPath": "write a key path as \\.name",
        "available": "flow runs everywhere: drop the availability check",
        "unavailable": "flow runs everywhere: drop the availability check",
        "file": "flow has no #file: the script's name is in args",
        "fileID": "flow has no #fileID", "filePath": "flow has no #filePath",
        "line": "flow has no #line", "column": "flow has no #column", "function": "flow has no #function",
        "warning": "flow has no #warning: write a comment", "error": "flow has no #error: write a comment",
        "colorLiteral": "flow has no color literals", "imageLiteral": "flow has no image literals",
        "Preview": "flow draws no SwiftUI previews",
    ]

    /// Whether a condition holds: `DEBUG`, `os(Linux)`, `arch(x86_64)`,
    /// `canImport(Foundation)`, `swift(>=5.9)`, `compiler(>=6)`,
    /// `targetEnvironment(simulator)`, `true`, with `!`, `&&`, `||` and
    /// parentheses. Nil where the text is not a condition.
    static func evaluate(_ text: String) -> Bool? {
        var reader = ConditionReader(text)
        guard let value = reader.disjunction(), reader.atEnd else { return nil }
        return value
    }
}

private struct ConditionReader {
    var reader: ScalarReader

    init(_ text: String) { reader = ScalarReader(text) }

    var atEnd: Bool { mutating get { reader.atEnd } }

    mutating func accept(_ text: String) -> Bool { reader.accept(text) }

    /// `DEBUG`, `Linux`, `x86_64`, `5.9`.
    mutating func word() -> String? { reader.word(alsoInside: ["."], digitFirst: true) }

    mutating func disjunction() -> Bool? {
        guard var value = conjunction() else { return nil }
        while accept("||") {
            guard let next = conjunction() else { return nil }
            value = value || next
        }
        return value
    }

    mutating func conjunction() -> Bool? {
        guard var value = unary() else { return nil }
        while accept("&&") {
            guard let next = unary() else { return nil }
            value = value && next
        }
        return value
    }

    mutating func unary() -> Bool? {
        if accept("!") { return unary().map { !$0 } }
        if accept("(") {
            guard let value = disjunction(), accept(")") else { return nil }
            return value
        }
        guard let name = word() else { return nil }
        guard accept("(") else {
            switch name {
            case "true": return true
            case "false": return false
            default: return CompilationConditions.definedFlags.contains(name)
            }
        }
        // `swift(>=5.9)`: a comparison with a version.
        var comparison = ""
        for op in [">=", "<"] where accept(op) { comparison = op }
        guard let argument = word(), accept(")") else { return nil }
        switch name {
        case "os": return argument == "Linux"
        case "arch": return argument == CompilationConditions.architecture
        case "canImport": return CompilationConditions.importableModules.contains(argument)
        case "targetEnvironment": return false
        case "swift", "compiler":
            guard !comparison.isEmpty else { return nil }
            // flow reads Swift 6's language.
            let atLeast = !Self.version("6.0").lexicographicallyPrecedes(Self.version(argument))
            return comparison == ">=" ? atLeast : !atLeast
        case "hasFeature", "hasAttribute": return false
        default: return nil
        }
    }

    private static func version(_ text: String) -> [Int] {
        var parts = text.split(separator: ".").map { Int($0) ?? 0 }
        while parts.count < 3 { parts.append(0) }
        return parts
    }
}
