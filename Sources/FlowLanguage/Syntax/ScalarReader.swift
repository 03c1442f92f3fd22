/// Reads a short text a Unicode scalar at a time, blanks between its parts
/// skipped: the small languages inside a script's lines (a type's text, a
/// `#if` condition) that the lexer leaves whole.
struct ScalarReader {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == scalars.count
        }
    }

    mutating func skipSpaces() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }

    /// Takes `text` if it comes next.
    mutating func accept(_ text: String) -> Bool {
        skipSpaces()
        let wanted = Array(text.unicodeScalars)
        guard index + wanted.count <= scalars.count, Array(scalars[index..<index + wanted.count]) == wanted else { return false }
        index += wanted.count
        return true
    }

    /// A name: a letter or `_`, then letters, digits, `_` and what
    /// `alsoInside` lets in (`.` for `Swift.Int`, `5.9`).
    mutating func word(alsoInside: Set<Unicode.Scalar> = [], digitFirst: Bool = false) -> String? {
        skipSpaces()
        let start = index
        while index < scalars.count {
            let scalar = scalars[index]
            let isDigit = scalar.properties.numericType != nil
            guard scalar == "_" || scalar.properties.isAlphabetic || (isDigit && (index > start || digitFirst))
                    || (index > start || digitFirst) && alsoInside.contains(scalar) else { break }
            index += 1
        }
        guard index > start else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<index])
        return text
    }
}
