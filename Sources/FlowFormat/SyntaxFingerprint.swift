import FlowLanguage

/// A script's syntax tree written out without its spans: two texts with
/// the same fingerprint parse to the same tree, wherever their pieces
/// stand. Types are kept as the text the script wrote (`[String: Int]`),
/// which the compiler reads blank-insensitively, so blanks in a type's
/// text are left out; every other text (a string's, a marble string's)
/// is kept whole, as a blank in it is meaning.
public enum SyntaxFingerprint {
    /// The fingerprint of the tree `Parser` reads from `file`, or nil
    /// when the file has a syntax error.
    public static func of(_ file: SourceFile) -> String? {
        var parser = Parser(file: file)
        let script = parser.parseScript()
        guard !parser.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        var out = ""
        write(script.statements, into: &out)
        return out
    }

    private static func write(_ value: Any, into out: inout String) {
        if value is Span || value is SourceFile { return }
        if let type = value as? TypeText {
            write(String(type.text.filter { !$0.isWhitespace }), into: &out)
            return
        }
        if let text = value as? String {
            out += "\""
            out += text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            out += "\""
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .enum:
            if let payload = mirror.children.first {
                out += "." + (payload.label ?? "?") + "("
                write(payload.value, into: &out)
                out += ")"
            } else {
                out += "." + String(describing: value)
            }
        case .optional:
            if let wrapped = mirror.children.first { write(wrapped.value, into: &out) } else { out += "nil" }
        case .collection, .set, .dictionary:
            out += "["
            for child in mirror.children {
                write(child.value, into: &out)
                out += ","
            }
            out += "]"
        case .struct, .class, .tuple:
            out += "{"
            for child in mirror.children {
                if let label = child.label { out += label + ":" }
                write(child.value, into: &out)
                out += ","
            }
            out += "}"
        default:
            out += String(describing: value)
        }
    }
}
