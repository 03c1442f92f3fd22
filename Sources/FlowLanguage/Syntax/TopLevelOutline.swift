extension SourceFile {
    /// A statement at the top of a script, by its tokens alone (so a file
    /// that does not compile still has one): what it is and where it lies.
    public struct TopLevelStatement: Sendable {
        public enum Kind: Sendable, Equatable {
            /// `test "name" { … }`
            case test(String)
            /// `let`, `var`, `func`, `struct`, `enum`, `class`, `protocol`,
            /// `typealias` of a name; `import` and `extension` declare none.
            case declaration(String)
            case other
        }
        public let kind: Kind
        /// From the statement's first token to its last, byte offsets.
        public let span: Span
    }

    static let declaringWords: Set<String> = ["var", "func", "struct", "enum", "class", "protocol", "typealias", "actor"]
    static let declarationModifiers: Set<String> = ["final", "private", "fileprivate", "public", "internal", "static", "lazy", "indirect"]
    static let declaringNothing: Set<String> = ["import", "extension"]

    /// The top-level statements in order. A line break ends a statement
    /// outside brackets; the lexer, which owns the rule, gives none where
    /// the next line continues the statement (it begins with `.member`, or
    /// the line ends with an operator), and gives one for `;`.
    public var topLevelStatements: [TopLevelStatement] {
        var lexer = Lexer(file: self)
        let tokens = lexer.tokenize()
        var statements: [TopLevelStatement] = []
        var depth = 0
        var first: Int?
        var last = 0
        func close() {
            guard let start = first else { return }
            statements.append(TopLevelStatement(kind: kind(of: tokens[start...last]), span: Span(tokens[start].span.start, tokens[last].span.end)))
            first = nil
        }
        for (i, token) in tokens.enumerated() {
            switch token.kind {
            case .end:
                close()
            case .newline where depth == 0:
                close()
            case .newline:
                continue
            default:
                if first == nil { first = i }
                last = i
                if token.isSymbol("(") || token.isSymbol("[") || token.isSymbol("{") { depth += 1 }
                if token.isSymbol(")") || token.isSymbol("]") || token.isSymbol("}") { depth = max(0, depth - 1) }
            }
        }
        return statements
    }

    private func kind(of tokens: ArraySlice<Token>) -> TopLevelStatement.Kind {
        // Attributes (`@MainActor`) and modifiers (`final`) come first.
        var rest = tokens[...]
        while let token = rest.first {
            if token.isSymbol("@") {
                rest = rest.dropFirst(2)
            } else if let name = token.labelText, Self.declarationModifiers.contains(name) {
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        var words = rest.makeIterator()
        guard let head = words.next() else { return .other }
        if head.isKeyword(.test), let name = words.next(), case .string(let segments) = name.kind {
            return .test(segments.map { segment in
                switch segment {
                case .text(let text): text
                case .interpolation(let span): "\\(" + text(of: span) + ")"
                }
            }.joined())
        }
        let declares = head.isKeyword(.let) || head.labelText.map(Self.declaringWords.contains) == true
        if declares, let name = words.next(), case .identifier(let declared) = name.kind { return .declaration(declared) }
        return .other
    }
}
