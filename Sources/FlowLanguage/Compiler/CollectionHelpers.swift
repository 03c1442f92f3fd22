import Collections
import FlowRuntime

/// The helpers arrays, strings and dictionaries have in scripts. The same
/// name on a stream is the stream operator; these run on values at once.
enum CollectionHelpers {
    /// Each helper's forms, as Swift writes them, so a call is checked
    /// before the script runs (arity, labels, a trailing closure given to a
    /// labelled closure parameter: `sorted { }` is `sorted(by:)`).
    static let forms: [String: [[Parameter]]] = {
        let closure = { (label: String?) in label.map { labelled($0, .function) } ?? arg("transform", .function) }
        let none: [Parameter] = []
        var forms: [String: [[Parameter]]] = [
            "map": [[closure(nil)]], "compactMap": [[closure(nil)]], "flatMap": [[closure(nil)]], "filter": [[closure(nil)]],
            "allSatisfy": [[closure(nil)]], "mapValues": [[closure(nil)]],
            "reduce": [[arg("initial", .value), closure(nil)], [labelled("into", .value), closure(nil)]],
            "contains": [[arg("element", .value)], [closure("where")]],
            "count": [none, [closure("where")]],
            "first": [none, [closure("where")]], "last": [none, [closure("where")]],
            "firstIndex": [[labelled("of", .value)], [closure("where")]],
            "sorted": [none, [closure("by")]], "min": [none, [closure("by")]], "max": [none, [closure("by")]],
            "joined": [none, [labelled("separator", .string)]],
            "split": [none, [arg("separator", .string)], [labelled("separator", .string)]],
            "prefix": [[arg("maxLength", .int)]], "suffix": [[arg("maxLength", .int)]],
            "dropFirst": [none, [arg("k", .int)]], "dropLast": [none, [arg("k", .int)]],
            "appending": [[arg("element", .value)]],
            "hasPrefix": [[arg("prefix", .string)]], "hasSuffix": [[arg("suffix", .string)]],
            "replacingOccurrences": [[labelled("of", .string), labelled("with", .string)]],
            "store": [[labelled("in", .value)]], "disposed": [[labelled("by", .value)]],
        ]
        for name in ["reversed", "uppercased", "lowercased", "trimmed", "enumerated", "sum", "isEmpty", "keys", "values", "cancel", "dispose"] {
            forms[name] = [none]
        }
        return forms
    }()

    static let names = Set(forms.keys)

    /// The labels a call of helper `name` has once bound (a trailing
    /// closure takes its parameter's label), or nil if no form fits.
    static func bind(_ name: String, labels: [String?], values: [Value?], trailingClosure: Bool) -> [String?]? {
        // Swift gives a trailing closure to the last parameter, labelled or
        // not; a form with a closure parameter comes first (`contains { }`
        // is `contains(where:)`, not `contains(_ element:)`).
        if trailingClosure {
            for parameters in forms[name] ?? [] {
                guard let last = parameters.last, last.type == .function else { continue }
                let relabelled = Array(labels.dropLast()) + [last.label]
                if Signature.bind(parameters, labels: relabelled, values: values) != nil { return relabelled }
            }
        }
        for parameters in forms[name] ?? [] where Signature.bind(parameters, labels: labels, values: values) != nil {
            return labels
        }
        return nil
    }

    /// `sorted() or sorted(by: Closure)`, for messages.
    static func describe(_ name: String) -> String {
        (forms[name] ?? []).map { "\(name)(\($0.map(\.description).joined(separator: ", ")))" }.joined(separator: " or ")
    }

    static func call(_ name: String, on receiver: Value, labels: [String?], arguments: [Value]) throws -> Value {
        let args = Args(name: name, labels: labels, values: arguments)
        // A helper's closure may call the helper again (recursion without a
        // direct call): stop it here as at a direct call.
        guard StackSpace.hasRoom() else { throw StackSpace.recursionTooDeep }
        switch receiver {
        case .array(let a): return try array(name, a, args)
        case .tuple(let t): return try array(name, t.elements, args)
        case .string(let s): return try string(name, s, args)
        case .dictionary(let d): return try dictionary(name, d, args)
        case .function(let f) where f is ScriptSubscriber || f is DisposeBagValue: return try subscription(name, f, args)
        default:
            throw FlowError("\(receiver.typeName) \(receiver.literal) has no method '\(name)'")
        }
    }

    /// CallArgument access with clear errors.
    struct Args {
        let name: String
        let labels: [String?]
        let values: [Value]

        func expect(_ count: Int, labels wanted: [String?]? = nil) throws {
            guard values.count == count, wanted == nil || labels == wanted! else {
                let shown = (wanted ?? Array(repeating: nil, count: count)).map { $0.map { "\($0): " } ?? "_" }
                throw FlowError("\(name) takes (\(shown.joined(separator: ", "))), got \(values.count) argument\(values.count == 1 ? "" : "s")")
            }
        }

        func function(_ i: Int) throws -> Function { try values[i].asFunction() }
    }

