/// The parser's tokens, lexed as the parser reaches them and released once
/// a top-level statement is parsed: a long script never holds all its
/// tokens at once. Indices are the token's place in the whole file; past
/// the end, every index reads the end token.
final class TokenBuffer {
    // Read at every token the parser looks at, by the one parser that owns
    // it: without Swift's dynamic exclusivity checks, as in the runtime.
    @exclusivity(unchecked) private var lexer: Lexer
    @exclusivity(unchecked) private var tokens: [Token] = []
    /// The index of `tokens[0]` in the whole file.
    @exclusivity(unchecked) private var base = 0
    @exclusivity(unchecked) private var ended = false
    /// No token yet, or the last one kept is a line break.
    @exclusivity(unchecked) private var atLineStart = true

    init(_ lexer: Lexer) {
        self.lexer = lexer
        tokens.reserveCapacity(64)
    }

    var lexerDiagnostics: [Diagnostic] { lexer.diagnostics }

    subscript(i: Int) -> Token {
        get {
            // Most reads are of a token already lexed.
            if i - base < tokens.count { return tokens[i - base] }
            fill(through: i)
            return i - base < tokens.count ? tokens[i - base] : tokens[tokens.count - 1]
        }
        set {
            fill(through: i)
            if i - base < tokens.count { tokens[i - base] = newValue }
        }
    }

    private func fill(through i: Int) {
        while !ended, base + tokens.count <= i {
            let token = lexer.nextToken()
            // Blank lines and leading line breaks are one line break or none.
            if token.kind.isNewline, atLineStart { continue }
            atLineStart = token.kind.isNewline
            tokens.append(token)
            if token.kind.isEnd { ended = true }
        }
    }

    /// Forgets the tokens before `i`.
    func release(before i: Int) {
        let count = Swift.min(i - base, tokens.count - 1)
        guard count > 0 else { return }
        tokens.removeFirst(count)
        base += count
    }
}
