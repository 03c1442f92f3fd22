/// A script's tokens as the lexer reads them, for tools that lay the text
/// out again (`flow fmt`) rather than compile it. What lies between two
/// tokens' spans is what the lexer skipped: blanks, line breaks, comments,
/// `#if` lines and the branches not taken, so nothing of the text is lost.
public struct SourceTokens {
    /// Every token in order, the end token last. A `;` is a `.newline`
    /// token whose span covers the `;`; line breaks are `.newline` tokens
    /// too, but only where they end a statement.
    public let tokens: [Token]
    /// What the lexer could not read.
    public let diagnostics: [Diagnostic]

    public init(_ file: SourceFile) {
        var lexer = Lexer(file: file)
        var tokens: [Token] = []
        while true {
            let token = lexer.nextToken()
            tokens.append(token)
            if token.kind.isEnd { break }
        }
        self.tokens = tokens
        diagnostics = lexer.diagnostics
    }

    /// The words that follow `#` at the start of a line to make a
    /// compilation directive (`#if`), not a comment.
    public static var directiveWords: [String] { CompilationConditions.directives }

    /// The operators after which a line break continues the line.
    public static var continuingSymbols: Set<String> { Lexer.continuingSymbols }
}
