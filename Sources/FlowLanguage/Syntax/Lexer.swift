import FlowRuntime

/// Turns source bytes into tokens. Never fails: a character it cannot read
/// becomes a diagnostic and is skipped, so every error in a file is reported.
struct Lexer {
    let file: SourceFile
    private let bytes: [UInt8]
    private var position: Int
    private let end: Int
    private(set) var diagnostics: [Diagnostic] = []
    /// The last token read was an operator no line can end with (`+`, `=`,
    /// `->`, `,`, `&&`): a line break after it continues the line, as in Swift.
    private var lineContinues = false
    static let continuingSymbols: Set<String> = [
        "+", "-", "*", "/", "%", "==", "!=", "===", "!==", "<", "<=", ">=", "&&", "||", "??", "..<", "...",
        "=", "+=", "-=", "*=", "/=", "%=", "->", ",",
    ]
    /// A `/*` comment ran to the end of the text (the REPL then reads
    /// another line).
    private(set) var hasUnterminatedComment = false
    /// A `"""` string no line closes (the REPL then reads another line).
    private(set) var hasUnterminatedMultiLineString = false
    /// The `#if` blocks open where the lexer is, innermost last.
    private var branches: [ConditionalBranch] = []

    private struct ConditionalBranch {
        /// Where its `#if` is, for the error when no `#endif` closes it.
        let start: Int
        /// The block around it is read, so one of its branches may be.
        let enclosingIsRead: Bool
        /// A branch of it was taken already.
        var taken: Bool
        /// The lines here are read.
        var isRead: Bool
        var sawElse = false
    }

    init(file: SourceFile, range: Range<Int>? = nil) {
        self.file = file
        bytes = file.bytes
        position = range?.lowerBound ?? 0
        end = range?.upperBound ?? file.bytes.count
        if range == nil { skipShebang() }
    }

    static let symbols: [String] = [
        "===", "!==", "&&", "||", "==", "!=", "<=", ">=", "??", "->", "..<", "...", "+=", "-=", "*=", "/=", "%=",
        "(", ")", "[", "]", "{", "}", ",", ":", ".", "?", "!", "+", "-", "*", "/", "%", "<", ">", "=", "&", "\\", "@",
    ]

