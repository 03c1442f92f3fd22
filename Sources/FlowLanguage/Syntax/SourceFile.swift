#if canImport(Glibc)
import Glibc
#endif
import FlowRuntime

/// A script's text, with the line table that turns offsets into
/// `line:column` for diagnostics.
public final class SourceFile: Sendable {
    public let path: String
    public let text: String
    /// UTF-8 bytes of `text`; every offset in a `Span` indexes this.
    let bytes: [UInt8]
    private let lineStarts: [Int]
    /// Lines (0-based) holding a byte outside ASCII. On the others a column
    /// is a byte count, so a location costs O(1) however long the line
    /// (a 100 000-term sum on one line compiles in linear time).
    private let linesWithNonASCII: LineSet

    /// Line endings may be `\n`, `\r\n` or a lone `\r` (old Mac files): all
    /// are read as `\n`, so offsets, lines and the lexer see one form.
    public init(path: String, text: String) {
        self.path = path
        var bytes = Array(text.utf8)
        if bytes.contains(UInt8(ascii: "\r")) {
            bytes = Self.normalizingLineEndings(bytes)
            self.text = String(decoding: bytes, as: UTF8.self)
        } else {
            self.text = text
        }
        self.bytes = bytes
        var starts = [0]
        var nonASCII = LineSet()
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\n") { starts.append(i + 1) } else if b >= 0x80 { nonASCII.insert(starts.count - 1) }
        }
        lineStarts = starts
        linesWithNonASCII = nonASCII
    }

    private static func normalizingLineEndings(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\r") {
                out.append(UInt8(ascii: "\n"))
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
            } else {
                out.append(bytes[i])
            }
            i += 1
        }
        return out
    }

    /// 1-based line and column (in characters) of a byte offset.
    public func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var hint = 0
        return lineAndColumn(of: offset, hint: &hint)
    }

    /// `hint` is the 0-based line found by the previous call: a compiler
    /// reads the file front to back, so the next offset is mostly on that
    /// line or the next, found without a search.
    func lineAndColumn(of offset: Int, hint: inout Int) -> (line: Int, column: Int) {
        let offset = Swift.min(Swift.max(offset, 0), bytes.count)
        let low = lineIndex(of: offset, near: hint)
        hint = low
        let start = lineStarts[low]
        guard linesWithNonASCII.contains(low) else { return (low + 1, offset - start + 1) }
        let column = String(decoding: bytes[start..<offset], as: UTF8.self).count + 1
        return (low + 1, column)
    }

    private func lineIndex(of offset: Int, near hint: Int) -> Int {
        let last = lineStarts.count - 1
        var line = Swift.min(Swift.max(hint, 0), last)
        while line <= Swift.min(hint + 1, last), lineStarts[line] <= offset {
            if line == last || offset < lineStarts[line + 1] { return line }
            line += 1
        }
        var low = 0, high = last
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    func location(of offset: Int, hint: inout Int) -> SourceLocation {
        let (line, column) = lineAndColumn(of: offset, hint: &hint)
        return SourceLocation(file: path, line: line, column: column)
    }

    public func location(of offset: Int) -> SourceLocation {
        let (line, column) = lineAndColumn(of: offset)
        return SourceLocation(file: path, line: line, column: column)
    }

    /// Whether the text may declare a func or a type: it has one of the
    /// words `func`, `struct`, `enum`, `class` anywhere (in a comment or a string
    /// too, to keep it simple). Without them, nothing in a statement list is
    /// visible before its statement, and each statement can be compiled as
    /// soon as it is parsed.
    var mayDeclareFunctionsOrTypes: Bool {
        let words: [[UInt8]] = [Array("func".utf8), Array("struct".utf8), Array("enum".utf8), Array("class".utf8)]
        // A word as the lexer reads one.
        return bytes.withUnsafeBufferPointer { text in
            for i in text.indices where i == 0 || !text[i - 1].isIdentifierPart {
                // Most bytes start none of the words: one test, not one per word.
                switch text[i] {
                case UInt8(ascii: "f"), UInt8(ascii: "s"), UInt8(ascii: "e"), UInt8(ascii: "c"): break
                default: continue
                }
                for word in words where text[i] == word[0] && i + word.count <= text.count {
                    let end = i + word.count
                    if (1..<word.count).allSatisfy({ text[i + $0] == word[$0] }), end == text.count || !text[end].isIdentifierPart {
                        return true
                    }
                }
            }
            return false
        }
    }

    /// The text of a 1-based line, without its newline.
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        return String(decoding: bytes[start..<Swift.max(start, end)], as: UTF8.self)
    }

    public func text(of span: Span) -> String {
        String(decoding: bytes[Swift.max(0, span.start)..<Swift.min(bytes.count, span.end)], as: UTF8.self)
    }
}

