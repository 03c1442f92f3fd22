import Collections
import FlowRuntime

/// A method of the language's own values, as Swift writes it: `[3, 1].sorted()`,
/// `"ab".uppercased()`, `list.append(x)`, `bag.dispose()`. Each is a spec in
/// its receiver's file (`ArrayMethods.swift`, …), registered in
/// `valueMethods`: its forms (checked before the script runs), what it does,
/// an example `flow doc` runs, and whether it reads its receiver or changes
/// it where it lives (then it is called on a `var`).
///
/// The same name on a stream is the stream operator; these run on values
/// at once.
struct ValueMethod: Sendable {
    /// The receivers with methods of their own. A string without a method
    /// of its own is read as an array of its characters, a dictionary as an
    /// array of its `(key, value)` entries, a tuple as an array of its
    /// elements.
    enum Receiver: String, CaseIterable, Sendable {
        case array = "Array", string = "String", dictionary = "Dictionary", bool = "Bool", optional = "Optional"
        case int = "Int", double = "Double"
        case subscription = "AnyCancellable and DisposeBag"
        case date = "Date"
        case dateFormatter = "DateFormatter", iso8601DateFormatter = "ISO8601DateFormatter", timeZone = "TimeZone"
        case notificationCenter = "NotificationCenter"
        case url = "URL", urlRequest = "URLRequest", httpURLResponse = "HTTPURLResponse"
    }

    typealias Reading = @Sendable (Value, MethodArguments) throws -> Value
    /// Changes the receiver in place and returns what the method returns.
    typealias Changing = @Sendable (inout Value, MethodArguments) throws -> Value

    enum Body: Sendable {
        case reading(Reading)
        case changing(Changing)
    }

    let name: String
    let receiver: Receiver
    /// Each form's parameters; a trailing closure takes the last one's label.
    let forms: [[Parameter]]
    let summary: String
    /// A line or two of script whose `print`s show what the method does.
    let example: String
    let body: Body

    var changesReceiver: Bool { if case .changing = body { true } else { false } }

    /// Read as a property in Swift (`a.count`, `d.keys`): written so.
    var isProperty: Bool { Self.properties.contains(name) && receiver != .subscription }
    static let properties: Set<String> = [
        "count", "isEmpty", "first", "last", "keys", "values", "capitalized",
        "magnitude", "sign", "isNaN", "isFinite", "isInfinite", "isZero", "description",
    ]

    /// `sorted() or sorted(by: Closure)`, for messages and docs.
    var formsDescription: String {
        forms.map { $0.isEmpty && isProperty ? name : "\(name)(\($0.map(\.description).joined(separator: ", ")))" }.joined(separator: " or ")
    }
}

/// A call's evaluated arguments, with clear errors.
struct MethodArguments {
    let name: String
    let labels: [String?]
    let values: [Value]
    /// How a value prints where the call is (a type's `description`).
    var describe: ((Value) throws -> String)? = nil
    /// The run's random numbers (`randomElement()`, `shuffled()`).
    var random: RandomSource? = nil

    var randomDraws: RandomDraws { RandomDraws(source: random) }

    func text(of value: Value) throws -> String { try describe?(value) ?? value.description }

    func expect(_ count: Int, labels wanted: [String?]? = nil) throws {
        guard values.count == count, wanted == nil || labels == wanted! else {
            let shown = (wanted ?? Array(repeating: nil, count: count)).map { $0.map { "\($0): " } ?? "_" }
            throw FlowError("\(name) takes (\(shown.joined(separator: ", "))), got \(values.count) argument\(values.count == 1 ? "" : "s")")
        }
    }

    func function(_ i: Int) throws -> Function { try values[i].asFunction() }
    func string(_ i: Int) throws -> String { try values[i].asString() }

    /// The count of `prefix`, `suffix`, `dropFirst` and `dropLast` (one when
    /// not given): a negative one is an error, where Swift would trap.
    func count() throws -> Int {
        guard let given = values.first else { return 1 }
        let n = try given.asInt()
        if n < 0 { throw FlowError("\(name) takes a count of 0 or more, not \(n)") }
        return n
    }

    /// `by:` is Swift's areInIncreasingOrder; without it, the values' order.
    func ordering() throws -> (Value, Value) throws -> Bool {
        if labels == ["by"] {
            let f = try function(0)
            return { try f.call($0, $1).asBool() }
        }
        try expect(0)
        return { try $0.compare(to: $1) < 0 }
    }
}

extension ValueMethod {
    /// A method that reads an array (and, through it, a string's
    /// characters, a dictionary's entries or a tuple's elements).
    static func array(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                      _ body: @escaping @Sendable ([Value], MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .array, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            try body(try receiver.asArray(), args)
        })
    }

    static func string(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                       _ body: @escaping @Sendable (String, MethodArguments) throws -> Value) -> ValueMethod {
        ValueMethod(name: name, receiver: .string, forms: forms, summary: summary, example: example, body: .reading { receiver, args in
            try body(try receiver.asString(), args)
        })
    }

    /// A method that changes an array where it lives.
    static func changingArray(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                              _ body: @escaping @Sendable (inout [Value], MethodArguments) throws -> Value) -> ValueMethod {
        changing(name, .array, forms, summary, example: example, take: { if case .array(let a) = $0 { a } else { nil } }, put: Value.array, body)
    }

    static func changingString(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                               _ body: @escaping @Sendable (inout String, MethodArguments) throws -> Value) -> ValueMethod {
        changing(name, .string, forms, summary, example: example, take: { if case .string(let s) = $0 { s } else { nil } }, put: Value.string, body)
    }

    static func changingDictionary(_ name: String, _ forms: [[Parameter]], _ summary: String, example: String,
                                   _ body: @escaping @Sendable (inout OrderedDictionary<Value, Value>, MethodArguments) throws -> Value) -> ValueMethod {
        changing(name, .dictionary, forms, summary, example: example, take: { if case .dictionary(let d) = $0 { d } else { nil } },
                 put: Value.dictionary, body)
    }

    /// The collection is taken out of the value (left nil) before it
    /// changes, so that it is referenced once and copy on write does not
    /// copy it. (Taking it then clearing the value does this; a `switch`
    /// over the value would keep a second reference while it lasts.)
    private static func changing<Collection>(
        _ name: String, _ receiver: Receiver, _ forms: [[Parameter]], _ summary: String, example: String,
        take: @escaping @Sendable (Value) -> Collection?, put: @escaping @Sendable (Collection) -> Value,
        _ body: @escaping @Sendable (inout Collection, MethodArguments) throws -> Value
    ) -> ValueMethod {
        ValueMethod(name: name, receiver: receiver, forms: forms, summary: summary, example: example, body: .changing { value, args in
            guard var collection = take(value) else { throw ValueMethods.notMine(name, value) }
            value = .null
            defer { value = put(collection) }
            return try body(&collection, args)
        })
    }
}

/// Parameters the methods' forms are written with.
let noArguments: [Parameter] = []
func closureArg(_ label: String? = nil) -> Parameter { label.map { labelled($0, .function) } ?? arg("transform", .function) }