    /// The next token, for a parser that reads as it goes.
    mutating func nextToken() -> Token { next() }

    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = next()
            if token.kind.isNewline, tokens.last?.kind.isNewline ?? true { continue }
            tokens.append(token)
            if token.kind.isEnd { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> UInt8 {
        position + ahead < end ? bytes[position + ahead] : 0
    }

    private mutating func skipShebang() {
        if peek() == UInt8(ascii: "#"), peek(1) == UInt8(ascii: "!") {
            while position < end, peek() != UInt8(ascii: "\n") { position += 1 }
        }
    }

    private mutating func next() -> Token {
        let continuing = lineContinues
        lineContinues = false
        let commentStart = position
        let brokeLine = skipSpaceAndComments()
        guard position < end else {
            if let open = branches.first {
                diagnostics.appendCapped(Diagnostic("#if has no #endif", in: file, at: Span(open.start, open.start + 3),
                                                    help: "end the block with #endif on a line of its own"))
                branches = []
            }
            return Token(kind: .end, span: Span(end, end))
        }
        let start = position
        let c = peek()
        if c == UInt8(ascii: "#") {
            if let hashes = rawStringHashes() {
                position += hashes
                return string(hashes: hashes, from: start)
            }
            return unsupportedForm()
        }
        // A block comment that spans lines ends the line it started on, as
        // in Swift.
        if brokeLine {
            if continuesPreviousLine() || continuing { return next() }
            return Token(kind: .newline, span: Span(commentStart, commentStart + 1))
        }
        if c == UInt8(ascii: "\n") {
            position += 1
            // A line that begins with `.` (or with an operator no statement
            // can start with) continues the previous one, as does a line
            // that ends with an operator.
            if continuesPreviousLine() || continuing { return next() }
            return Token(kind: .newline, span: Span(start, start + 1))
        }
        if c == UInt8(ascii: ";") {
            // `;` separates statements on one line, as a line break does.
            position += 1
            return Token(kind: .newline, span: Span(start, start + 1))
        }
        if c.isIdentifierStart { return identifier() }
        if c == UInt8(ascii: "`"), peek(1).isIdentifierStart, let escaped = escapedIdentifier() { return escaped }
        if c.isDigit { return number() }
        if c == UInt8(ascii: "\"") { return string() }
        if c == UInt8(ascii: "'") { return singleQuotedString() }
        if c == UInt8(ascii: "$") { return shorthand() }
        for candidate in Self.symbolsByFirstByte[Int(c)] where matches(candidate.bytes) {
            position += candidate.bytes.count
            // A `?` after a space is a ternary's (`ok ?`), not an
            // optional's: a line may end with it, and the next continues.
            lineContinues = candidate.continues
                || candidate.symbol == "?" && start > 0 && (bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t"))
            return Token(kind: .symbol(candidate.symbol), span: Span(start, position))
        }
        return unexpectedCharacter()
    }

    /// `symbols` by their first byte, longest first: a token is matched
    /// against the two or three that may start with its character.
    private static let symbolsByFirstByte: [[(bytes: [UInt8], symbol: String, continues: Bool)]] = {
        var table = [[(bytes: [UInt8], symbol: String, continues: Bool)]](repeating: [], count: 256)
        for symbol in symbols { table[Int(symbol.utf8.first!)].append((Array(symbol.utf8), symbol, continuingSymbols.contains(symbol))) }
        return table
    }()

    private func matches(_ bytes: [UInt8]) -> Bool {
        for (i, b) in bytes.enumerated() where peek(i) != b { return false }
        return true
    }

    private func matches(_ text: String) -> Bool {
        var i = 0
        for b in text.utf8 {
            if peek(i) != b { return false }
            i += 1
        }
        return true
    }

    /// Skips spaces and comments (`#` and `//` to the end of the line,
    /// `/* */` nested as in Swift). Returns whether a block comment skipped
    /// contained a line break.
    @discardableResult
    private mutating func skipSpaceAndComments() -> Bool {
        var brokeLine = false
        while position < end {
            let c = peek()
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                position += 1
            } else if c == UInt8(ascii: "#"), let word = directiveWord() {
                readDirective(word)
            } else if c == UInt8(ascii: "#"), unsupportedFormName() != nil || rawStringHashes() != nil {
                break
            } else if c == UInt8(ascii: "#") || (c == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "/")) {
                while position < end, peek() != UInt8(ascii: "\n") { position += 1 }
            } else if c == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                if skipBlockComment() { brokeLine = true }
            } else {
                break
            }
        }
        return brokeLine
    }

    // MARK: - Compilation conditions

    /// The word after a `#` that starts a line (blanks before it aside) and
    /// is a directive (`#if`, `#else`); nil for a comment.
    private func directiveWord() -> String? {
        var lineStart = position
        while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
        guard lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n") else { return nil }
        for word in CompilationConditions.directives where matches("#" + word) && !peek(word.utf8.count + 1).isIdentifierPart {
            return word
        }
        return nil
    }

    /// Reads a directive's line, up to its line break, and skips the lines
    /// of a branch not taken, up to the next directive.
    private mutating func readDirective(_ word: String) {
        let start = position
        position += word.utf8.count + 1
        var conditionEnd = position
        while conditionEnd < end, bytes[conditionEnd] != UInt8(ascii: "\n"),
              !(bytes[conditionEnd] == UInt8(ascii: "/") && conditionEnd + 1 < end && bytes[conditionEnd + 1] == UInt8(ascii: "/")) {
            conditionEnd += 1
        }
        let condition = String(decoding: bytes[position..<conditionEnd], as: UTF8.self)
        while position < end, peek() != UInt8(ascii: "\n") { position += 1 }
        let here = Span(start, start + word.utf8.count + 1)
        func holds() -> Bool {
            guard let value = CompilationConditions.evaluate(condition) else {
                diagnostics.appendCapped(Diagnostic("flow cannot read the condition '\(condition.trimmingWhitespace())'", in: file, at: here,
                                                    help: "conditions are DEBUG, os(Linux), arch(x86_64), canImport(Module), swift(>=5.9), with !, && and ||"))
                return false
            }
            return value
        }
        switch word {
        case "if":
            let enclosingIsRead = branches.last?.isRead ?? true
            let value = enclosingIsRead && holds()
            branches.append(ConditionalBranch(start: start, enclosingIsRead: enclosingIsRead, taken: value, isRead: value))
        case "elseif", "else":
            guard var branch = branches.popLast(), !branch.sawElse else {
                diagnostics.appendCapped(Diagnostic("#\(word) without #if", in: file, at: here, help: "start the block with #if CONDITION"))
                return
            }
            let value = branch.enclosingIsRead && !branch.taken && (word == "else" || holds())
            branch.isRead = value
            branch.taken = branch.taken || value
            branch.sawElse = word == "else"
            branches.append(branch)
        default:
            guard branches.popLast() != nil else {
                diagnostics.appendCapped(Diagnostic("#endif without #if", in: file, at: here))
                return
            }
        }
        guard branches.last?.isRead == false else { return }
        // Not read: every line up to the next directive.
        while position < end {
            position += 1
            var first = position
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            let saved = position
            position = first
            if peek() == UInt8(ascii: "#"), directiveWord() != nil {
                position = saved
                return
            }
            position = saved
            while position < end, peek() != UInt8(ascii: "\n") { position += 1 }
        }
    }

    /// `#selector(...)`, `#keyPath(...)`: Swift's `#` forms that flow has
    /// not, told as one error each (a `#` followed by a space is a comment).
    private func unsupportedFormName() -> String? {
        var length = 1
        while peek(length).isIdentifierPart { length += 1 }
        guard length > 1 else { return nil }
        let name = String(decoding: bytes[position + 1..<position + length], as: UTF8.self)
        return CompilationConditions.unsupportedForms[name] != nil ? name : nil
    }

    private mutating func unsupportedForm() -> Token {
        let start = position
        let name = unsupportedFormName() ?? ""
        position += name.utf8.count + 1
        // Its arguments too, so the rest of the line reads on.
        if peek() == UInt8(ascii: "(") {
            var depth = 0
            repeat {
                if peek() == UInt8(ascii: "(") { depth += 1 }
                if peek() == UInt8(ascii: ")") { depth -= 1 }
                position += 1
            } while depth > 0 && position < end && peek() != UInt8(ascii: "\n")
        }
        diagnostics.appendCapped(Diagnostic("flow has no #\(name)", in: file, at: Span(start, start + name.utf8.count + 1),
                                            help: CompilationConditions.unsupportedForms[name]))
        return Token(kind: .keyword(.nil), span: Span(start, position))
    }

    /// Skips a `/* ... */` comment, nested ones included; returns whether it
    /// spans lines. One that is never closed is an error at its start.
    private mutating func skipBlockComment() -> Bool {
        let start = position
        var depth = 0
        var brokeLine = false
        while position < end {
            if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                depth += 1
                position += 2
            } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                depth -= 1
                position += 2
                if depth == 0 { return brokeLine }
            } else {
                if peek() == UInt8(ascii: "\n") { brokeLine = true }
                position += 1
            }
        }
        hasUnterminatedComment = true
        diagnostics.appendCapped(Diagnostic("unterminated comment", in: file, at: Span(start, start + 2),
                                      help: "close it with */ (comments nest, as in Swift: each /* needs its own */)"))
        return brokeLine
    }

    /// After a newline: does the next line of code start with `.member`,
    /// or with `?`, `:`, `&&`, `||` or `??`, which cannot start a statement?
    /// Either way the blank and comment lines before it are consumed, so
    /// each is read once (a run of them yields one newline token).
    private mutating func continuesPreviousLine() -> Bool {
        while position < end {
            skipSpaceAndComments()
            if peek() == UInt8(ascii: "\n") { position += 1; continue }
            break
        }
        return Self.beginsByContinuing(bytes[position..<end])
    }

    /// Whether a line that begins with `start` (its indentation skipped)
    /// continues the statement before it: `.member`, or what no statement
    /// can begin with (`?`, `:`, `->`, `&&`, `||`). The one rule, for
    /// scripts and for the REPL's next line.
    static func beginsByContinuing(_ start: ArraySlice<UInt8>) -> Bool {
        var bytes = start.makeIterator()
        let first = bytes.next(), second = bytes.next()
        switch first {
        case UInt8(ascii: "."): return second?.isIdentifierStart ?? false
        case UInt8(ascii: "?"), UInt8(ascii: ":"): return true
        case UInt8(ascii: "-"): return second == UInt8(ascii: ">")
        case UInt8(ascii: "&"): return second == UInt8(ascii: "&")
        case UInt8(ascii: "|"): return second == UInt8(ascii: "|")
        default: return false
        }
    }

    private mutating func identifier() -> Token {
        let start = position
        while peek().isIdentifierPart { position += 1 }
        if let keyword = Keyword.spelled(bytes[start..<position]) { return Token(kind: .keyword(keyword), span: Span(start, position)) }
        let kind = TokenKind.identifier(String(decoding: bytes[start..<position], as: UTF8.self))
        return Token(kind: kind, span: Span(start, position))
    }

    /// `` `default` ``: a keyword written as a name, as Swift allows.
    private mutating func escapedIdentifier() -> Token? {
        let start = position
        var end = position + 1
        while end < self.end, bytes[end].isIdentifierPart { end += 1 }
        guard end < self.end, bytes[end] == UInt8(ascii: "`") else { return nil }
        position = end + 1
        return Token(kind: .identifier(String(decoding: bytes[(start + 1)..<end], as: UTF8.self)), span: Span(start, position))
    }

    private mutating func number() -> Token {
        let start = position
        var digits = ""
        var isDouble = false
        func takeDigits() {
            while peek().isDigit || (peek() == UInt8(ascii: "_") && peek(1).isDigit) {
                if peek() != UInt8(ascii: "_") { digits.append(Character(UnicodeScalar(peek()))) }
                position += 1
            }
        }
        takeDigits()
        if peek() == UInt8(ascii: "."), peek(1).isDigit {
            isDouble = true
            digits.append(".")
            position += 1
            takeDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E"),
           peek(1).isDigit || ((peek(1) == UInt8(ascii: "-") || peek(1) == UInt8(ascii: "+")) && peek(2).isDigit) {
            isDouble = true
            digits.append("e")
            position += 1
            if !peek().isDigit {
                digits.append(Character(UnicodeScalar(peek())))
                position += 1
            }
            takeDigits()
        }
        if let unit = durationUnit() {
            let amount = Double(digits) ?? 0
            position += unit.length
            let nanoseconds = amount * unit.nanoseconds
            guard nanoseconds.isFinite, abs(nanoseconds) < 9e18 else {
                return error("duration literal is too large", Span(start, position))
            }
            return Token(kind: .duration(TimeSpan(nanoseconds: Int64(nanoseconds.rounded()))), span: Span(start, position))
        }
        if peek().isIdentifierStart {
            let suffixStart = position
            while peek().isIdentifierPart { position += 1 }
            let suffix = String(decoding: bytes[suffixStart..<position], as: UTF8.self)
            diagnostics.appendCapped(Diagnostic("'\(suffix)' is not a unit of time", in: file, at: Span(suffixStart, position),
                                          help: "durations are written 5ms, 1.5s, 2m or 1h"))
            return Token(kind: .integer(0), span: Span(start, position))
        }
        let span = Span(start, position)
        if isDouble {
            guard let value = Double(digits), value.isFinite else { return error("number literal is out of range", span) }
            return Token(kind: .double(value), span: span)
        }
        guard let value = Int(digits) else {
            return error("integer literal overflows Int (at most \(Int.max))", span)
        }
        return Token(kind: .integer(value), span: span)
    }

    private func durationUnit() -> (length: Int, nanoseconds: Double)? {
        let units: [(String, Double)] = [("ms", 1e6), ("us", 1e3), ("ns", 1), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        for (name, scale) in units where matches(name) && !peek(name.utf8.count).isIdentifierPart {
            return (name.utf8.count, scale)
        }
        return nil
    }

    private mutating func shorthand() -> Token {
        let start = position
        position += 1
        // `$count`: a @Published property's publisher, read as a name.
        if peek().isIdentifierStart {
            while peek().isIdentifierPart { position += 1 }
            return Token(kind: .identifier(String(decoding: bytes[start..<position], as: UTF8.self)), span: Span(start, position))
        }
        let digitsStart = position
        while peek().isDigit { position += 1 }
        guard position > digitsStart, let index = Int(String(decoding: bytes[digitsStart..<position], as: UTF8.self)), index < 64 else {
            return error("'$' must be followed by a parameter number, as in $0", Span(start, Swift.max(position, start + 1)))
        }
        return Token(kind: .shorthand(index), span: Span(start, position))
    }

    /// Swift's raw string: `#"..."#` (or with more `#`s), in which a
    /// backslash is text unless as many `#`s follow it (`\#(x)`, `\#n`).
    /// How many `#`s open one here; nil where the `#` starts a comment.
    private func rawStringHashes() -> Int? {
        var hashes = 0
        while peek(hashes) == UInt8(ascii: "#") { hashes += 1 }
        return peek(hashes) == quote ? hashes : nil
    }

    /// A string whose opening quote is at `position`; `hashes` `#`s before
    /// it (from `start`) make it raw.
    private mutating func string(hashes: Int = 0, from start: Int? = nil) -> Token {
        if peek(1) == quote, peek(2) == quote { return multiLineString(hashes: hashes, from: start ?? position) }
        let start = start ?? position
        position += 1
        var literal = StringLiteralText()
        while true {
            guard position < end, peek() != UInt8(ascii: "\n") else {
                return error("unterminated string literal", Span(start, position),
                             help: "close it with \"\(String(repeating: "#", count: hashes)) on the same line")
            }
            let c = peek()
            if c == quote, closesRawString(after: 1, hashes: hashes) {
                position += 1 + hashes
                break
            }
            if c != backslash || !closesRawString(after: 1, hashes: hashes) {
                literal.text.append(c)
                position += 1
                continue
            }
            position += hashes
            if let failure = escape(into: &literal, backslashAt: position - hashes) { return failure }
        }
        return Token(kind: .string(literal.segments()), span: Span(start, position))
    }

    /// Whether `hashes` `#`s stand `offset` bytes on: what a raw string's
    /// closing quote and its escapes carry.
    private func closesRawString(after offset: Int, hashes: Int) -> Bool {
        for i in 0..<hashes where peek(offset + i) != UInt8(ascii: "#") { return false }
        return true
    }

    /// What a string literal has read so far: its segments, and the text
    /// of the one being read.
    private struct StringLiteralText {
        var done: [StringSegment] = []
        var text: [UInt8] = []

        mutating func flush() {
            if !text.isEmpty { done.append(.text(String(decoding: text, as: UTF8.self))) }
            text = []
        }

        mutating func segments() -> [StringSegment] {
            flush()
            return done
        }
    }

    /// Reads the escape at `position` (a backslash, or a raw string's last
    /// `#` after one at `backslashAt`) into the literal; the token to return
    /// instead where it cannot be read.
    private mutating func escape(into literal: inout StringLiteralText, backslashAt: Int? = nil) -> Token? {
        let escapeStart = backslashAt ?? position
        position += 1
        switch peek() {
        case UInt8(ascii: "n"): literal.text.append(10); position += 1
        case UInt8(ascii: "t"): literal.text.append(9); position += 1
        case UInt8(ascii: "r"): literal.text.append(13); position += 1
        case UInt8(ascii: "0"): literal.text.append(0); position += 1
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): literal.text.append(peek()); position += 1
        case UInt8(ascii: "u"): literal.text += unicodeEscape(from: escapeStart)
        case UInt8(ascii: "("):
            literal.flush()
            position += 1
            let exprStart = position
            guard skipBalanced() else {
                return error("unterminated interpolation: '\\(' is never closed", Span(escapeStart, position))
            }
            literal.done.append(.interpolation(Span(exprStart, position - 1)))
        default:
            diagnostics.appendCapped(Diagnostic("unknown escape sequence", in: file, at: Span(escapeStart, position + 1),
                                          help: "escapes are \\n \\t \\r \\0 \\\" \\\\ \\u{...} and \\(expression)"))
            position += 1
        }
        return nil
    }

    /// Swift's multi-line string: `"""`, a new line, lines of text, and a
    /// line holding the closing `"""`, whose indentation is taken off every
    /// line. The line break before the closing delimiter is not part of the
    /// text; a backslash at the end of a line joins it to the next.
    private mutating func multiLineString(hashes: Int, from start: Int) -> Token {
        position += 3
        while isBlank(peek()) { position += 1 }
        var contentStart = position + 1
        var textOnOpeningLine = false
        if peek() != newline {
            textOnOpeningLine = true
            // Reported, then read as if the text began on the next line.
            diagnostics.appendCapped(Diagnostic("a multi-line string's text starts on the line after its opening \"\"\"", in: file,
                                                at: Span(start, position + 1),
                                                help: "put the text on the next line, or write a one-line string in \"...\""))
            contentStart = position
        }
        // The closing line decides the indentation every line must have.
        var lineStart = contentStart
        var closing: (lineStart: Int, delimiter: Int)? = nil
        while lineStart < end {
            var i = lineStart
            while i < end, isBlank(bytes[i]) { i += 1 }
            if i + 3 + hashes <= end, bytes[i] == quote, bytes[i + 1] == quote, bytes[i + 2] == quote,
               bytes[(i + 3)..<(i + 3 + hashes)].allSatisfy({ $0 == UInt8(ascii: "#") }) {
                closing = (lineStart, i)
                break
            }
            while i < end, bytes[i] != newline { i += 1 }
            lineStart = i + 1
        }
        guard let closing else {
            position = end
            hasUnterminatedMultiLineString = true
            let delimiter = "\"\"\"" + String(repeating: "#", count: hashes)
            return error("unterminated multi-line string: no line closes it with \(delimiter)", Span(start, start + 3 + hashes),
                         help: "end it with \(delimiter) on a line of its own")
        }
        let indentation = bytes[closing.lineStart..<closing.delimiter]
        var literal = StringLiteralText()
        lineStart = contentStart
        while lineStart < closing.lineStart {
            var lineEnd = lineStart
            while bytes[lineEnd] != newline { lineEnd += 1 }
            var joinsNext = false
            if bytes[lineStart..<lineEnd].allSatisfy(isBlank) {
                // A line of white space alone may be less indented.
                if lineEnd - lineStart > indentation.count { literal.text += bytes[(lineStart + indentation.count)..<lineEnd] }
            } else if !(textOnOpeningLine && lineStart == contentStart), !bytes[lineStart..<lineEnd].starts(with: indentation) {
                diagnostics.appendCapped(Diagnostic("this line of a multi-line string is less indented than its closing \"\"\"",
                                                    in: file, at: Span(lineStart, lineEnd),
                                                    help: "indent every line at least as far as the closing delimiter"))
            } else {
                position = textOnOpeningLine && lineStart == contentStart ? lineStart : lineStart + indentation.count
                while position < lineEnd {
                    let c = peek()
                    if c != backslash || !closesRawString(after: 1, hashes: hashes) {
                        literal.text.append(c)
                        position += 1
                    } else if position + 1 + hashes == lineEnd {
                        joinsNext = true
                        position += 1 + hashes
                    } else {
                        position += hashes
                        if let failure = escape(into: &literal, backslashAt: position - hashes) { return failure }
                    }
                }
            }
            lineStart = lineEnd + 1
            if !joinsNext, lineStart < closing.lineStart { literal.text.append(newline) }
        }
        position = closing.delimiter + 3 + hashes
        return Token(kind: .string(literal.segments()), span: Span(start, position))
    }

    private var newline: UInt8 { UInt8(ascii: "\n") }
    private var quote: UInt8 { UInt8(ascii: "\"") }
    private var backslash: UInt8 { UInt8(ascii: "\\") }
    private func isBlank(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }

    /// `'text'`: reported once, then read as the string it was meant to be.
    private mutating func singleQuotedString() -> Token {
        let start = position
        position += 1
        while position < end, peek() != UInt8(ascii: "'"), peek() != UInt8(ascii: "\n") { position += 1 }
        guard peek() == UInt8(ascii: "'") else {
            position = start + 1
            diagnostics.appendCapped(Diagnostic("unexpected character '''", in: file, at: Span(start, start + 1),
                                          help: "strings are written in double quotes"))
            return next()
        }
        position += 1
        let text = String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
        diagnostics.appendCapped(Diagnostic("strings are written in double quotes", in: file, at: Span(start, position),
                                      help: "write \"\(text)\""))
        return Token(kind: .string([.text(text)]), span: Span(start, position))
    }

    private mutating func unicodeEscape(from escapeStart: Int) -> [UInt8] {
        position += 1
        guard peek() == UInt8(ascii: "{") else {
            diagnostics.appendCapped(Diagnostic("expected '{' after \\u", in: file, at: Span(escapeStart, position)))
            return []
        }
        position += 1
        let digitsStart = position
        while peek().isHexDigit { position += 1 }
        let hex = String(decoding: bytes[digitsStart..<position], as: UTF8.self)
        guard peek() == UInt8(ascii: "}"), let code = UInt32(hex, radix: 16), let scalar = UnicodeScalar(code) else {
            diagnostics.appendCapped(Diagnostic("invalid unicode escape", in: file, at: Span(escapeStart, position + 1),
                                          help: "write a hexadecimal code point, as in \\u{1F600}"))
            return []
        }
        position += 1
        return Array(String(Character(scalar)).utf8)
    }

    /// Skips to just after the `)` that closes an interpolation, stepping
    /// over nested parentheses and strings. False at the end of the line.
    private mutating func skipBalanced() -> Bool {
        var depth = 1
        while position < end, peek() != UInt8(ascii: "\n") {
            let c = peek()
            if c == UInt8(ascii: "\"") {
                let before = diagnostics.count
                _ = string()
                if diagnostics.count > before { return false }
                continue
            }
            position += 1
            if c == UInt8(ascii: "(") { depth += 1 }
            if c == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { return true }
            }
        }
        return false
    }

    private mutating func unexpectedCharacter() -> Token {
        let start = position
        // Step over one whole UTF-8 sequence (or one invalid byte).
        let c = peek()
        let length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
        position = Swift.min(end, position + length)
        let scalar = String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars.first
        let shown: String
        if let scalar, scalar != "\u{FFFD}", scalar.properties.isAlphabetic || scalar.value > 0x20 && scalar.value < 0x7F {
            shown = "'\(scalar)'"
        } else if let scalar, scalar != "\u{FFFD}" {
            shown = "U+" + String(scalar.value, radix: 16, uppercase: true)
        } else {
            shown = "byte 0x" + String(c, radix: 16, uppercase: true) + " (not valid UTF-8)"
        }
        var help: String?
        if c == UInt8(ascii: "'") { help = "strings are written in double quotes" }
        if c == UInt8(ascii: "&") || c == UInt8(ascii: "|") { help = "did you mean '&&' or '||'?" }
        diagnostics.appendCapped(Diagnostic("unexpected character \(shown)", in: file, at: Span(start, position), help: help))
        return next()
    }

    private mutating func error(_ message: String, _ span: Span, help: String? = nil) -> Token {
        diagnostics.appendCapped(Diagnostic(message, in: file, at: span, help: help))
        return Token(kind: .integer(0), span: span)
    }
}

extension UInt8 {
    var isDigit: Bool { self >= 48 && self <= 57 }
    var isHexDigit: Bool { isDigit || (self >= 65 && self <= 70) || (self >= 97 && self <= 102) }
    var isIdentifierStart: Bool { (self >= 65 && self <= 90) || (self >= 97 && self <= 122) || self == 95 }
    var isIdentifierPart: Bool { isIdentifierStart || isDigit }
}
