import FlowLanguage

/// One thing the formatter places on a line: a token as the lexer read it,
/// a comment, or a line it copies as it stands (the shebang, `#if` lines
/// and the branches they do not take).
struct Piece {
    enum Kind {
        case token(TokenKind)
        /// `#` or `//` to the end of the line.
        case lineComment
        /// `/* */`, possibly over several lines.
        case blockComment
        case verbatimLine
    }

    var kind: Kind
    /// Exactly as written (a token's text is its span's).
    var text: String

    var isComment: Bool {
        switch kind {
        case .lineComment, .blockComment: true
        default: false
        }
    }

    var tokenKind: TokenKind? {
        if case .token(let kind) = kind { return kind }
        return nil
    }

    func isSymbol(_ symbol: String) -> Bool {
        if case .token(.symbol(let s)) = kind { return s == symbol }
        return false
    }

    var symbol: String? {
        if case .token(.symbol(let s)) = kind { return s }
        return nil
    }

    var word: String? {
        switch kind {
        case .token(.identifier(let name)): name
        case .token(.keyword(let keyword)): keyword.rawValue
        default: nil
        }
    }

    var isOpener: Bool { isSymbol("(") || isSymbol("[") || isSymbol("{") }
    var isCloser: Bool { isSymbol(")") || isSymbol("]") || isSymbol("}") }
    /// A `;`, which the lexer reads as a line break.
    var isSemicolon: Bool {
        if case .token(.newline) = kind { return true }
        return false
    }
}

/// What separated a piece from the one before it in the source.
struct Gap {
    /// Line breaks before the piece: 0 on the same line, 1 on the next,
    /// 2 after a blank line (more blank lines are kept as one).
    var breaks = 0
    /// Blanks (or a line break) stood between them.
    var hadSpace = false
    /// How many blanks, for a comment at the end of a line, which keeps
    /// the distance it was given.
    var spaces = 0
}

/// A script cut into pieces and the gaps before each.
struct LayoutPieces {
    var pieces: [Piece] = []
    var gaps: [Gap] = []

    struct Unreadable: Error {
        let offset: Int
    }

    /// Reads the tokens of a script the lexer read without a problem, and
    /// what lies between them.
    init(file: SourceFile, tokens: [Token]) throws {
        let bytes = Array(file.text.utf8)
        var reader = GapReader(bytes: bytes)
        for token in tokens {
            if case .newline = token.kind, bytes[token.span.start] != UInt8(ascii: ";") { continue }
            try reader.read(reader.cursor..<token.span.start, into: &self)
            if case .end = token.kind { break }
            append(Piece(kind: .token(token.kind), text: String(decoding: bytes[token.span.start..<token.span.end], as: UTF8.self)),
                   gap: reader.takeGap())
            reader.cursor = token.span.end
        }
    }

    mutating func append(_ piece: Piece, gap: Gap) {
        pieces.append(piece)
        gaps.append(gap)
    }

    mutating func remove(at index: Int) {
        pieces.remove(at: index)
        gaps.remove(at: index)
    }

    mutating func insert(_ piece: Piece, gap: Gap, at index: Int) {
        pieces.insert(piece, at: index)
        gaps.insert(gap, at: index)
    }

    /// The comments of a script, in order, as they are written.
    var comments: [String] { pieces.filter(\.isComment).map(\.text) }
}

