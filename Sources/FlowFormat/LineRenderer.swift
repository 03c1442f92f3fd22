import FlowLanguage

/// One line of formatted output.
struct RenderedLine {
    /// Indentation, in levels.
    var indent = 0
    /// The line without its indentation.
    var text = ""
    /// The pieces on it.
    var pieces: Range<Int>
    /// Copied as written, without indentation.
    var isVerbatim = false
    /// Holds comments only: indented as the code line after it.
    var isCommentOnly = true
    /// A blank line comes before it.
    var blankBefore = false
}

/// Lays pieces out in lines: each line indented by the brackets open
/// around it (several opened on one line add one level), a line that
/// continues a statement one level deeper, a switch's `case`s at the level
/// of its `switch`, and the blanks between pieces by `SpacingRules`.
struct LineRenderer {
    static let indentUnit = "  "

    private struct Frame {
        /// `{`, `(` or `[`; empty for the file's top level.
        var open: String
        var contentIndent: Int
        var closerIndent: Int
        var openedOnLine: Int
        var isSwitch = false
        /// Ternary `?`s whose `:` has not come yet.
        var ternaries = 0
        /// A line of code has started inside it.
        var hasLines = false
        /// The last line that ended inside it ended with an operator that
        /// continues the statement on the next.
        var lastLineContinues = false
        /// The last line that ended inside it ended an element of a list
        /// (with `,` or the opening bracket).
        var lastLineEndedElement = true
        /// Where a `.member` line stands that continues a ternary's branch
        /// begun on a line of its own (`: source` and then `.map`), so the
        /// chain reads as the branch's.
        var branchIndent: Int?
    }

    let pieces: [Piece]
    let gaps: [Gap]
    private var frames: [Frame] = [Frame(open: "", contentIndent: 0, closerIndent: 0, openedOnLine: -1)]
    private var lines: [RenderedLine] = []
    private var commentLinesAwaitingIndent: [Int] = []
    private var previousToken: (index: Int, role: SpacingRules.Role)?
    private var previousOnLine: (index: Int, role: SpacingRules.Role)?
    private var switchSeenAtDepth: Int?

    /// The `<` and `>` that bracket generic arguments; every other one compares.
    private let genericBrackets: GenericBrackets

    init(pieces: [Piece], gaps: [Gap]) {
        self.pieces = pieces
        self.gaps = gaps
        genericBrackets = GenericBrackets(pieces: pieces, gaps: gaps)
    }

    static func render(_ layout: LayoutPieces) -> [RenderedLine] {
        var renderer = LineRenderer(pieces: layout.pieces, gaps: layout.gaps)
        return renderer.run()
    }

    private mutating func run() -> [RenderedLine] {
        for index in pieces.indices {
            let piece = pieces[index]
            let gap = gaps[index]
            let startsLine = lines.isEmpty || gap.breaks > 0 || {
                if case .verbatimLine = piece.kind { return true }
                switch pieces[index - 1].kind {
                case .lineComment, .verbatimLine: return true
                default: return false
                }
            }()
            if startsLine { startLine(at: index, blankBefore: gap.breaks > 1 && !lines.isEmpty) }
            place(index, startsLine: startsLine)
        }
        finishLine()
        let top = frames.last!.contentIndent
        for line in commentLinesAwaitingIndent { lines[line].indent = top }
        return lines
    }

    private mutating func startLine(at index: Int, blankBefore: Bool) {
        finishLine()
        lines.append(RenderedLine(pieces: index..<index, blankBefore: blankBefore))
        previousOnLine = nil
        switchSeenAtDepth = nil
    }

    /// Records how the line that ends left the frame it ends in.
    private mutating func finishLine() {
        guard let last = lines.indices.last, !lines[last].isCommentOnly, !lines[last].isVerbatim,
              let (index, role) = previousToken, lines[last].pieces.contains(index) else { return }
        let piece = pieces[index]
        var frame = frames.removeLast()
        frame.lastLineContinues = piece.symbol.map { SourceTokens.continuingSymbols.contains($0) } ?? false || role == .ternary
        frame.lastLineEndedElement = piece.isSymbol(",") || piece.isOpener
        frames.append(frame)
    }

