import FlowRuntime

/// Every method of the language's values, in one list, by name: what the
/// compiler checks a call against, `flow doc` shows and the REPL completes.
/// A call site looks its name up once (`group(named:)`), and the group
/// picks the receiver's method when the call runs.
enum ValueMethods {
    static let all: [ValueMethod] =
        ValueMethod.arrayMethods + ValueMethod.stringMethods + ValueMethod.stringSplitting + ValueMethod.dictionaryMethods + ValueMethod.boolMethods
        + ValueMethod.subscriptionMethods + ValueMethod.optionalMethods + ValueMethod.dateMethods + ValueMethod.dateFormatterMethods
        + ValueMethod.notificationCenterMethods + ValueMethod.urlLoadingMethods + ValueMethod.numberMethods

    /// The methods of one name, on every receiver that has it.
    struct Group: Sendable {
        let name: String
        let methods: [ValueMethod]
        /// Each form once, in the order the receivers list them.
        let forms: [[Parameter]]
        /// The methods of one name either all read their receiver or all
        /// change it (a test holds the list to it).
        let changesReceiver: Bool
        private let reading: [ValueMethod.Receiver: ValueMethod.Reading]
        private let changing: [ValueMethod.Receiver: ValueMethod.Changing]

        init(name: String, methods: [ValueMethod]) {
            self.name = name
            self.methods = methods
            var forms: [[Parameter]] = []
            for form in methods.flatMap(\.forms) where !forms.contains(where: { $0.map(\.description) == form.map(\.description) }) {
                forms.append(form)
            }
            self.forms = forms
            changesReceiver = methods.contains(where: \.changesReceiver)
            var reading: [ValueMethod.Receiver: ValueMethod.Reading] = [:]
            var changing: [ValueMethod.Receiver: ValueMethod.Changing] = [:]
            for method in methods {
                switch method.body {
                case .reading(let body): reading[method.receiver] = body
                case .changing(let body): changing[method.receiver] = body
                }
            }
            self.reading = reading
            self.changing = changing
        }

        /// The labels a call has once bound (a trailing closure takes its
        /// parameter's label), or nil if no form fits.
        func bind(labels: [String?], values: [Value?], trailingClosure: Bool) -> [String?]? {
            // Swift gives a trailing closure to the last parameter, labelled or
            // not; a form with a closure parameter comes first (`contains { }`
            // is `contains(where:)`, not `contains(_ element:)`).
            if trailingClosure {
                for parameters in forms {
                    guard let last = parameters.last, last.type == .function else { continue }
                    let relabelled = Array(labels.dropLast()) + [last.label]
                    if Signature.bind(parameters, labels: relabelled, values: values) != nil { return relabelled }
                }
            }
            for parameters in forms where Signature.bind(parameters, labels: labels, values: values) != nil {
                return labels
            }
            return nil
        }

        /// `sorted() or sorted(by: Closure)`, for messages.
        var formsDescription: String {
            let property = methods.contains(where: \.isProperty)
            return forms.map { $0.isEmpty && property ? name : "\(name)(\($0.map(\.description).joined(separator: ", ")))" }
                .joined(separator: " or ")
        }

        /// Calls the receiver's method: its own, else, for a string, a
        /// dictionary or a tuple, Array's on its characters, entries or
        /// elements.
        func call(on receiver: Value, labels: [String?], arguments: [Value], random: RandomSource? = nil) throws -> Value {
            let args = MethodArguments(name: name, labels: labels, values: arguments, random: random)
            // A method's closure may call the method again (recursion without
            // a direct call): stop it here as at a direct call.
            guard StackSpace.hasRoom() else { throw StackSpace.recursionTooDeep }
            switch receiver {
            case .array:
                if let body = reading[.array] { return try body(receiver, args) }
            // An Int has Double's methods too where it has none of its own
            // (an integer whose type is not written may be Swift's Double
            // literal); a number is also an optional's value.
            case .int:
                if let body = reading[.int] ?? reading[.double] ?? reading[.optional] { return try body(receiver, args) }
            case .double:
                if let body = reading[.double] ?? reading[.optional] { return try body(receiver, args) }
            case .tuple(let t) where t.nominal === DateValue.nominal:
                if let body = reading[.date] { return try body(receiver, args) }
            case .object(let o) where o.objectClass === DateFormatterValue.objectClass || o.objectClass === ISO8601FormatterValue.objectClass:
                let own: ValueMethod.Receiver = o.objectClass === DateFormatterValue.objectClass ? .dateFormatter : .iso8601DateFormatter
                if let body = reading[own] { return try body(receiver, args) }
                throw FlowError("\(own.rawValue) has no method '\(name)'; it has string(from:) and date(from:)")
            case .tuple(let t) where t.nominal === TimeZoneValue.nominal:
                if let body = reading[.timeZone] { return try body(receiver, args) }
                throw FlowError("TimeZone has no method '\(name)'; it has identifier, secondsFromGMT(for:) and abbreviation(for:)")
            case .tuple(let t) where t.nominal === URLValue.nominal || t.nominal === URLRequestValue.nominal || t.nominal === HTTPURLResponseValue.nominal:
                let own: ValueMethod.Receiver = t.nominal === URLValue.nominal ? .url : t.nominal === URLRequestValue.nominal ? .urlRequest : .httpURLResponse
                if let body = reading[own] { return try body(receiver, args) }
                throw FlowError("\(own.rawValue) has no method '\(name)'")
            case .tuple(let t):
                if let body = reading[.array] { return try body(.array(t.elements), args) }
            case .string(let s):
                if let body = reading[.string] { return try body(receiver, args) }
                if let body = reading[.array] { return try body(.array(try s.characterValues("reading a string as an array of its characters")), args) }
            case .dictionary(let d):
                if let body = reading[.dictionary] { return try body(receiver, args) }
                if let body = reading[.array] {
                    return try body(.array(d.map { Value.tuple(Tuple([$0.key, $0.value], labels: ["key", "value"])) }), args)
                }
            case .function(let f as NotificationCenterValue):
                if let body = reading[.notificationCenter] { return try body(receiver, args) }
                throw FlowError("\(f.name) has no method '\(name)'; it has addObserver, removeObserver, post and publisher(for:)")
            case .function(let f) where f.subscription != nil || f is DisposeBagValue:
                if let body = reading[.subscription] { return try body(receiver, args) }
                throw FlowError("\(f.name) has no method '\(name)'; it has cancel(), dispose(), store(in:) and disposed(by:)")
            default:
                if let body = reading[.optional] { return try body(receiver, args) }
            }
            throw FlowError("\(receiver.typeName) \(receiver.literal) has no method '\(name)'")
        }