    /// The count of `prefix`, `suffix`, `dropFirst` and `dropLast` (one when
    /// not given): a negative one is an error, where Swift would trap.
    private static func count(_ name: String, _ args: Args) throws -> Int {
        guard let given = args.values.first else { return 1 }
        let n = try given.asInt()
        if n < 0 { throw FlowError("\(name) takes a count of 0 or more, not \(n)") }
        return n
    }

    private static func array(_ name: String, _ a: [Value], _ args: Args) throws -> Value {
        switch name {
        case "count":
            if args.labels == ["where"] { let f = try args.function(0); return .int(try a.reduce(0) { try f.test($1) ? $0 + 1 : $0 }) }
            try args.expect(0); return .int(a.count)
        case "isEmpty": try args.expect(0); return .bool(a.isEmpty)
        case "map": try args.expect(1); let f = try args.function(0); return .array(try a.map { try f.call($0) })
        case "compactMap":
            try args.expect(1); let f = try args.function(0)
            return .array(try a.compactMap { element -> Value? in let v = try f.call(element); return v.isNull ? .none : v })
        case "flatMap":
            try args.expect(1); let f = try args.function(0)
            return .array(try a.flatMap { try f.call($0).asArray() })
        case "filter": try args.expect(1); let f = try args.function(0); return .array(try a.filter { try f.test($0) })
        case "reduce":
            try args.expect(2); let f = try args.function(1)
            if args.labels.first == "into" {
                var state = args.values[0]
                for element in a { try f.update(&state, with: element) }
                return state
            }
            return try a.reduce(args.values[0]) { try f.call($0, $1) }
        case "contains":
            if args.labels == ["where"] { let f = try args.function(0); return .bool(try a.contains { try f.test($0) }) }
            try args.expect(1); return .bool(a.contains(args.values[0]))
        case "allSatisfy": try args.expect(1); let f = try args.function(0); return .bool(try a.allSatisfy { try f.test($0) })
        case "first":
            if args.values.isEmpty { return a.first ?? .null }
            try args.expect(1, labels: ["where"]); let f = try args.function(0)
            return try a.first { try f.test($0) } ?? .null
        case "last":
            if args.labels == ["where"] { let f = try args.function(0); return try a.last { try f.test($0) } ?? .null }
            try args.expect(0); return a.last ?? .null
        case "firstIndex":
            if args.labels == ["where"] { let f = try args.function(0); return try a.firstIndex { try f.test($0) }.map(Value.int) ?? .null }
            try args.expect(1, labels: ["of"]); return a.firstIndex(of: args.values[0]).map(Value.int) ?? .null
        case "sorted":
            if args.values.isEmpty { return .array(try sort(a) { try $0.compare(to: $1) < 0 }) }
            try args.expect(1, labels: ["by"]); let f = try args.function(0)
            return .array(try sort(a) { try f.call($0, $1).asBool() })
        case "reversed": try args.expect(0); return .array(a.reversed())
        case "min", "max":
            // `by:` is Swift's areInIncreasingOrder.
            let less: (Value, Value) throws -> Bool
            if args.labels == ["by"] {
                let f = try args.function(0)
                less = { try f.call($0, $1).asBool() }
            } else {
                try args.expect(0)
                less = { try $0.compare(to: $1) < 0 }
            }
            var best: Value?
            for v in a {
                if let current = best, try name == "min" ? !less(v, current) : !less(current, v) { continue }
                best = v
            }
            return best ?? .null
        case "sum": try args.expect(0); return try a.reduce(.int(0)) { try Value.add($0, $1) }
        case "joined":
            if args.values.isEmpty { return .string(a.map(\.description).joined()) }
            try args.expect(1, labels: ["separator"])
            return .string(a.map(\.description).joined(separator: try args.values[0].asString()))
        case "prefix": try args.expect(1); return .array(Array(a.prefix(try count(name, args))))
        case "suffix": try args.expect(1); return .array(Array(a.suffix(try count(name, args))))
        case "dropFirst": return .array(Array(a.dropFirst(try count(name, args))))
        case "dropLast": return .array(Array(a.dropLast(try count(name, args))))
        case "enumerated":
            try args.expect(0)
            return .array(a.enumerated().map { .tuple(Tuple([.int($0.offset), $0.element], labels: ["offset", "element"])) })
        case "appending": try args.expect(1); return .array(a + [args.values[0]])
        default: throw FlowError("Array has no method '\(name)'")
        }
    }

    /// A subscription's and a dispose bag's methods.
    private static func subscription(_ name: String, _ f: Function, _ args: Args) throws -> Value {
        switch name {
        case "cancel", "dispose":
            try args.expect(0)
            return try f.call([])
        case "disposed":
            try args.expect(1, labels: ["by"])
            guard case .function(let target) = args.values[0], let bag = target as? DisposeBagValue,
                  let subscription = f as? ScriptSubscriber else {
                throw FlowError("disposed(by:) puts a subscription in a DisposeBag(), got \(args.values[0].typeName) \(args.values[0].literal)")
            }
            bag.insert(subscription)
            return .null
        case "store":
            try args.expect(1, labels: ["in"])
            if case .function(let target) = args.values[0], let bag = target as? DisposeBagValue, let subscription = f as? ScriptSubscriber {
                bag.insert(subscription)
            }
            return .null
        default:
            throw FlowError("\(f.name) has no method '\(name)'; it has cancel(), dispose(), store(in:) and disposed(by:)")
        }
    }

