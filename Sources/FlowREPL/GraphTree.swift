import FlowRuntime

/// `:graph NAME`: the operator graph behind a stream, drawn from the stream
/// back to its sources as an indented tree.
///
/// A node several operators read from (a `share()`d stream used twice) is
/// drawn once and marked `shared #n`; later uses refer back to it. Sources
/// say whether they are hot (one sequence for every subscriber) or cold
/// (afresh for each).
enum GraphTree {
    /// Beyond this many lines a graph is cut, with a count of what was left out.
    static let maximumLines = 200

    static func render(_ root: Observable, name: String) -> String {
        let (readers, total) = readCounts(from: root)
        var numbers: [ObjectIdentifier: Int] = [:]
        var drawn = Set<ObjectIdentifier>()
        var lines = [name]
        // Depth-first without recursion: graphs may be 100 000 stages deep.
        var pending: [(node: Observable, prefix: String, isLast: Bool)] = [(root, "", true)]
        while let (node, prefix, isLast) = pending.popLast() {
            if lines.count > maximumLines { break }
            let id = ObjectIdentifier(node)
            drawn.insert(id)
            var line = prefix + (isLast ? "└─ " : "├─ ") + node.displayName
            if let number = numbers[id] {
                lines.append(line + "  [shared #\(number), drawn above]")
                continue
            }
            if let count = readers[id], count > 1 {
                numbers[id] = numbers.count + 1
                line += "  [shared #\(numbers[id]!): \(count) readers]"
            }
            if node.inputs.isEmpty { line += node.isHotSource ? "  (hot source)" : "  (cold source)" }
            lines.append(line)
            let childPrefix = prefix + (isLast ? "   " : "│  ")
            for (index, input) in node.inputs.enumerated().reversed() {
                pending.append((input, childPrefix, index == node.inputs.count - 1))
            }
        }
        let omitted = total - drawn.count
        if omitted > 0 { lines.append("… \(omitted) more node\(omitted == 1 ? "" : "s")") }
        return lines.joined(separator: "\n")
    }

    /// How many operators read from each node, and how many nodes there are.
    private static func readCounts(from root: Observable) -> (readers: [ObjectIdentifier: Int], nodes: Int) {
        var counts: [ObjectIdentifier: Int] = [:]
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(root)]
        var pending = [root]
        while let node = pending.popLast() {
            for input in node.inputs {
                counts[ObjectIdentifier(input), default: 0] += 1
                if visited.insert(ObjectIdentifier(input)).inserted { pending.append(input) }
            }
        }
        return (counts, visited.count)
    }
}