        /// Changes `value` in place with its receiver's method; what the
        /// method returns.
        func apply(to value: inout Value, labels: [String?], arguments: [Value]) throws -> Value {
            let receiver: ValueMethod.Receiver? = switch value {
            case .array: .array
            case .string: .string
            case .dictionary: .dictionary
            case .bool: .bool
            case .tuple(let t) where t.nominal === URLRequestValue.nominal: .urlRequest
            default: nil
            }
            guard let receiver, let body = changing[receiver] else {
                throw FlowError("\(value.typeName) \(value.literal) has no mutating method \(name)(\(labels.map { "\($0 ?? "_"):" }.joined()))")
            }
            return try body(&value, MethodArguments(name: name, labels: labels, values: arguments))
        }
    }

    static let groups: [String: Group] = Dictionary(grouping: all, by: \.name).mapValues { Group(name: $0[0].name, methods: $0) }

    static func group(named name: String) -> Group? { groups[name] }

    /// The names of the methods that read their receiver.
    static let readingNames = Set(groups.values.filter { !$0.changesReceiver }.map(\.name))
    /// The names of the methods that change their receiver where it lives.
    static let changingNames = Set(groups.values.filter(\.changesReceiver).map(\.name))

    /// The names of a built-in type's methods (`String`: its own and
    /// Array's, which it has on its characters), for an extension of it.
    static func names(of type: String) -> Set<String> {
        let receivers: Set<ValueMethod.Receiver> = switch type {
        case "Array": [.array]
        case "String": [.string, .array]
        case "Dictionary": [.dictionary, .array]
        case "Bool": [.bool]
        case "Int": [.int]
        case "Double": [.double]
        case "Date": [.date]
        case "DateFormatter": [.dateFormatter]
        case "ISO8601DateFormatter": [.iso8601DateFormatter]
        case "TimeZone": [.timeZone]
        case "NotificationCenter": [.notificationCenter]
        case "URL": [.url]
        case "URLRequest": [.urlRequest]
        case "HTTPURLResponse": [.httpURLResponse]
        default: []
        }
        return Set(all.filter { receivers.contains($0.receiver) }.map(\.name))
    }

    /// The methods read as properties (`a.count`, `s.first`, `d.keys`), by
    /// name: a member access of one of these names finds its group here.
    static func property(named name: String) -> Group? {
        ValueMethod.properties.contains(name) ? groups[name] : nil
    }

    /// A receiver a method was not written for: the table sends each
    /// method only its own, so this is the language's own mistake.
    static func notMine(_ name: String, _ receiver: Value) -> FlowError {
        FlowError("\(receiver.typeName) \(receiver.literal) has no method '\(name)'")
    }

    /// A sort whose comparison may throw.
    static func sort(_ a: [Value], by less: (Value, Value) throws -> Bool) throws -> [Value] {
        var failure: Error?
        let sorted = a.sorted { x, y in
            guard failure == nil else { return false }
            do { return try less(x, y) } catch { failure = error; return false }
        }
        if let failure { throw failure }
        return sorted
    }

    /// A receiver group's methods, for `flow doc Array` (and `String`,
    /// `Dictionary`, `Bool`): each form, what it does, its example.
    static func text(for receiver: ValueMethod.Receiver) -> String {
        let methods = all.filter { $0.receiver == receiver }
        var lines = ["\(receiver.rawValue)'s methods" + (receiver == .string ? " (and Array's, on its characters)"
            : receiver == .dictionary ? " (and Array's, on its (key, value) entries)" : "") + ":"]
        for method in methods {
            lines.append("  " + method.formsDescription + " — " + method.summary + (method.changesReceiver ? " (on a var)" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// One method, on each receiver that has it, with its example and what
    /// the example prints (`run` runs it).
    static func text(for group: Group, run: (String) -> String) -> String {
        var lines: [String] = []
        for method in group.methods {
            lines.append(method.formsDescription + " — " + method.summary + " (\(method.receiver.rawValue)"
                + (method.changesReceiver ? ", on a var" : "") + ")")
        }
        for method in group.methods {
            lines.append("")
            lines += method.example.split(separator: "\n").map { "  " + $0 }
            lines += run(method.example).split(separator: "\n", omittingEmptySubsequences: false).map { "  → " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
