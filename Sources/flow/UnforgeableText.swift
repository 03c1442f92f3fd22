import FlowServe

/// What a student's script chooses (its test names, what it prints, its
/// errors' messages) as a report may show it without letting it forge the
/// report: no line break that makes a row of its own, no escape sequence
/// that rewrites the teacher's terminal, no CSV cell a spreadsheet runs as
/// a formula.
enum UnforgeableText {
    /// One line: every control character (line breaks, tabs, ESC, DEL, the
    /// C1 controls) and the line and paragraph separators written visibly,
    /// as Swift writes them in a string literal (`\n`, `\u{1B}`).
    static func line(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isControl(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Several lines: the line breaks stay (each line is indented by the
    /// report, so none can pass for a row), every other control is visible.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line(String($0)) }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
            || scalar.value == 0xFEFF || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// A CSV cell a spreadsheet shows as text: the rule `flow serve`'s
    /// class export follows too.
    static func csvCell(_ text: String, isNumber: Bool = false) -> String { SpreadsheetText.cell(text, isNumber: isNumber) }
}
