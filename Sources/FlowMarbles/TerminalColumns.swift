/// How many columns of a terminal (or of a monospaced SVG lane) a text
/// takes: East Asian wide characters and emoji take two, so lanes and
/// labels holding them stay aligned with the ones that do not.
extension Character {
    public var terminalColumns: Int {
        guard let first = unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        // A text-style emoji (☀) turned into a picture by U+FE0F.
        if properties.isEmoji, unicodeScalars.contains("\u{FE0F}") { return 2 }
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { return 0 }
        return Self.isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks.
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension StringProtocol {
    public var terminalColumns: Int { reduce(0) { $0 + $1.terminalColumns } }

    /// Padded with spaces to `columns` terminal columns.
    public func padded(toColumns columns: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, columns - terminalColumns))
    }
}

extension String {
    /// The characters in terminal columns `range` (a wide character cut
    /// by the range's start is left out, one cut by its end is kept).
    func columns(_ range: Range<Int>) -> String {
        var out = ""
        var column = 0
        for c in self {
            let width = c.terminalColumns
            if column >= range.upperBound { break }
            if column >= range.lowerBound { out.append(c) }
            column += width
        }
        return out
    }
}
