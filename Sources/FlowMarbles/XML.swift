/// Text as XML 1.0 holds it, for SVG diagrams and JUnit reports.
public enum XML {
    /// Escapes the five special characters and leaves out the control
    /// characters XML 1.0 forbids (all below U+20 but tab and line breaks).
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
                if c.value < 0x20 && c != "\t" && c != "\n" && c != "\r" { continue }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
