import FlowLanguage

/// `flow fmt`'s one canonical layout of a script: two spaces a level,
/// blanks around operators and after commas and colons, one statement a
/// line, at most one blank line in a row, long chains one operator a
/// line, a trailing comma in multi-line collections. Comments stay where
/// they stand; strings (marbles among them), numbers and the lines of
/// `#if` branches not taken are copied as written.
public enum SourceFormatter {
    /// Lines longer than this, in characters, have their chains broken.
    public static let width = 100

    public enum Outcome {
        case formatted(String)
        /// The script does not parse: it is left as it is.
        case syntaxErrors([Diagnostic])
        /// The layout would have changed what the script means: a fault in
        /// the formatter, which then changes nothing.
        case refused(reason: String)
        /// The script asks to keep its layout (`# flow fmt: off`).
        case keptAsWritten
    }

    /// A comment of its own line that keeps a whole script as it is
    /// written, for one whose layout is what it shows (`;`, comments in
    /// odd places); `//` works as well as `#`.
    public static let offSwitch = "flow fmt: off"

    /// - Parameter modules: names whose functions start a chain as a
    ///   type's do (`http.get(url)` stays on its line, as
    ///   `Observable.just(1)` does, before the chain's operators).
    public static func format(_ file: SourceFile, modules: Set<String> = []) -> Outcome {
        let lexed = SourceTokens(file)
        var parser = Parser(file: file)
        _ = parser.parseScript()
        let errors = (parser.diagnostics).filter { $0.severity == .error }
        guard errors.isEmpty, lexed.diagnostics.allSatisfy({ $0.severity != .error }) else {
            return .syntaxErrors(errors.isEmpty ? lexed.diagnostics : errors)
        }
        let layout: LayoutPieces
        do {
            layout = try LayoutPieces(file: file, tokens: lexed.tokens)
        } catch let unreadable as LayoutPieces.Unreadable {
            return .refused(reason: "flow fmt cannot read the text at line \(file.lineAndColumn(of: unreadable.offset).line)")
        } catch {
            return .refused(reason: "\(error)")
        }
        let switchedOff = layout.pieces.indices.contains { index in
            let piece = layout.pieces[index]
            guard case .lineComment = piece.kind, index == 0 || layout.gaps[index].breaks > 0 else { return false }
            return piece.text.drop { $0 == "#" || $0 == "/" }.drop { $0 == " " } == offSwitch
        }
        if switchedOff { return .keptAsWritten }
        let text = lay(out: layout, modules: modules)
        let formatted = SourceFile(path: file.path, text: text)
        // What the parser reads must not change: the same tree, the same
        // tokens (a trailing comma in a collection aside), the same comments.
        guard let before = SyntaxFingerprint.of(file), let after = SyntaxFingerprint.of(formatted), before == after else {
            return .refused(reason: "the new layout would parse differently")
        }
        guard let laidOut = try? LayoutPieces(file: formatted, tokens: SourceTokens(formatted).tokens),
              significantTokens(of: layout) == significantTokens(of: laidOut) else {
            return .refused(reason: "the new layout would read other tokens")
        }
        guard layout.comments == laidOut.comments else {
            return .refused(reason: "the new layout would lose or repeat a comment")
        }
        return .formatted(text)
    }

    /// The script's text, laid out; nil where it does not parse.
    public static func formatted(_ text: String, path: String = "<text>", modules: Set<String> = []) -> String? {
        switch format(SourceFile(path: path, text: text), modules: modules) {
        case .formatted(let result): return result
        case .keptAsWritten: return text
        case .syntaxErrors, .refused: return nil
        }
    }

    /// The comments of a script in order, as written.
    public static func comments(in file: SourceFile) -> [String] {
        let lexed = SourceTokens(file)
        return (try? LayoutPieces(file: file, tokens: lexed.tokens))?.comments ?? []
    }

    private static func lay(out original: LayoutPieces, modules: Set<String>) -> String {
        var layout = original
        layout.separateStatements()
        layout.normaliseTrailingCommas()
        var lines = LineRenderer.render(layout)
        // Breaking a chain shortens its line; a second pass finds none left
        // to break, but a line may hold a chain once another has moved.
        for _ in 0..<4 {
            guard layout.breakLongChains(lines, width: width, heads: modules) else { break }
            lines = LineRenderer.render(layout)
        }
        return LineRenderer.text(of: lines)
    }

    private static func significantTokens(of layout: LayoutPieces) -> [String] {
        var tokens: [String] = []
        for (index, piece) in layout.pieces.enumerated() {
            guard case .token = piece.kind, !piece.isSemicolon else { continue }
            // A trailing comma is no element: `[1, 2,]` reads as `[1, 2]`.
            if piece.isSymbol(","), let next = layout.pieces[(index + 1)...].first(where: { !$0.isComment }), next.isSymbol("]") { continue }
            tokens.append(piece.text)
        }
        return tokens
    }
}
