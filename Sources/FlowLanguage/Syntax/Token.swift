import FlowRuntime

/// The words the lexer makes keywords: flow's own (`test`), and Swift's
/// reserved words that are never a name in a script. The parser reads a
/// statement or a declaration by its keyword token, not by comparing text.
/// Swift's contextual words (`mutating`, `get`, `set`, `lazy`, `weak`,
/// `async`) stay names the parser reads by where they stand, as Swift does;
/// so do `do`, `repeat` and `defer`, which are also the Rx operators
/// `do(onNext:)`, `repeat(2)` and `defer { }`, and `self` and `super`,
/// which are values. After a `.` and as an argument label a keyword is a
/// name (`.default`, `.init(...)`, `store(in:)`), as in Swift.
public enum Keyword: String, Sendable, CaseIterable {
    case test
    case `let`, `var`, `func`, `struct`, `enum`, `class`, `extension`, `protocol`, `typealias`, `import`, `init`, `deinit`
    case `static`, `inout`
    case `if`, `else`, `guard`, `switch`, `case`, `default`, `for`, `in`, `while`, `where`
    case `break`, `continue`, `fallthrough`, `return`, `throw`, `throws`, `rethrows`, `try`, `catch`
    case `as`, `is`, `true`, `false`, `nil`

    /// The keyword spelled by `bytes`, if any. Called for every name the
    /// lexer reads, so it compares only words of the right length and
    /// first letter rather than trying every keyword.
    static func spelled(_ bytes: ArraySlice<UInt8>) -> Keyword? {
        guard let first = bytes.first, bytes.count >= 2, bytes.count <= 11 else { return nil }
        for candidate in byFirstByte[Int(first)] where candidate.bytes.count == bytes.count && candidate.bytes.elementsEqual(bytes) {
            return candidate.keyword
        }
        return nil
    }

    private static let byFirstByte: [[(keyword: Keyword, bytes: [UInt8])]] = {
        var table = [[(keyword: Keyword, bytes: [UInt8])]](repeating: [], count: 256)
        for keyword in allCases { table[Int(keyword.rawValue.utf8.first!)].append((keyword, Array(keyword.rawValue.utf8))) }
        return table
    }()
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

    /// The name this token is, if it is one (not a keyword).
    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
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
