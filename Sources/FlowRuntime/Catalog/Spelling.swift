/// One way another library writes an operator: a name, and how its labels
/// and defaults map onto the canonical signatures.
///
/// - `"mergeMap"` is a name alone.
/// - `"take(until:)"` is RxSwift's `take` with an `until:` label: the label
///   picks the spelling (here `takeUntil`) and is dropped.
/// - `Spelling("flatMap", label: "maxPublishers", means: "maxConcurrent")`
///   renames the label instead.
/// - `Spelling("bufferCount", positional: ["count", "skip"])` labels the
///   call's unlabelled arguments in order.
/// - `Spelling("throttleTime", implied: [("latest", .bool(false))])` adds an
///   argument the call leaves out; an implied argument without a label is
///   added when the call has no unlabelled argument (`dropFirst()` is
///   `skip(1)`).
public struct Spelling: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String
    /// The label that picks this spelling (`until` in `take(until:)`); nil
    /// for a spelling picked by its name alone.
    public let label: String?
    /// Labels renamed to the canonical ones (nil: unlabelled).
    public let renames: [String: String?]
    /// Labels given, in order, to the call's unlabelled arguments.
    public let positional: [String?]
    /// Arguments this spelling implies when the call leaves them out.
    public let implied: [(label: String?, value: Constant)]
    /// Labels whose arguments are dropped (`Timer.publish(every:on:in:)`'s
    /// run loop and mode).
    public let ignored: Set<String>
    /// Whether a bare number for a duration is seconds (Combine's `for:`
    /// and `every:` labels) rather than milliseconds.
    public let takesSeconds: Bool

    /// A value a spelling implies.
    public enum Constant: Sendable {
        case bool(Bool), int(Int), string(String)
        public var value: Value {
            switch self {
            case .bool(let b): .bool(b)
            case .int(let n): .int(n)
            case .string(let s): .string(s)
            }
        }
    }

    public init(
        _ name: String, label: String? = nil, means canonical: String? = nil, renames: [String: String?] = [:],
        positional: [String?] = [], implied: [(label: String?, value: Constant)] = [], ignored: Set<String> = []
    ) {
        self.name = name
        self.label = label
        var renames = renames
        if let label { renames[label] = .some(canonical) }
        self.renames = renames
        self.positional = positional
        self.implied = implied
        self.ignored = ignored
        takesSeconds = label == "for" || label == "every"
    }

    /// `"name"` or `"name(label:)"`.
    public init(stringLiteral text: String) {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(":)") else {
            self.init(text)
            return
        }
        self.init(String(text[..<open]), label: String(text[text.index(after: open)..<text.index(text.endIndex, offsetBy: -2)]))
    }

    public var description: String {
        if let label { return "\(name)(\(label):)" }
        return name
    }

    /// Where each of the operator's arguments comes from.
    public enum Source: Sendable, Equatable {
        /// The call's argument at this index.
        case argument(Int)
        /// A value the spelling implies.
        case implied(Int)
    }

    /// The operator's arguments for a call written with `labels`: their
    /// canonical labels, and where each comes from.
    public func adapt(_ labels: [String?]) -> [(label: String?, source: Source)] {
        var result: [(label: String?, source: Source)] = []
        var next = positional.makeIterator()
        for (i, written) in labels.enumerated() {
            if let written, ignored.contains(written) { continue }
            if let written, let renamed = renames[written] {
                result.append((renamed, .argument(i)))
            } else if written == nil, let given = next.next() {
                result.append((given, .argument(i)))
            } else {
                result.append((written, .argument(i)))
            }
        }
        for (k, (label, _)) in implied.enumerated() {
            if let label {
                if !result.contains(where: { $0.label == label }) { result.append((label, .implied(k))) }
            } else if !result.contains(where: { $0.label == nil }) {
                result.insert((nil, .implied(k)), at: 0)
            }
        }
        return result
    }
}
