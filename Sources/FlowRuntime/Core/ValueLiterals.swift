import Collections

/// Swift literals as values, for code that uses the runtime directly:
/// `.just(1)`, `["a": 1]`, `[1, "x", nil]`.
extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByDictionaryLiteral
{
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    public init(dictionaryLiteral elements: (Value, Value)...) {
        var dictionary = OrderedDictionary<Value, Value>()
        for (k, v) in elements { dictionary[k] = v }
        self = .dictionary(dictionary)
    }
}
