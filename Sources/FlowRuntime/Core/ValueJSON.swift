import Collections
import FlowRuntime

/// JSON to values and back (RFC 8259). Objects keep their key order.
public enum JSON {
    public static func parse(_ text: String) throws -> Value {
        var parser = Reader(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.atEnd else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    public static func string(_ value: Value) throws -> String {
        // Counted as it prints, a bound on its JSON: strings are quoted in both.
        try MemoryBudget.checkPrinting(value, "writing JSON with json.string")
        var out = ""
        try write(value, to: &out, depth: 0)
        return out
    }

    static let maximumDepth = 512

    private static func write(_ value: Value, to out: inout String, depth: Int) throws {
        guard depth < maximumDepth else { throw FlowError("json.string: value nested too deeply") }
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            guard d.isFinite else { throw FlowError("json.string: \(d) has no JSON form") }
            out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .string(let s): out += quoted(s)
        case .array(let items): try writeArray(items, to: &out, depth: depth)
        case .tuple(let t) where t.nominal?.caseName != nil:
            // An enum case as Swift's Codable writes it: its raw value, or
            // `{"loaded": {"_0": "hi"}}` with its associated values.
            let nominal = t.nominal!
            if let raw = nominal.rawValue { return try write(raw, to: &out, depth: depth) }
            let fields = t.elements.indices.map { (t.label(at: $0) ?? "_\($0)", t.elements[$0]) }
            try writeObject([(nominal.caseName!, .dictionary(.init(uniqueKeysWithValues: fields.map { (Value.string($0.0), $0.1) })))],
                            to: &out, depth: depth)
        case .tuple(let t):
            if let labels = t.labels, labels.allSatisfy({ $0 != nil }) {
                try writeObject(zip(labels, t.elements).map { ($0!, $1) }, to: &out, depth: depth)
            } else {
                try writeArray(t.elements, to: &out, depth: depth)
            }
        case .dictionary(let d):
            let pairs = try d.map { key, value -> (String, Value) in
                guard case .string(let k) = key else { throw FlowError("json.string: object keys must be strings, not \(key.typeName) \(key.literal)") }
                return (k, value)
            }
            try writeObject(pairs, to: &out, depth: depth)
        case .object(let o):
            // As Codable writes a class: its stored properties, by name.
            try writeObject(Array(zip(o.objectClass.fieldNames, o.fields)), to: &out, depth: depth)
        case .duration, .function, .stream, .event:
            throw FlowError("json.string: a \(value.typeName) has no JSON form")
        }
    }

    private static func writeArray(_ items: [Value], to out: inout String, depth: Int) throws {
        out += "["
        for (i, item) in items.enumerated() {
            if i > 0 { out += "," }
            try write(item, to: &out, depth: depth + 1)
        }
        out += "]"
    }

    private static func writeObject(_ pairs: [(String, Value)], to out: inout String, depth: Int) throws {
        out += "{"
        for (i, (key, value)) in pairs.enumerated() {
            if i > 0 { out += "," }
            out += quoted(key) + ":"
            try write(value, to: &out, depth: depth + 1)
        }
        out += "}"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A cursor over the bytes, reporting problems with line and column.
    struct Reader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position >= bytes.count }
        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        func error(_ message: String) -> FlowError {
            var line = 1, column = 1
            for b in bytes[..<Swift.min(position, bytes.count)] {
                if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            }
            return FlowError("malformed JSON at line \(line), column \(column): \(message)")
        }

        mutating func skipWhitespace() {
            while let b = peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 }
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth < JSON.maximumDepth else { throw error("nested too deeply") }
            guard let b = peek() else { throw error("expected a value, found the end") }
            switch b {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character '\(Character(UnicodeScalar(b)))'")
            }
        }

        mutating func literal(_ word: String) throws {
            let start = position
            for expected in word.utf8 {
                guard peek() == expected else {
                    position = start
                    throw error("expected '\(word)'")
                }
                position += 1
            }
        }

        mutating func object(depth: Int) throws -> Value {
            position += 1
            var result = OrderedDictionary<Value, Value>()
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { position += 1; return .dictionary(result) }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
                position += 1
                skipWhitespace()
                result[.string(key)] = try value(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { position += 1; continue }
                guard peek() == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                position += 1
                return .dictionary(result)
            }
        }

        mutating func array(depth: Int) throws -> Value {
            position += 1
            var items: [Value] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { position += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { position += 1; continue }
                guard peek() == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                position += 1
                return .array(items)
            }
        }

        mutating func string() throws -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run = []
            }
            while let b = peek() {
                position += 1
                switch b {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard let e = peek() else { throw error("unterminated escape") }
                    position += 1
                    switch e {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                    default: throw error("invalid escape '\\\(Character(UnicodeScalar(e)))'")
                    }
                default:
                    guard b >= 0x20 else { throw error("control character in a string") }
                    run.append(b)
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("expected four hexadecimal digits after \\u")
            }
            position += 4
            return v
        }

        mutating func unicodeEscape() throws -> Unicode.Scalar {
            let first = try hex4()
            if (0xD800...0xDBFF).contains(first) {
                guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate in \\u escape")
                }
                position += 2
                let second = try hex4()
                guard (0xDC00...0xDFFF).contains(second) else { throw error("invalid surrogate pair") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate in \\u escape") }
            return scalar
        }

        mutating func number() throws -> Value {
            let start = position
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("expected a digit") }
            if first == UInt8(ascii: "0") { position += 1 } else { digits() }
            var isInteger = true
            if peek() == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                guard let d = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) else { throw error("expected a digit after '.'") }
                digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                isInteger = false
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard let d = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) else { throw error("expected a digit in the exponent") }
                digits()
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if isInteger, let i = Int(text) { return .int(i) }
            guard let d = Double(text), d.isFinite else { throw error("number out of range") }
            return .double(d)
        }

        mutating func digits() {
            while let d = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) { position += 1 }
        }
    }
}
