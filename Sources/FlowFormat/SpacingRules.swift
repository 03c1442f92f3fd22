import FlowLanguage

/// What separates two pieces on one line. Where a blank changes what the
/// parser reads (`x?.y` against `c ? a : b`, `Int??` against `a ?? b`,
/// `f(x)` against a pattern's `.case (x)`), the source's choice is kept;
/// everywhere else the layout is one. A `<` or `>` compares, with a blank
/// each side, unless it brackets generic arguments (`GenericBrackets`),
/// written against its neighbours.
enum SpacingRules {
    /// Words that start or join statements: a `-` after one is a sign,
    /// and a `!` after one a `not`.
    static let statementWords: Set<String> = [
        "case", "if", "guard", "while", "switch", "where", "throw", "try", "await", "repeat", "else", "is", "as", "for",
        "default", "do", "catch", "var", "func", "import", "inout", "some", "any", "static", "yield",
    ]

    /// Operators that always stand between two operands.
    static let binaryOperators: Set<String> = [
        "=", "==", "!=", "===", "!==", "+=", "-=", "*=", "/=", "%=", "&&", "||", "->", "<=", ">=", "*", "/", "%",
    ]

    /// Whether a value can end with this piece, so that what follows is
    /// an infix or postfix operator.
    static func endsOperand(_ piece: Piece) -> Bool {
        guard case .token(let kind) = piece.kind else { return false }
        switch kind {
        case .identifier(let name): return !statementWords.contains(name)
        case .keyword(let keyword): return keyword == .true || keyword == .false || keyword == .nil
        case .integer, .double, .duration, .string, .shorthand: return true
        case .symbol(let symbol): return symbol == ")" || symbol == "]"
        case .newline, .end: return false
        }
    }

    /// What a token does where it stands, as far as its blanks go.
    enum Role {
        case plain
        /// `x?.y`, `x!`, `as?`, `try!`: written against what it follows.
        case postfix
        /// A sign or mark written against what it precedes: `-1`, `!ok`, `&x`, `@Published`, `\.name`.
        case prefix
        /// Between two operands, a blank each side.
        case infix
        /// A ternary's `?` or `:`.
        case ternary
        /// `<` or `>` around generic arguments: `Array<Int>`, `Subject<Int, Never>()`.
        case genericBracket
    }

    /// The blanks between `left` and `right` on one line.
    static func separator(_ left: Piece, _ leftRole: Role, _ right: Piece, _ rightRole: Role, gap: Gap) -> String {
        let kept = gap.hadSpace ? " " : ""
        if right.isComment {
            if case .lineComment = right.kind { return String(repeating: " ", count: max(1, gap.spaces)) }
            return kept
        }
        if left.isComment || right.tokenKind == nil || left.tokenKind == nil { return kept }
        let ls = left.symbol
        let rs = right.symbol
        // Brackets and separators.
        if rightRole == .genericBracket || leftRole == .genericBracket && ls == "<" { return "" }
        if rs == "," || rs == ")" || rs == "]" { return "" }
        if ls == "(" || ls == "[" { return "" }
        if ls == "," { return " " }
        if rs == "{" { return " " }
        if ls == "{" { return rs == "}" ? "" : " " }
        if rs == "}" { return " " }
        if rightRole == .ternary || leftRole == .ternary { return " " }
        // A label's, a type's, a dictionary entry's, a case's colon.
        if rs == ":" { return "" }
        if ls == ":" { return " " }
        if rightRole == .postfix { return "" }
        if leftRole == .postfix { return kept }
        if rightRole == .infix || leftRole == .infix { return " " }
        // After a generic argument list: `Array<Int>()`, `.self`, `where`.
        if leftRole == .genericBracket { return right.word != nil ? " " : "" }
        if leftRole == .prefix || ls == "." { return "" }
        if ls == "}", right.word != nil { return " " }
        return kept
    }
}