    private mutating func place(_ index: Int, startsLine: Bool) {
        let piece = pieces[index]
        let line = lines.count - 1
        lines[line].pieces = lines[line].pieces.lowerBound..<(index + 1)
        switch piece.kind {
        case .verbatimLine:
            lines[line].isVerbatim = true
            lines[line].text = piece.text
            return
        case .lineComment, .blockComment:
            if startsLine {
                commentLinesAwaitingIndent.append(line)
            } else if let (left, role) = previousOnLine {
                lines[line].text += SpacingRules.separator(pieces[left], role, piece, .plain, gap: gaps[index])
            }
            lines[line].text += piece.text
            previousOnLine = (index, .plain)
            return
        case .token:
            break
        }
        if lines[line].isCommentOnly {
            lines[line].isCommentOnly = false
            if startsLine { indentLine(line, startingWith: index) }
        }
        let role = self.role(of: index)
        if let (left, leftRole) = previousOnLine {
            lines[line].text += SpacingRules.separator(pieces[left], leftRole, piece, role, gap: gaps[index])
        }
        lines[line].text += piece.text
        previousOnLine = (index, role)
        previousToken = (index, role)
        if piece.word == "switch" { switchSeenAtDepth = frames.count }
        if piece.isOpener {
            let top = frames.last!
            let sharesLine = frames.count > 1 && top.openedOnLine == line
            frames.append(Frame(open: piece.text,
                                contentIndent: sharesLine ? top.contentIndent : lines[line].indent + 1,
                                closerIndent: sharesLine ? top.closerIndent : lines[line].indent,
                                openedOnLine: line,
                                isSwitch: piece.isSymbol("{") && switchSeenAtDepth == frames.count))
        } else if piece.isCloser, frames.count > 1 {
            frames.removeLast()
        }
    }

    /// The indentation of a line whose first piece of code is `index`; the
    /// comment lines just before it take the same.
    private mutating func indentLine(_ line: Int, startingWith index: Int) {
        let piece = pieces[index]
        var top = frames.removeLast()
        defer { frames.append(top) }
        let indent: Int
        if piece.isCloser, frames.count >= 1 {
            indent = top.closerIndent
            for comment in commentLinesAwaitingIndent { lines[comment].indent = top.contentIndent }
        } else {
            var base = top.contentIndent
            let word = piece.word
            if top.isSwitch, word == "case" || word == "default" || (piece.isSymbol("@") && nextPiece(after: index)?.word == "unknown") {
                base -= 1
            }
            let continues: Bool
            if !top.hasLines {
                continues = false
            } else if top.open == "{" || top.open.isEmpty {
                continues = top.lastLineContinues || startsContinuation(index)
            } else {
                continues = !top.lastLineEndedElement && (top.lastLineContinues || startsContinuation(index))
            }
            var level = base
            if !continues {
                top.ternaries = 0
                top.branchIndent = nil
            } else if piece.isSymbol("?") || piece.isSymbol(":") {
                level = base + 1
                top.branchIndent = level + 1
            } else if piece.isSymbol("."), let branch = top.branchIndent {
                level = branch
            } else {
                level = base + 1
            }
            top.hasLines = true
            indent = max(0, level)
            for comment in commentLinesAwaitingIndent { lines[comment].indent = indent }
        }
        commentLinesAwaitingIndent = []
        lines[line].indent = indent
    }

    private func nextPiece(after index: Int) -> Piece? {
        index + 1 < pieces.count ? pieces[index + 1] : nil
    }

    /// A line that starts so continues the line before it, as the lexer
    /// reads it: `.member`, `?`, `??`, `:`, `->`, `&&`, `||`.
    private func startsContinuation(_ index: Int) -> Bool {
        let piece = pieces[index]
        if piece.isSymbol("."), let next = nextPiece(after: index), next.word != nil, !gaps[index + 1].hadSpace { return true }
        guard let symbol = piece.symbol else { return false }
        return symbol == "?" || symbol == "??" || symbol == ":" || symbol == "->" || symbol == "&&" || symbol == "||"
    }

    private mutating func role(of index: Int) -> SpacingRules.Role {
        let piece = pieces[index]
        let gap = gaps[index]
        guard let symbol = piece.symbol else { return .plain }
        let touching = !gap.hadSpace && previousOnLine != nil
        let previous = previousToken.map { pieces[$0.index] }
        let previousIsPostfix = previousToken?.role == .postfix
        switch symbol {
        case "?":
            if touching { return .postfix }
            frames[frames.count - 1].ternaries += 1
            return .ternary
        case "!":
            if touching, let previous,
               SpacingRules.endsOperand(previous) || previous.word == "as" || previous.word == "try" || previousIsPostfix {
                return .postfix
            }
            return .prefix
        case ":":
            if frames[frames.count - 1].ternaries > 0 {
                frames[frames.count - 1].ternaries -= 1
                return .ternary
            }
            return .plain
        case "-", "+":
            // A statement cannot start with an infix operator; inside
            // brackets a line may.
            if previousOnLine == nil, frames.last!.open == "{" || frames.last!.open.isEmpty { return .prefix }
            if let previous, SpacingRules.endsOperand(previous) || previousIsPostfix { return .infix }
            return .prefix
        case "&", "@", "\\":
            return .prefix
        case "<", ">":
            if genericBrackets.keptAsWritten.contains(index) { return .plain }
            return genericBrackets.indices.contains(index) ? .genericBracket : .infix
        default:
            return SpacingRules.binaryOperators.contains(symbol) ? .infix : .plain
        }
    }

    /// The lines as text, each ending with a line break.
    static func text(of lines: [RenderedLine]) -> String {
        var out = ""
        for line in lines {
            if line.blankBefore { out += "\n" }
            if !line.isVerbatim { out += String(repeating: indentUnit, count: line.indent) }
            out += line.text
            out += "\n"
        }
        return out
    }
}
