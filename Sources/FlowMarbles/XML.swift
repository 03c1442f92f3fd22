/// Text as XML 1.0 holds it, for SVG diagrams and JUnit reports: valid
/// whatever the text holds.
public enum XML {
    /// Escapes the five special characters, and shows the characters XML
    /// 1.0 cannot hold at all (controls below U+20 but tab and line breaks,
    /// U+FFFE, U+FFFF) as Swift writes them, `\u{FFFF}`: kept visible,
    /// never dropped silently nor left to make the document invalid.
    public static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if isForbidden(c) {
                    out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// As `escape`, for an attribute's value: tabs and line breaks as
    /// character references too, which a parser keeps (it turns them, as
    /// written, into spaces).
    public static func escapeAttribute(_ text: String) -> String {
        escape(text).replacingTabsAndBreaks()
    }

    /// Characters XML 1.0 has no place for, not even as a reference.
    static func isForbidden(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0xFFFE || c.value == 0xFFFF
    }
}

private extension String {
    func replacingTabsAndBreaks() -> String {
        guard contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return self }
        var out = ""
        for c in unicodeScalars {
            switch c {
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
