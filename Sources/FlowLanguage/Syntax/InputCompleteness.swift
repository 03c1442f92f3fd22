/// Whether an interactive input is unfinished and needs another line.
public enum InputCompleteness {
    /// True while a `{`, `(`, `[`, `/*` or `"""` is still open, or the text ends
    /// with an operator. Brackets inside strings
    /// and comments do not count (the lexer skips them); an input the lexer
    /// rejects is finished, so its error shows at once.
    public static func needsMoreInput(_ text: String) -> Bool {
        var lexer = Lexer(file: SourceFile(path: "<input>", text: text))
        let tokens = lexer.tokenize()
        // A comment left open continues on the next line.
        if lexer.hasUnterminatedComment || lexer.hasUnterminatedMultiLineString { return true }
        guard lexer.diagnostics.isEmpty else { return false }
        var depth = 0
        for token in tokens {
            switch token.kind {
            case .symbol("("), .symbol("["), .symbol("{"): depth += 1
            case .symbol(")"), .symbol("]"), .symbol("}"):
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        if depth > 0 { return true }
        // A line that ends with an operator (`1 +`, `let x =`, `a,`)
        // continues on the next, as in a script.
        let last = tokens.last { !$0.kind.isEnd && !$0.kind.isNewline }
        if case .symbol(let symbol)? = last?.kind, Lexer.continuingSymbols.contains(symbol) { return true }
        // A ternary's `?` (after a space) waits for its branches.
        if let last, last.isSymbol("?"), last.span.start > 0, Array(text.utf8)[last.span.start - 1] == UInt8(ascii: " ") { return true }
        return false
    }

    /// A line continues the input before it as it would continue a
    /// statement in a script (`.member`, `?`, `->`, `&&`, `||`: the
    /// lexer's rule), except a line starting with `:`, which is a REPL command.
    public static func continuesChain(_ line: String) -> Bool {
        let start = line.utf8.drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        if start.first == UInt8(ascii: ":") { return false }
        return Lexer.beginsByContinuing(ArraySlice(start))
    }
}
