import FlowRuntime

/// Foundation's `Data`, as far as scripts use it: the bytes of a text on
/// their way to or from a JSON coder (`Data(json.utf8)`,
/// `json.data(using: .utf8)!`, `String(data: data, encoding: .utf8)!`).
/// flow's I/O is text, so a Data value holds its bytes as UTF-8 text; it
/// prints as Swift prints one, `12 bytes`.
enum DataValue {
    static let nominal = Nominal(type: "Data", describe: { tuple in
        guard case .string(let text)? = tuple.elements.first else { return "Data(?)" }
        return "\(text.utf8.count) bytes"
    })

    static func make(_ text: String) -> Value {
        .tuple(Tuple([.string(text)], nominal: nominal))
    }

    /// The text a Data holds; a String stands for its own bytes.
    static func text(of value: Value, for call: String) throws -> String {
        switch value {
        case .tuple(let tuple) where tuple.nominal === nominal:
            if case .string(let text)? = tuple.elements.first { return text }
        case .string(let text): return text
        default: break
        }
        throw FlowError("\(call) takes Data (as in Data(text.utf8)), got \(value.typeName) \(value.literal)")
    }

    /// `Data(text.utf8)`, `Data([104, 105])` or `Data(otherData)`.
    static func from(_ value: Value) throws -> Value {
        if case .array(let items) = value {
            let bytes = try items.map { item -> UInt8 in
                guard case .int(let byte) = item, let small = UInt8(exactly: byte) else {
                    throw FlowError("Data takes bytes, Ints from 0 to 255, got \(item.typeName) \(item.literal)")
                }
                return small
            }
            return make(String(decoding: bytes, as: UTF8.self))
        }
        return make(try text(of: value, for: "Data(_:)"))
    }
}
