import FlowLanguage

/// The changes of layout the formatter makes beyond blanks and
/// indentation: one statement a line, trailing commas, long chains one
/// operator a line. Each leaves the tokens the parser reads as they were
/// (a `;` and a line break are the same token to it; a line that starts
/// with `.member` continues the one before).
extension LayoutPieces {
    /// The index of the bracket that closes each opening one.
    func matchingClosers() -> [Int: Int] {
        var open: [Int] = []
        var closers: [Int: Int] = [:]
        for (index, piece) in pieces.enumerated() {
            if piece.isOpener {
                open.append(index)
            } else if piece.isCloser, let opener = open.popLast() {
                closers[opener] = index
            }
        }
        return closers
    }

    /// Replaces each `;` with a line break. A block written on one line
    /// with a `;` in it (`{ a; b }`) is opened: its statements on lines of
    /// their own, after the `{` (and the closure's `x in`), before the `}`.
    mutating func separateStatements() {
        guard pieces.contains(where: \.isSemicolon) else { return }
        let closers = matchingClosers()
        var open: [Int] = []
        var opened: Set<Int> = []
        for (index, piece) in pieces.enumerated() {
            if piece.isOpener {
                open.append(index)
            } else if piece.isCloser {
                _ = open.popLast()
            } else if piece.isSemicolon, let brace = open.last, pieces[brace].isSymbol("{"),
                      !((brace + 1)...index).contains(where: { gaps[$0].breaks > 0 }) {
                opened.insert(brace)
            }
        }
        for brace in opened {
            guard let closer = closers[brace] else { continue }
            var head = brace
            var depth = 0
            for index in (brace + 1)..<closer {
                if pieces[index].isOpener { depth += 1 }
                if pieces[index].isCloser { depth -= 1 }
                if pieces[index].isSemicolon { break }
                if depth == 0, pieces[index].word == "in" {
                    head = index
                    break
                }
            }
            breakBefore(head + 1)
            breakBefore(closer)
        }
        for index in pieces.indices.reversed() where pieces[index].isSemicolon {
            let gap = gaps[index]
            remove(at: index)
            guard index < pieces.count else { continue }
            gaps[index].breaks = max(gaps[index].breaks, gap.breaks)
            // A comment after the `;` stays at the end of its line.
            var next = index
            while next < pieces.count, pieces[next].isComment, gaps[next].breaks == 0 { next += 1 }
            if next < pieces.count { breakBefore(next) }
        }
    }

    mutating func breakBefore(_ index: Int) {
        guard index < pieces.count else { return }
        if pieces[index].isComment, gaps[index].breaks == 0 { return }
        gaps[index].breaks = max(gaps[index].breaks, 1)
        gaps[index].hadSpace = true
    }

    /// An array or dictionary literal of several elements whose `]` stands
    /// on a line of its own ends its last element with a comma; one on a
    /// single line has none after its last.
    mutating func normaliseTrailingCommas() {
        let closers = matchingClosers()
        var inserts: [Int] = []
        var removals: [Int] = []
        for (opener, closer) in closers where pieces[opener].isSymbol("[") && isCollectionLiteral(opener) {
            var depth = 0
            var hasComma = false
            var last: Int?
            for index in (opener + 1)..<closer {
                let piece = pieces[index]
                if piece.isComment { continue }
                if depth == 0, piece.isSymbol(",") { hasComma = true }
                if piece.isOpener { depth += 1 }
                if piece.isCloser { depth -= 1 }
                last = index
            }
            guard hasComma, let last else { continue }
            let onOneLine = !((opener + 1)...closer).contains { gaps[$0].breaks > 0 }
            if gaps[closer].breaks > 0, !pieces[last].isSymbol(",") {
                inserts.append(last + 1)
            } else if onOneLine, pieces[last].isSymbol(","), last == closer - 1 {
                removals.append(last)
            }
        }
        var edits = inserts.map { ($0, true) } + removals.map { ($0, false) }
        edits.sort { $0.0 > $1.0 }
        for (index, isInsert) in edits {
            if isInsert {
                insert(Piece(kind: .token(.symbol(",")), text: ","), gap: Gap(), at: index)
            } else {
                let gap = gaps[index + 1]
                remove(at: index)
                gaps[index] = gap
            }
        }
    }

    /// `[` starting a literal (or a type, or a capture list), not a subscript.
    private func isCollectionLiteral(_ opener: Int) -> Bool {
        guard opener > 0, gaps[opener].breaks == 0 else { return true }
        let previous = pieces[opener - 1]
        if previous.isComment { return true }
        return !(SpacingRules.endsOperand(previous) || previous.isSymbol("?") || previous.isSymbol("!") || previous.isSymbol(">"))
    }

    /// Breaks each line longer than `width` that holds a chain of two or
    /// more calls (`.map { }.filter { }`) before each of its calls, so the
    /// chain reads one operator a line. Returns whether any line changed.
    mutating func breakLongChains(_ lines: [RenderedLine], width: Int, heads: Set<String>) -> Bool {
        var changed = false
        for line in lines where !line.isVerbatim && !line.isCommentOnly {
            let length = line.indent * LineRenderer.indentUnit.count + line.text.count
            guard length > width else { continue }
            let range = line.pieces
            if let first = pieces[range].first(where: { !$0.isComment }),
               let word = first.word, ["if", "guard", "while", "for", "switch", "case"].contains(word) {
                continue
            }
            var depth = 0
            var depths: [Int] = []
            for index in range {
                depths.append(depth)
                if pieces[index].isOpener { depth += 1 }
                if pieces[index].isCloser { depth -= 1 }
            }
            let base = min(0, depths.min() ?? 0)
            var links: [Int] = []
            var startsWithLink = false
            for (offset, index) in range.enumerated() where depths[offset] == base && isCallLink(index) {
                if index == range.lowerBound {
                    startsWithLink = true
                } else if !isChainHead(before: index, heads: heads) {
                    links.append(index)
                }
            }
            guard links.count + (startsWithLink ? 1 : 0) >= 2 else { continue }
            for index in links { breakBefore(index) }
            changed = true
        }
        return changed
    }

    /// `.name(` or `.name {` written against what it follows.
    private func isCallLink(_ index: Int) -> Bool {
        guard pieces[index].isSymbol("."), index + 2 < pieces.count, pieces[index + 1].word != nil, !gaps[index + 1].hadSpace,
              pieces[index + 2].isSymbol("(") || pieces[index + 2].isSymbol("{") else { return false }
        guard index > 0 else { return true }
        let previous = pieces[index - 1]
        return !previous.isSymbol("?") && !previous.isComment && !gaps[index].hadSpace
    }

    /// `Observable.just(1)`, `http.get(url)`: a type's member, or a
    /// module's function, is the source the chain starts from.
    private func isChainHead(before index: Int, heads: Set<String>) -> Bool {
        guard index > 0, case .token(.identifier(let name)) = pieces[index - 1].kind, let first = name.unicodeScalars.first,
              index < 2 || !pieces[index - 2].isSymbol(".") else {
            return false
        }
        return first.properties.isUppercase || heads.contains(name)
    }
}