/// Reads the text between two tokens: blanks, line breaks, comments and
/// directive lines.
private struct GapReader {
    let bytes: [UInt8]
    var cursor = 0
    private var gap = Gap()

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func takeGap() -> Gap {
        defer { gap = Gap() }
        return gap
    }

    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    private func lineStart(of i: Int) -> Int {
        var start = i
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    private func lineEnd(from i: Int) -> Int {
        var end = i
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return end
    }

    /// Only blanks before `i` on its line.
    private func startsLine(_ i: Int) -> Bool {
        var j = i
        while j > 0, bytes[j - 1] == UInt8(ascii: " ") || bytes[j - 1] == UInt8(ascii: "\t") { j -= 1 }
        return j == 0 || bytes[j - 1] == UInt8(ascii: "\n")
    }

    /// A directive's `#` (`#if`, `#endif`) at `i`, as the lexer tells one
    /// from a comment.
    private func isDirective(at i: Int) -> Bool {
        guard byte(i) == UInt8(ascii: "#"), startsLine(i) else { return false }
        for word in SourceTokens.directiveWords {
            let wordBytes = Array(word.utf8)
            guard i + 1 + wordBytes.count <= bytes.count, Array(bytes[(i + 1)..<(i + 1 + wordBytes.count)]) == wordBytes else { continue }
            let after = byte(i + 1 + wordBytes.count)
            let isWordPart = (after >= 65 && after <= 90) || (after >= 97 && after <= 122) || (after >= 48 && after <= 57) || after == 95
            if !isWordPart { return true }
        }
        return false
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private func trimmedLine(_ range: Range<Int>) -> String {
        var end = range.upperBound
        while end > range.lowerBound, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") || bytes[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        return text(range.lowerBound..<end)
    }

    mutating func read(_ range: Range<Int>, into layout: inout LayoutPieces) throws {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                gap.hadSpace = true
                gap.spaces += 1
                i += 1
            } else if c == UInt8(ascii: "\n") {
                gap.breaks = min(gap.breaks + 1, 2)
                gap.hadSpace = true
                gap.spaces = 0
                i += 1
            } else if i == 0, c == UInt8(ascii: "#"), byte(1) == UInt8(ascii: "!") {
                let lineEnd = lineEnd(from: 0)
                layout.append(Piece(kind: .verbatimLine, text: trimmedLine(0..<lineEnd)), gap: takeGap())
                i = lineEnd
            } else if isDirective(at: i) {
                // From this directive to the last one before the next token:
                // the lines between them are a branch the lexer did not read
                // (or comments), kept as written.
                var regionEnd = lineEnd(from: i)
                var lineStart = regionEnd + 1
                while lineStart < end {
                    var first = lineStart
                    while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
                    if isDirective(at: first) { regionEnd = lineEnd(from: first) }
                    lineStart = lineEnd(from: lineStart) + 1
                }
                var start = self.lineStart(of: i)
                var first = true
                while start <= regionEnd {
                    let stop = lineEnd(from: start)
                    var lineGap = first ? takeGap() : Gap(breaks: 1, hadSpace: true)
                    if first { lineGap.breaks = max(lineGap.breaks, layout.pieces.isEmpty ? 0 : 1) }
                    layout.append(Piece(kind: .verbatimLine, text: trimmedLine(start..<stop)), gap: lineGap)
                    first = false
                    start = stop + 1
                }
                i = regionEnd
            } else if c == UInt8(ascii: "#") || (c == UInt8(ascii: "/") && byte(i + 1) == UInt8(ascii: "/")) {
                let stop = lineEnd(from: i)
                layout.append(Piece(kind: .lineComment, text: trimmedLine(i..<stop)), gap: takeGap())
                i = stop
            } else if c == UInt8(ascii: "/") && byte(i + 1) == UInt8(ascii: "*") {
                var depth = 0
                var j = i
                while j < end {
                    if byte(j) == UInt8(ascii: "/") && byte(j + 1) == UInt8(ascii: "*") {
                        depth += 1
                        j += 2
                    } else if byte(j) == UInt8(ascii: "*") && byte(j + 1) == UInt8(ascii: "/") {
                        depth -= 1
                        j += 2
                        if depth == 0 { break }
                    } else {
                        j += 1
                    }
                }
                guard depth == 0 else { throw LayoutPieces.Unreadable(offset: i) }
                layout.append(Piece(kind: .blockComment, text: text(i..<j)), gap: takeGap())
                i = j
            } else {
                throw LayoutPieces.Unreadable(offset: i)
            }
        }
    }
}
