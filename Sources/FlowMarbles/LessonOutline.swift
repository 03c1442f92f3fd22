/// A lesson's titles and notes, read from the comments of the script.
public enum LessonOutline {
    /// Each diagram with its title and notes: the nearest `// # Title` (or `# # Title`)
    /// comment above its `marbles(...)` call (below the call before it),
    /// else the call's `title:`, else its lanes' labels; the notes are the
    /// comment lines that follow the title.
    public static func lessons(of diagrams: [LaneDiagram], source: String) -> [SlideDeck.Lesson] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var previousCall = 0
        return diagrams.map { diagram in
            var title: String?
            var notes: [String] = []
            if let line = diagram.location?.line, line - 1 <= lines.count, line > previousCall {
                // The lines above the call, nearest first, back to the previous call.
                for index in stride(from: line - 2, through: previousCall, by: -1) where index >= 0 {
                    guard let heading = Self.heading(lines[index]) else { continue }
                    title = heading
                    var next = index + 1
                    while next < line - 1, let comment = Self.comment(lines[next]) {
                        notes.append(comment)
                        next += 1
                    }
                    break
                }
                previousCall = line
            }
            while notes.last?.isEmpty == true { notes.removeLast() }
            let labels = diagram.lanes.filter { !$0.label.hasPrefix(" ") }.map { LaneDiagram.displayLabel($0.label) }
            return SlideDeck.Lesson(title: title ?? diagram.title ?? labels.joined(separator: ", "), notes: notes, diagram: diagram)
        }
    }

    /// `// # Title` → "Title".
    static func heading(_ line: String) -> String? {
        guard let text = comment(line), text.hasPrefix("# ") else { return nil }
        let title = trimmed(text.dropFirst(2))
        return title.isEmpty ? nil : title
    }

    /// The text of a line that is a comment alone: `// text`, or `# text`.
    static func comment(_ line: String) -> String? {
        let line = trimmed(Substring(line))
        if line.hasPrefix("//") { return trimmed(line.dropFirst(2)) }
        if line == "#" || line.hasPrefix("# ") { return trimmed(line.dropFirst(1)) }
        return nil
    }

    /// Without the spaces and tabs around it.
    static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
