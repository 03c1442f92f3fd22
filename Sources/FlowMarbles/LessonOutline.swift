/// A lesson's titles and notes, read from the comments of the script.
public enum LessonOutline {
    /// The diagrams a test block drew, with the test's name.
    public struct TestDiagrams {
        public var name: String
        public var diagrams: [LaneDiagram]

        public init(name: String, diagrams: [LaneDiagram]) {
            self.name = name
            self.diagrams = diagrams
        }
    }

    /// Each diagram with its title and notes: the nearest `// # Title` (or `# # Title`)
    /// comment above its `marbles(...)` call (below the call before it),
    /// else the call's `title:`, else (in a test block) the test's name,
    /// else its lanes' labels; the notes are the comment lines that follow
    /// the title.
    ///
    /// The `marbles(...)` calls of test blocks are slides too, in the
    /// script's order among the others (a diagram of the top level keeps
    /// the order it was drawn in; one without a place, a traced chain,
    /// comes last). A lesson's `marksNumber` is its diagram's place in
    /// `diagrams`; a test's diagrams are numbered after them.
    public static func lessons(of diagrams: [LaneDiagram], tests: [TestDiagrams] = [], source: String) -> [SlideDeck.Lesson] {
        typealias Drawn = (diagram: LaneDiagram, number: Int, test: String?)
        var drawn: [Drawn] = diagrams.enumerated().map { ($1, $0, nil) }
        var number = diagrams.count
        for test in tests {
            for diagram in test.diagrams {
                drawn.append((diagram, number, test.name))
                number += 1
            }
        }
        if !tests.isEmpty {
            // Placed among the top level's by where they are written.
            let placed = drawn.filter { $0.diagram.location != nil }
            let unplaced = drawn.filter { $0.diagram.location == nil }
            let order = { (d: Drawn) in (d.diagram.location!.line, d.diagram.location!.column) }
            drawn = placed.enumerated().sorted { a, b in
                order(a.element) != order(b.element) ? order(a.element) < order(b.element) : a.offset < b.offset
            }.map(\.element) + unplaced
        }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var previousCall = 0
        return drawn.map { diagram, number, test in
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
            return SlideDeck.Lesson(title: title ?? diagram.title ?? test ?? labels.joined(separator: ", "), notes: notes, diagram: diagram,
                                    marksNumber: number)
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
