import FlowRuntime

/// String's methods. The rest of Array's read a string as an array of its
/// one-character strings (`"abc".map { $0 }`, `"abc".sorted()`).
extension ValueMethod {
    static let stringMethods: [ValueMethod] = [
        .string("count", [noArguments], "the number of characters", example: #"print("héllo".count)"#) { s, args in
            try args.expect(0)
            return .int(s.count)
        },
        .string("data", [[labelled("using", .value)]], "the text's bytes as Data, for JSONDecoder (an optional, as Foundation's)",
                example: #"print("{}".data(using: .utf8)!)"#) { s, args in
            try args.expect(1)
            return DataValue.make(s)
        },
        .string("isEmpty", [noArguments], "whether there are no characters", example: #"print("".isEmpty)"#) { s, args in
            try args.expect(0)
            return .bool(s.isEmpty)
        },
        .string("uppercased", [noArguments], "the text in capitals", example: #"print("flow".uppercased())"#) { s, args in
            try args.expect(0)
            return .string(s.uppercased())
        },
        .string("lowercased", [noArguments], "the text in small letters", example: #"print("Flow".lowercased())"#) { s, args in
            try args.expect(0)
            return .string(s.lowercased())
        },
        .string("capitalized", [noArguments], "each word with a capital first letter and the rest small (Foundation's)",
                example: #"print("hello wORLD".capitalized)"#) { s, args in
            try args.expect(0)
            var out = ""
            var atWordStart = true
            for c in s {
                out += atWordStart ? c.uppercased() : c.lowercased()
                atWordStart = c.isWhitespace || c.isPunctuation
            }
            return .string(out)
        },
        .string("trimmed", [noArguments], "without white space at either end (flow's, for trimmingCharacters(in: .whitespaces))",
                example: #"print("[" + "  a b ".trimmed() + "]")"#) { s, args in
            try args.expect(0)
            return .string(s.trimmingWhitespace())
        },
        .string("hasPrefix", [[arg("prefix", .string)]], "whether the text starts with another", example: #"print("flow".hasPrefix("fl"))"#) { s, args in
            try args.expect(1)
            return .bool(s.hasPrefix(try args.string(0)))
        },
        .string("hasSuffix", [[arg("suffix", .string)]], "whether the text ends with another", example: #"print("flow".hasSuffix("ow"))"#) { s, args in
            try args.expect(1)
            return .bool(s.hasSuffix(try args.string(0)))
        },
        .string("contains", [[arg("other", .string)]], "whether the text holds another", example: #"print("reactive".contains("act"))"#) { s, args in
            try args.expect(1)
            return .bool(s.contains(try args.string(0)))
        },
        .string("replacingOccurrences", [[labelled("of", .string), labelled("with", .string)]], "the text with every occurrence replaced",
                example: #"print("a-b-c".replacingOccurrences(of: "-", with: "+"))"#) { s, args in
            try args.expect(2, labels: ["of", "with"])
            let (target, replacement) = (try args.string(0), try args.string(1))
            let growth = replacement.utf8.count - target.utf8.count
            if growth > 0 {
                try MemoryBudget.checkString(bytes: s.utf8.count + s.occurrencesAtMost(of: target) * growth, "replacing occurrences in a string")
            }
            return .string(s.replacing(target, with: replacement))
        },
        .string("reversed", [noArguments], "the characters from last to first", example: #"print("abc".reversed())"#) { s, args in
            try args.expect(0)
            return .string(String(s.reversed()))
        },
        .string("first", [noArguments], "the first character, or nil", example: #"print("abc".first!)"#) { s, args in
            try args.expect(0)
            return s.first.map { .string(String($0)) } ?? .null
        },
        .string("last", [noArguments], "the last character, or nil", example: #"print("abc".last!)"#) { s, args in
            try args.expect(0)
            return s.last.map { .string(String($0)) } ?? .null
        },
        .string("prefix", [[arg("maxLength", .int).nonNegative()]], "the first n characters", example: #"print("abc".prefix(2))"#) { s, args in
            try args.expect(1)
            return .string(String(s.prefix(try args.count())))
        },
        .string("suffix", [[arg("maxLength", .int).nonNegative()]], "the last n characters", example: #"print("abc".suffix(2))"#) { s, args in
            try args.expect(1)
            return .string(String(s.suffix(try args.count())))
        },
        .string("dropFirst", [noArguments, [arg("k", .int).nonNegative()]], "all but the first (n) characters",
                example: #"print("abc".dropFirst())"#) { s, args in
            .string(String(s.dropFirst(try args.count())))
        },
        .string("dropLast", [noArguments, [arg("k", .int).nonNegative()]], "all but the last (n) characters",
                example: #"print("abc".dropLast(2))"#) { s, args in
            .string(String(s.dropLast(try args.count())))
        },

        // Changing the string where it lives: called on a var.
        .changingString("append", [[arg("other", .string)]], "adds text at the end",
                        example: "var s = \"flo\"\ns.append(\"w\")\nprint(s)") { string, args in
            let added = try args.string(0)
            try MemoryBudget.checkString(bytes: string.utf8.count + added.utf8.count, "appending to a string")
            string += added
            return .null
        },
        .changingString("removeAll", [noArguments], "empties the string", example: "var s = \"abc\"\ns.removeAll()\nprint(s.isEmpty)") { string, args in
            try args.expect(0)
            string = ""
            return .null
        },
        .changingString("removeFirst", [noArguments], "removes and returns the first character",
                        example: "var s = \"abc\"\nprint(s.removeFirst())\nprint(s)") { string, args in
            try args.expect(0)
            guard !string.isEmpty else { throw FlowError("cannot remove the first character of an empty string") }
            return .string(String(string.removeFirst()))
        },
        .changingString("removeLast", [noArguments], "removes and returns the last character",
                        example: "var s = \"abc\"\nprint(s.removeLast())\nprint(s)") { string, args in
            try args.expect(0)
            guard !string.isEmpty else { throw FlowError("cannot remove the last character of an empty string") }
            return .string(String(string.removeLast()))
        },
    ]
}

extension String {
    public func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    func replacing(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return components(separatedByString: target).joined(separator: replacement)
    }

    func components(separatedByString separator: String) -> [String] {
        split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }
}
