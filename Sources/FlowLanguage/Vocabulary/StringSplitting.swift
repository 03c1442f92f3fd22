import FlowRuntime
import Foundation

/// Cutting text into fields, as Swift and Foundation do: `split` drops
/// empty pieces unless told not to, `components(separatedBy:)` keeps
/// them. Both call the real methods, so every edge (a separator at either
/// end, an empty text, `maxSplits`) gives what swiftc's program gives.
extension ValueMethod {
    static let stringSplitting: [ValueMethod] = [
        .string("split", [noArguments, [arg("separator", .string)],
                          [labelled("separator", .string), labelled("maxSplits", .int, optional: true),
                           labelled("omittingEmptySubsequences", .bool, optional: true)]],
                "the pieces between separators (a space by default): empty pieces dropped unless omittingEmptySubsequences: false, at most maxSplits cuts",
                example: #"print("a,b,,c".split(separator: ","), "a,b,,c".split(separator: ",", omittingEmptySubsequences: false))"#
                    + "\n" + #"print("k=v=w".split(separator: "=", maxSplits: 1))"#) { s, args in
            var separator = " ", maxSplits = Int.max, omitting = true
            for (label, value) in zip(args.labels, args.values) {
                switch label {
                case "maxSplits":
                    maxSplits = try value.asInt()
                    guard maxSplits >= 0 else { throw FlowError("split takes maxSplits: of 0 or more, not \(maxSplits)") }
                case "omittingEmptySubsequences": omitting = try value.asBool()
                default: separator = try value.asString()
                }
            }
            guard !separator.isEmpty else { throw FlowError("split needs a non-empty separator") }
            // Swift's split makes an array of substrings, then flow one of
            // strings: both are counted before either is made.
            let pieces = Swift.min(maxSplits, s.occurrencesAtMost(of: separator)) + 1
            try MemoryBudget.checkElements(pieces * 3, "splitting a string")
            let parts = separator.count == 1
                ? s.split(separator: separator.first!, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                : s.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
            return .array(parts.map { .string(String($0)) })
        },
        .string("components", [[labelled("separatedBy", .string)]],
                "the pieces between separators, empty ones kept (Foundation's components(separatedBy:))",
                example: #"print("a,b,,c".components(separatedBy: ","), "".components(separatedBy: ","))"#) { s, args in
            let separator = try args.string(0)
            guard !separator.isEmpty else { return .array([.string(s)]) }
            try MemoryBudget.checkElements((s.occurrencesAtMost(of: separator) + 1) * 3, "splitting a string with components(separatedBy:)")
            return .array(s.components(separatedBy: separator).map(Value.string))
        },
    ]
}

extension String {
    /// At most how many times `pattern` occurs in the text, without
    /// overlaps: counted on its UTF-8 bytes, a bound on what a search by
    /// characters finds (every match of characters is a match of bytes).
    /// What splitting or replacing will make is counted with it before it
    /// is made.
    func occurrencesAtMost(of pattern: String) -> Int {
        let needle = Array(pattern.utf8)
        guard let first = needle.first else { return 0 }
        var text = self
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            var found = 0, i = 0
            let end = bytes.count - needle.count
            while i <= end {
                if bytes[i] == first && (needle.count == 1 || needle.indices.allSatisfy { bytes[i + $0] == needle[$0] }) {
                    found += 1
                    i += needle.count
                } else {
                    i += 1
                }
            }
            return found
        } ?? utf8.count
    }

    /// The text as an array of its one-character strings, as `Array(s)`,
    /// `for c in s` and Array's helpers on a string read it; refused when
    /// the array would not fit the memory budget. A character takes at
    /// least one byte, so the bytes are a bound; the characters are
    /// counted only where that bound is over.
    func characterValues(_ doing: @autoclosure () -> String) throws -> [Value] {
        if utf8.count * MemoryLayout<Value>.stride > MemoryBudget.bytes { try MemoryBudget.checkElements(count, doing()) }
        return map { .string(String($0)) }
    }
}
