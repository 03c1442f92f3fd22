/// The words of the language by what they do, for tools that colour or
/// complete a script (the editors' grammar is generated from these).
public enum LanguageWords {
    /// The lexer's keywords.
    public static var lexerKeywords: [String] { Keyword.allCases.map(\.rawValue) }

    /// Words that steer control: Swift's statements as the parser reads them.
    public static let control: [String] = [
        "if", "else", "guard", "switch", "case", "default", "fallthrough", "for", "in", "while", "repeat", "break", "continue",
        "return", "throw", "throws", "rethrows", "try", "do", "catch", "defer", "where", "await", "async",
    ]

    /// Words that declare.
    public static let declarations: [String] = [
        "let", "var", "func", "struct", "enum", "class", "protocol", "extension", "typealias", "init", "deinit", "subscript",
        "import", "test", "actor",
    ]

    /// Words that modify a declaration.
    public static let modifiers: [String] = [
        "static", "mutating", "private", "fileprivate", "public", "internal", "open", "final", "lazy", "weak", "unowned",
        "override", "convenience", "required", "indirect", "nonisolated", "inout", "some", "any", "get", "set", "willSet", "didSet",
    ]

    /// Values the language names.
    public static let constants: [String] = ["true", "false", "nil"]

    /// `self` and `super`.
    public static let selfWords: [String] = ["self", "super"]

    /// `is` and `as`, which test and convert a value's type.
    public static let typeOperators: [String] = ["is", "as"]

    /// The free functions the language itself gives (`cold`, `expect`,
    /// `print`, `min`), the operator catalog's sources aside.
    public static var freeFunctions: [String] { FreeFunctions.names.sorted() }

    /// The directives after `#` at the start of a line.
    public static var directives: [String] { CompilationConditions.directives }
}
