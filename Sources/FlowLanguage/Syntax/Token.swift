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

public struct Token: Sendable {
    public var kind: TokenKind
    public var span: Span

    func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }
    func isKeyword(_ k: Keyword) -> Bool { kind == .keyword(k) }

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