/// A set of line numbers, one bit each.
struct LineSet: Sendable {
    private var words: [UInt64] = []

    mutating func insert(_ line: Int) {
        while words.count <= line >> 6 { words.append(0) }
        words[line >> 6] |= 1 << UInt64(line & 63)
    }

    func contains(_ line: Int) -> Bool {
        line >> 6 < words.count && words[line >> 6] & (1 << UInt64(line & 63)) != 0
    }
}

/// A half-open range of byte offsets in a source file.
///
/// Kept in 32 bits each (a script is at most 64 MiB): every token and every
/// node of a syntax tree has one, and a long script has millions.
public struct Span: Hashable, Sendable {
    private var storedStart: Int32
    private var storedEnd: Int32

    public var start: Int {
        get { Int(storedStart) }
        set { storedStart = Int32(clamping: newValue) }
    }
    public var end: Int {
        get { Int(storedEnd) }
        set { storedEnd = Int32(clamping: newValue) }
    }

    public init(_ start: Int, _ end: Int) {
        storedStart = Int32(clamping: start)
        storedEnd = Int32(clamping: Swift.max(start, end))
    }

    public func to(_ other: Span) -> Span { Span(Swift.min(start, other.start), Swift.max(end, other.end)) }
}

extension SourceFile {
    /// The byte offset of a 1-based line and column (the inverse of `lineAndColumn`).
    public func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return bytes.count }
        let start = lineStarts[line - 1]
        let text = lineText(line)
        let prefix = text.prefix(Swift.max(0, column - 1))
        return start + prefix.utf8.count
    }

    /// A file read from disk: nil text means it is not valid UTF-8.
    /// The largest script read: a path naming a device or a huge data file
    /// by mistake fails at once instead of filling memory.
    public static let maximumBytes = 64 << 20
    public static let tooLarge = FlowError("larger than 64 MiB: not a script")

    public static func load(path: String) throws -> SourceFile {
        let data = try readFile(path, limit: maximumBytes)
        guard let text = String(validating: data, as: UTF8.self) else {
            let bad = String(decoding: data, as: UTF8.self)
            let file = SourceFile(path: path, text: bad)
            let offset = firstInvalidByte(in: data)
            throw DiagnosticList([Diagnostic("the file is not UTF-8 text (invalid byte 0x\(String(data[offset], radix: 16, uppercase: true)))",
                                             in: file, at: Span(0, 0), help: "flow scripts are UTF-8 text files")])
        }
        return SourceFile(path: path, text: text)
    }

    /// The offset of the first byte that does not decode as UTF-8.
    private static func firstInvalidByte(in data: [UInt8]) -> Int {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return Swift.min(offset, Swift.max(0, data.count - 1))
            }
        }
    }
}

extension SourceFile {
    /// A script's bytes, read whole (at most `limit`), or a FlowError naming
    /// the path and the reason: for the layers above that read scripts.
    public static func bytes(ofFileAt path: String, limit: Int) throws -> [UInt8] { try readFile(path, limit: limit) }
}

/// Reads a whole file, or throws a FlowError naming the path and the reason.
func readFile(_ path: String, limit: Int) throws -> [UInt8] {
    #if canImport(Glibc)
    if path.utf8.contains(0) { throw FlowError("cannot read \(path.debugDescription): the path contains a NUL character") }
    var info = stat()
    if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw FlowError("cannot read \(path): it is a directory") }
    guard let handle = fopen(path, "rb") else {
        throw FlowError("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(handle) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, handle)
        if n > 0 { result.append(contentsOf: buffer[0..<n]) }
        if result.count > limit { throw FlowError("cannot read \(path): \(SourceFile.tooLarge.message)") }
        if n < buffer.count {
            if ferror(handle) != 0 { throw FlowError("cannot read \(path): \(String(cString: strerror(errno)))") }
            return result
        }
    }
    #else
    throw FlowError("reading files is not supported on this platform")
    #endif
}

extension SourceFile {
    /// `Name<Args>` as written from `offset` (a constructor's name with its
    /// generic arguments, `CurrentValueSubject<Double, Never>`), which the
    /// parser reads past; nil where no `<` follows the name.
    func genericTypeText(at offset: Int) -> String? {
        func isNameByte(_ b: UInt8) -> Bool {
            b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
        }
        var i = offset
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard i > offset else { return nil }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { return nil }
        var depth = 0
        var j = i
        while j < bytes.count, j - i < 400 {
            switch bytes[j] {
            case UInt8(ascii: "<"): depth += 1
            case UInt8(ascii: ">"):
                depth -= 1
                if depth == 0 { return text(of: Span(offset, j + 1)) }
            case UInt8(ascii: "\n"), UInt8(ascii: "("), UInt8(ascii: "{"): return nil
            default: break
            }
            j += 1
        }
        return nil
    }
}