    /// A sort whose comparison may throw.
    private static func sort(_ a: [Value], by less: (Value, Value) throws -> Bool) throws -> [Value] {
        var failure: Error?
        let sorted = a.sorted { x, y in
            guard failure == nil else { return false }
            do { return try less(x, y) } catch { failure = error; return false }
        }
        if let failure { throw failure }
        return sorted
    }

    private static func string(_ name: String, _ s: String, _ args: Args) throws -> Value {
        func text(_ i: Int) throws -> String { try args.values[i].asString() }
        switch name {
        case "count": try args.expect(0); return .int(s.count)
        case "isEmpty": try args.expect(0); return .bool(s.isEmpty)
        case "uppercased": try args.expect(0); return .string(s.uppercased())
        case "lowercased": try args.expect(0); return .string(s.lowercased())
        case "trimmed": try args.expect(0); return .string(s.trimmingWhitespace())
        case "hasPrefix": try args.expect(1); return .bool(s.hasPrefix(try text(0)))
        case "hasSuffix": try args.expect(1); return .bool(s.hasSuffix(try text(0)))
        case "contains": try args.expect(1); return .bool(try s.contains(text(0)))
        case "split":
            let separator = args.values.isEmpty ? " " : try text(0)
            guard !separator.isEmpty else { throw FlowError("split needs a non-empty separator") }
            return .array(s.split(separator: separator, omittingEmptySubsequences: args.values.isEmpty).map { .string(String($0)) })
        case "replacingOccurrences":
            try args.expect(2, labels: ["of", "with"])
            return .string(s.replacing(try text(0), with: try text(1)))
        case "reversed": try args.expect(0); return .string(String(s.reversed()))
        case "first": try args.expect(0); return s.first.map { .string(String($0)) } ?? .null
        case "last": try args.expect(0); return s.last.map { .string(String($0)) } ?? .null
        case "prefix": try args.expect(1); return .string(String(s.prefix(try count(name, args))))
        case "suffix": try args.expect(1); return .string(String(s.suffix(try count(name, args))))
        case "dropFirst": return .string(String(s.dropFirst(try count(name, args))))
        case "dropLast": return .string(String(s.dropLast(try count(name, args))))
        default:
            // The rest treat the string as an array of one-character strings.
            return try array(name, s.map { .string(String($0)) }, args)
        }
    }

    private static func dictionary(_ name: String, _ d: OrderedDictionary<Value, Value>, _ args: Args) throws -> Value {
        switch name {
        case "count": try args.expect(0); return .int(d.count)
        case "isEmpty": try args.expect(0); return .bool(d.isEmpty)
        case "keys": try args.expect(0); return .array(Array(d.keys))
        case "values": try args.expect(0); return .array(Array(d.values))
        case "mapValues":
            try args.expect(1); let f = try args.function(0)
            var out = OrderedDictionary<Value, Value>()
            for (k, v) in d { out[k] = try f.call(v) }
            return .dictionary(out)
        case "contains":
            if args.labels == ["where"] {
                let f = try args.function(0)
                return .bool(try d.contains { try f.test(.tuple(Tuple([$0.key, $0.value], labels: ["key", "value"]))) })
            }
            try args.expect(1); return .bool(d[args.values[0]] != nil)
        default:
            let entries = d.map { Value.tuple(Tuple([$0.key, $0.value], labels: ["key", "value"])) }
            return try array(name, entries, args)
        }
    }
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

extension Value {
    var isStream: Bool { if case .stream = self { true } else { false } }

    /// `a[i]`, `d["k"]` (nil when missing), `s[i]`, `t[i]`.
    func subscripted(by key: Value) throws -> Value {
        switch self {
        case .array(let a):
            let i = try key.asInt()
            guard a.indices.contains(i) else { throw FlowError("index \(i) out of range for an array of \(a.count) element\(a.count == 1 ? "" : "s")") }
            return a[i]
        case .tuple(let t):
            let i = try key.asInt()
            guard t.elements.indices.contains(i) else { throw FlowError("index \(i) out of range for a tuple of \(t.elements.count)") }
            return t.elements[i]
        case .string(let s):
            let i = try key.asInt()
            guard i >= 0, i < s.count else { throw FlowError("index \(i) out of range for a string of \(s.count) characters") }
            return .string(String(s[s.index(s.startIndex, offsetBy: i)]))
        case .dictionary(let d):
            return d[key] ?? .null
        default:
            throw FlowError("\(typeName) \(literal) cannot be subscripted")
        }
    }
}
