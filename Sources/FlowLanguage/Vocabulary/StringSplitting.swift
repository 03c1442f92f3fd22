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
            let pieces = separator.count == 1
                ? s.split(separator: separator.first!, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
                : s.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omitting)
            return .array(pieces.map { .string(String($0)) })
        },
        .string("components", [[labelled("separatedBy", .string)]],
                "the pieces between separators, empty ones kept (Foundation's components(separatedBy:))",
                example: #"print("a,b,,c".components(separatedBy: ","), "".components(separatedBy: ","))"#) { s, args in
            let separator = try args.string(0)
            guard !separator.isEmpty else { return .array([.string(s)]) }
            return .array(s.components(separatedBy: separator).map(Value.string))
        },
    ]
}
