/// How `flow grade` names a path in what it reports: relative to the
/// graded folder as the report names that folder (as the teacher typed it,
/// or `.` for one given by its absolute path), so that no message, row or
/// file a report writes holds the teacher's absolute paths. A path beside
/// the folder or above it (where the teacher started, the key's folder) is
/// named with `..` from it, down to the second level of the tree: a path
/// like `/tmp/x` or `/etc/x` says nothing of the teacher, and a path a
/// script wrote itself beside one (after a quote) is left as it wrote it.
struct ShownPaths {
    /// The graded folder, resolved.
    let folder: String
    /// The graded folder as reports name it.
    let shown: String

    /// `text` with every absolute path in or above the graded folder
    /// (short of the root itself) named relative to it.
    func rewrite(_ text: String) -> String {
        guard folder != "/", text.contains("/") else { return text }
        var result = Self.replacing(folder + "/", in: text, with: prefix(up: 0))
        // Given by its absolute path, the folder is `.` in a flag to paste,
        // and named in words in a sentence, where a lone `.` would be lost.
        result = Self.replacing(folder, in: result) { before in shown == "." && before != "=" ? "the graded folder" : shown }
        var ancestor = Self.parent(of: folder), levels = 1
        while ancestor.split(separator: "/").count >= 2 {
            result = Self.replacing(ancestor + "/", in: result, with: prefix(up: levels), keepingQuoted: true)
            ancestor = Self.parent(of: ancestor)
            levels += 1
        }
        return result
    }

    /// The shown folder followed by `levels` times `..`, as a prefix ending
    /// in `/`, or empty for the folder the report's paths start from.
    private func prefix(up levels: Int) -> String {
        var parts = shown.split(separator: "/").map(String.init).filter { $0 != "." }
        for _ in 0..<levels {
            if let last = parts.last, last != ".." { parts.removeLast() } else { parts.append("..") }
        }
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    /// `path` replaced where it stands whole: not where it begins a longer
    /// name (`/tmp/class` in `/tmp/classic`), nor within one (`/x/tmp/`);
    /// `keepingQuoted`, not where a quote opens it either.
    private static func replacing(_ path: String, in text: String, with replacement: String, keepingQuoted: Bool = false) -> String {
        replacing(path, in: text, keepingQuoted: keepingQuoted) { _ in replacement }
    }

    /// The same, the replacement chosen by the character before the path.
    private static func replacing(_ path: String, in text: String, keepingQuoted: Bool = false,
                                  with replacement: (Character?) -> String) -> String {
        var result = "", rest = Substring(text)
        func partOfName(_ character: Character?) -> Bool {
            character.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "/" } ?? false
        }
        while let range = rest.range(of: path) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            var after = rest[range.upperBound...].first
            if after == ".", rest[range.upperBound...].dropFirst().first.map({ $0.isWhitespace }) ?? true { after = nil }
            let whole = !partOfName(before) && (path.hasSuffix("/") || !partOfName(after)) && !(keepingQuoted && before == "\"")
            result += rest[..<range.lowerBound] + (whole ? replacement(before) : path)
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
