/// Two texts' difference in the unified format of `diff -u` (three lines
/// of context, hunk headers as GNU diff writes them), for `flow fmt --diff`.
public enum UnifiedDiff {
    public static func between(_ old: String, _ new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let oldLines = lines(of: old)
        let newLines = lines(of: new)
        guard old != new else { return "" }
        let difference = newLines.difference(from: oldLines)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        guard !removed.isEmpty || !inserted.isEmpty else { return "" }

        enum Mark: Character { case same = " ", removed = "-", added = "+" }
        var operations: [(mark: Mark, old: Int, new: Int, text: String)] = []
        var i = 0
        var j = 0
        while i < oldLines.count || j < newLines.count {
            if i < oldLines.count, removed.contains(i) {
                operations.append((.removed, i, j, oldLines[i]))
                i += 1
            } else if j < newLines.count, inserted.contains(j) {
                operations.append((.added, i, j, newLines[j]))
                j += 1
            } else {
                operations.append((.same, i, j, oldLines[i]))
                i += 1
                j += 1
            }
        }

        // Hunks: each change with its context, overlapping ones joined.
        var hunks: [Range<Int>] = []
        for (index, operation) in operations.enumerated() where operation.mark != .same {
            let range = max(0, index - context)..<min(operations.count, index + context + 1)
            if let last = hunks.last, last.upperBound >= range.lowerBound {
                hunks[hunks.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }

        var out = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks {
            let slice = operations[hunk]
            let oldCount = slice.filter { $0.mark != .added }.count
            let newCount = slice.filter { $0.mark != .removed }.count
            let first = slice.first!
            let oldStart = oldCount == 0 ? first.old : first.old + 1
            let newStart = newCount == 0 ? first.new : first.new + 1
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for operation in slice {
                out.append(operation.mark.rawValue)
                if operation.text.hasSuffix(noNewline) {
                    out += operation.text.dropLast(noNewline.count) + "\n\\ No newline at end of file\n"
                } else {
                    out += operation.text + "\n"
                }
            }
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// Marks a last line without a line break, which differs from the same
    /// line with one (diff says so under it).
    private static let noNewline = "\u{0}no newline"

    /// Lines without their breaks; a last line without one is a line too.
    private static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" {
            lines.removeLast()
        } else if !lines.isEmpty {
            lines[lines.count - 1] += noNewline
        }
        return lines
    }
}
