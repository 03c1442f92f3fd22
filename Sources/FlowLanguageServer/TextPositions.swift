import FlowLanguage

/// How the client counts a line's characters: UTF-16 code units, as the
/// protocol says unless both sides agree on UTF-8 or code points.
public enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
    case utf32 = "utf-32"
}

/// A document's lines, to turn byte offsets (the language's spans) into
/// the protocol's line and character and back.
struct TextPositions {
    let bytes: [UInt8]
    let encoding: PositionEncoding
    private let lineStarts: [Int]

    init(_ text: String, encoding: PositionEncoding) {
        bytes = Array(text.utf8)
        self.encoding = encoding
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    private func lineEnd(_ line: Int) -> Int {
        line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    }

    /// The units of `encoding` a scalar takes.
    private func width(_ scalar: Unicode.Scalar) -> Int {
        switch encoding {
        case .utf8: UTF8.width(scalar)
        case .utf16: UTF16.width(scalar)
        case .utf32: 1
        }
    }

    /// Line and character of a byte offset.
    func position(of offset: Int) -> (line: Int, character: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        var character = 0
        for scalar in String(decoding: bytes[start..<offset], as: UTF8.self).unicodeScalars { character += width(scalar) }
        return (low, character)
    }

    /// The byte offset of a line and character; past the end of a line is
    /// its end, as the protocol says.
    func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        var offset = lineStarts[line]
        let end = lineEnd(line)
        var counted = 0
        for scalar in String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars {
            let units = width(scalar)
            if counted + units > character { break }
            counted += units
            offset += UTF8.width(scalar)
        }
        return offset
    }

    func range(_ span: Span) -> [String: Any] {
        let start = position(of: span.start)
        let end = position(of: span.end)
        return ["start": ["line": start.line, "character": start.character], "end": ["line": end.line, "character": end.character]]
    }

    /// The whole text's range.
    var whole: [String: Any] { range(Span(0, bytes.count)) }
}
