import FlowLanguage

/// Which `<` and `>` of a script are a generic argument list's brackets
/// (`Array<Int>`, `PassthroughSubject<Int, Never>()`, `func f<T>(`) rather
/// than comparisons (`$0 > 5`), told apart as Swift's parser does
/// (`canParseAsGenericArgumentList`): after a name, a `<` whose tokens up
/// to its matching `>` read as a list of types, and whose `>` is followed
/// by what can follow a type (`(`, `.`, `)`, `]`, `{`, `}`, `,`, `:`, `?`,
/// `!`, `&`, the line's end). A declaration's type (`var s: Set<Int> = []`,
/// `-> Box<T> where`) is a type wherever it stands, so `=` and a word such as
/// `where` may follow it too. Anything else is a comparison: `a < b, c > d`
/// reads as types up to the `>`, but `d` cannot follow one.
struct GenericBrackets {
    /// The indices of the pieces that are generic brackets, `<` and `>`.
    private(set) var indices: Set<Int> = []
    /// Those of a list whose `<` stands apart from its name (`Array < Int >()`):
    /// flow reads a constructor's element type only from `Name<`, so their
    /// blanks are kept as written.
    private(set) var keptAsWritten: Set<Int> = []
    private let pieces: [Piece]
    private let gaps: [Gap]

    init(pieces: [Piece], gaps: [Gap]) {
        self.pieces = pieces
        self.gaps = gaps
        var index = 0
        while index < pieces.count {
            if pieces[index].isSymbol("<"), index > 0, Self.isTypeName(pieces[index - 1]), gaps[index].breaks == 0 {
                var scan = Scan(pieces: pieces, gaps: gaps, position: index)
                if scan.genericArguments(), followsAType(scan.position) {
                    indices.formUnion(scan.brackets)
                    if gaps[index].hadSpace { keptAsWritten.formUnion(scan.brackets) }
                    index = scan.position
                    continue
                }
            }
            index += 1
        }
    }

    /// What may stand after a generic argument list's `>`, at `index`.
    private func followsAType(_ index: Int) -> Bool {
        guard index < pieces.count, gaps[index].breaks == 0 else { return true }
        let next = pieces[index]
        if next.isComment || next.isSemicolon { return true }
        if let symbol = next.symbol { return Self.followingSymbols.contains(symbol) }
        return next.word == "where"
    }

    private static let followingSymbols: Set<String> = ["(", "[", ".", ")", "]", "{", "}", ",", ":", "?", "!", "&", "=", "->", "..."]

    /// Words that can name no type: they start statements or are values.
    private static let notTypes: Set<String> = SpacingRules.statementWords.subtracting(["some", "any", "inout"])
        .union(["let", "in", "return", "true", "false", "nil", "test", "throws", "async", "rethrows"])

    static func isTypeName(_ piece: Piece) -> Bool {
        guard let word = piece.word else { return false }
        return !notTypes.contains(word)
    }

    /// A reading of types from a position, as far as they go on one line.
    private struct Scan {
        let pieces: [Piece]
        let gaps: [Gap]
        var position: Int
        var brackets: [Int] = []

        private var current: Piece? {
            guard position < pieces.count, position == 0 || gaps[position].breaks == 0, !pieces[position].isComment else { return nil }
            return pieces[position]
        }

        private mutating func accept(_ symbol: String) -> Bool {
            guard current?.isSymbol(symbol) == true else { return false }
            position += 1
            return true
        }

        /// `<` type, type, ... `>`; a generic parameter may carry its
        /// constraint (`<T: Equatable>`).
        mutating func genericArguments() -> Bool {
            let open = position
            guard accept("<") else { return false }
            brackets.append(open)
            repeat {
                if let piece = current, GenericBrackets.isTypeName(piece), position + 1 < pieces.count, pieces[position + 1].isSymbol(":") {
                    position += 2
                }
                guard type() else { return false }
            } while accept(",")
            let close = position
            guard accept(">") else { return false }
            brackets.append(close)
            return true
        }

        mutating func type() -> Bool {
            while let word = current?.word, ["some", "any", "inout"].contains(word) { position += 1 }
            while accept("@") {
                guard current?.word != nil else { return false }
                position += 1
            }
            guard simpleType() else { return false }
            while true {
                if accept("?") || accept("!") || accept("...") { continue }
                if accept("&") {
                    guard simpleType() else { return false }
                    continue
                }
                return true
            }
        }

        /// A name with its members and arguments, `[T]`, `[K: V]`, or a
        /// tuple or function type.
        private mutating func simpleType() -> Bool {
            if let piece = current, GenericBrackets.isTypeName(piece) {
                position += 1
                if current?.isSymbol("<") == true, !genericArguments() { return false }
                while current?.isSymbol(".") == true, position + 1 < pieces.count, GenericBrackets.isTypeName(pieces[position + 1]) {
                    position += 2
                    if current?.isSymbol("<") == true, !genericArguments() { return false }
                }
                return true
            }
            if accept("[") {
                guard type() else { return false }
                if accept(":"), !type() { return false }
                return accept("]")
            }
            if accept("(") {
                if !accept(")") {
                    repeat {
                        if let piece = current, piece.word != nil, position + 1 < pieces.count, pieces[position + 1].isSymbol(":") {
                            position += 2
                        }
                        guard type() else { return false }
                    } while accept(",")
                    guard accept(")") else { return false }
                }
                while let word = current?.word, ["async", "throws", "rethrows"].contains(word) { position += 1 }
                if accept("->") { return type() }
                return true
            }
            return false
        }
    }
}
