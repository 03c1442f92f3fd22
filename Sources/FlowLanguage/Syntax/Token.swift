import FlowRuntime

public enum Keyword: String, Sendable {
    case `let`, test, `in`, `true`, `false`, `nil`, `return`
}

/// One piece of a string literal: text, or an interpolated expression
/// whose source range is parsed separately.
public enum StringSegment: Sendable, Equatable {
    case text(String)
    case interpolation(Span)
}

public enum TokenKind: Equatable, Sendable {
    case identifier(String)
    case keyword(Keyword)
    case integer(Int)
    case double(Double)
    case duration(TimeSpan)
    case string([StringSegment])
    /// `$0`, `$1`, ...
    case shorthand(Int)
    case symbol(String)
    case newline
    case end
}

extension TokenKind {
    var isNewline: Bool { if case .newline = self { true } else { false } }
    var isEnd: Bool { if case .end = self { true } else { false } }
    var isIdentifier: Bool { if case .identifier = self { true } else { false } }
}

public struct Token: Sendable {
    public var kind: TokenKind
    public var span: Span

    // Matched, not compared with `==`: the parser asks these of almost
    // every token, and building a `TokenKind` to compare copies its payload.
    func isSymbol(_ s: String) -> Bool {
        if case .symbol(let symbol) = kind { return symbol == s }
        return false
    }
    func isKeyword(_ k: Keyword) -> Bool {
        if case .keyword(let keyword) = kind { return keyword == k }
        return false
    }

    /// The token as an argument label or member name: an identifier, or a
    /// keyword (Swift allows both).
    var labelText: String? {
        switch kind {
        case .identifier(let name): name
        case .keyword(let k): k.rawValue
        default: nil
        }
    }
}

extension String {
    /// Whether the name starts with a capital letter, as Swift's type names
    /// do. Asked of every name the parser reads: ASCII without a look-up in
    /// Unicode's tables.
    var isCapitalised: Bool {
        guard let byte = utf8.first else { return false }
        if byte < 0x80 { return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        return first!.isUppercase
    }
}
