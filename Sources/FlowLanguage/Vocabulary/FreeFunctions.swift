import FlowRuntime

/// A free function of the language (`min(a, b)`, `String(describing: x)`,
/// `print(x)`), as a spec: its forms, what it does, an example, and how
/// a call is compiled. The operators' free functions (`just`, `merge`) are
/// in the operator table; these are the language's own.
struct FreeFunction: Sendable {
    enum Body: Sendable {
        /// Computed from the argument values when the call runs.
        case value(@Sendable (MethodArguments) throws -> Value)
        /// Computed from the argument values and the run under way (its
        /// clock, its exit): `Date()`, `exit(3)`.
        case running(@Sendable (MethodArguments, Environment) throws -> Value)
        /// Needs the compiler itself (marble strings checked as written,
        /// lanes registered with the run, what a test expects): compiled by
        /// `BuiltinCompiler`.
        case language

        /// Whether a call is an ordinary function call (its example runs
        /// as written), not one the compiler makes itself.
        var runsAsWritten: Bool { if case .language = self { false } else { true } }
    }

    let name: String
    /// Each form's parameters (any count of values for a variadic one);
    /// empty for a `.language` function, whose compiler checks its call.
    let forms: [[Parameter]]
    let summary: String
    let example: String
    let body: Body
    /// What a call gives, where it is one type whatever the arguments.
    var resultType: StaticType = .unknown

    /// `min(Value, Value...)`, for messages and docs.
    var formsDescription: String {
        forms.map { "\(name)(\($0.map(\.description).joined(separator: ", ")))" }.joined(separator: " or ")
    }
}

enum FreeFunctions {
    static let all: [FreeFunction] = [
        language("print", "writes the values, separated by spaces (separator:) and ended by a line (terminator:)",
                 example: #"print("a", 1, separator: "-")"#),
        language("cold", "a stream that plays a marble from each subscription", example: #"expect(cold("-a|")).toBe("-a|")"#),
        language("hot", "a stream that plays a marble once per run, ^ at frame 0", example: #"expect(hot("-a^-b|")).toBe("-b|")"#),
        language("time", "the duration a marble spans", example: #"print(time("---|"))"#),
        language("expect", "in a test block, compares a stream's events with a marble", example: #"expect(just(1)).toBe("(1|)")"#),
        language("marbles", "draws streams' lanes when the run ends", example: #"marbles(cold("-a|"))"#),
        language("type", "type(of: x): the type of a value, as Swift prints it (Int, Array<Double>, Optional<String>), equal to T.self",
                 example: #"print(type(of: [1.5]), type(of: 5) == Int.self)"#),
        // Where Swift traps, flow stops the run with a located error: nothing
        // a script does traps the process.
        FreeFunction(name: "fatalError", forms: [noArguments, [arg("message", .string)]],
                     summary: "stops the run with an error at the call (Swift traps)",
                     example: #"let check = { (n: Int) in n > 0 ? n : fatalError("not positive") }"#,
                     body: .value { args in throw FlowError("fatal error" + (args.values.first.map { ": \($0.description)" } ?? "")) }),
        FreeFunction(name: "preconditionFailure", forms: [noArguments, [arg("message", .string)]],
                     summary: "stops the run with an error at the call (Swift traps), as fatalError does",
                     example: #"let check = { (n: Int) in n > 0 ? n : preconditionFailure("not positive") }"#,
                     body: .value { args in throw FlowError("precondition failed" + (args.values.first.map { ": \($0.description)" } ?? "")) }),
        FreeFunction(name: "precondition", forms: [[arg("condition", .bool)], [arg("condition", .bool), arg("message", .string)]],
                     summary: "stops the run with an error at the call when the condition is false",
                     example: #"precondition(1 < 2, "order")"#, body: .value { args in try check(args, "precondition failed") }),
        FreeFunction(name: "assert", forms: [[arg("condition", .bool)], [arg("condition", .bool), arg("message", .string)]],
                     summary: "as precondition (flow has no release build that would skip it)",
                     example: #"assert([1].count == 1, "one")"#, body: .value { args in try check(args, "assertion failed") }),
        FreeFunction(name: "min", forms: [[arg("a", .value), arg("b", .value), variadicValues("rest")]], summary: "the least of two or more values",
                     example: "print(min(3, 1, 2))", body: .value { args in try extreme(args, least: true) }),
        FreeFunction(name: "max", forms: [[arg("a", .value), arg("b", .value), variadicValues("rest")]], summary: "the greatest of two or more values",
                     example: "print(max(3, 1, 2))", body: .value { args in try extreme(args, least: false) }),
        FreeFunction(name: "abs", forms: [[arg("x", .value)]], summary: "a number (or a duration) without its sign",
                     example: "print(abs(-3), abs(-1.5))", body: .value { args in try absolute(args.values[0]) }),
        FreeFunction(name: "stride", forms: [[labelled("from", .value), labelled("to", .value), labelled("by", .value)],
                                             [labelled("from", .value), labelled("through", .value), labelled("by", .value)]],
                     summary: "the numbers from a start up to an end (to: without it, through: with it), in steps, as an array",
                     example: "print(stride(from: 0, to: 10, by: 3), stride(from: 1.0, through: 2.0, by: 0.5))",
                     body: .value { args in try stride(args.values[0], args.values[1], args.values[2], through: args.labels[1] == "through") }),
        FreeFunction(name: "String", forms: [[arg("value", .value)], [labelled("describing", .value)], [labelled("reflecting", .value)],
                                             [labelled("data", .value), labelled("encoding", .value)],
                                             [labelled("decoding", .value), labelled("as", .value)],
                                             [labelled("format", .string), variadic("arguments", .value)]],
                     summary: "the value as text, as print shows it (reflecting: as debugPrint shows it, a string quoted); the text a Data holds (data:encoding: gives an optional, as Foundation's); format: printf's conversions as Foundation writes them (%d %x %o %c of an Int, %f %e %g of a Double, %@ of a String, with flags, a width and a precision, and %1$@ numbered)",
                     example: #"print(String(42) + String(describing: [1]) + String(reflecting: "a"), String(decoding: Data("hi".utf8), as: UTF8.self))"#
                        + "\n" + #"print(String(format: "%.2f|%5d|%@|%03x", 2.0 / 3, 42, "ab", 255))"#,
                     body: .value { args in
                         switch args.labels.first ?? nil {
                         case "format": return .string(try StringFormat.format(args))
                         case "data", "decoding": return .string(try DataValue.text(of: args.values[0], for: "String(\(args.labels[0]!):)"))
                         default: return .string(try args.text(of: args.values[0]))
                         }
                     }),
        FreeFunction(name: "Data", forms: [[arg("bytes", .value)]],
                     summary: "Foundation's Data: the bytes of a text (Data(text.utf8)) or of byte values, for JSONDecoder and JSONEncoder; prints as its size",
                     example: #"print(Data("héllo".utf8), String(data: Data([104, 105]), encoding: .utf8)!)"#,
                     body: .value { args in try DataValue.from(args.values[0]) }),
        FreeFunction(name: "Int", forms: [[arg("value", .value)]], summary: "a whole number from a number or a text (nil if the text is none)",
                     example: #"print(Int("42")!, Int(2.9), Int("x") == nil)"#, body: .value { args in try integer(args.values[0]) }),
        FreeFunction(name: "Double", forms: [[arg("value", .value)]], summary: "a number with a fraction, from a number or a text",
                     example: #"print(Double(2), Double("1.5")!)"#, body: .value { args in try double(args.values[0], "Double") }),
        FreeFunction(name: "TimeInterval", forms: [[arg("value", .value)]], summary: "seconds as a Double (Foundation's TimeInterval)",
                     example: "print(TimeInterval(2))", body: .value { args in try double(args.values[0], "TimeInterval") }),
        FreeFunction(name: "Array", forms: [[arg("value", .value)], [labelled("repeating", .value), labelled("count", .int)]],
                     summary: "an array: of a string's characters, or of one value repeated",
                     example: #"print(Array("ab"), Array(repeating: 0, count: 3))"#, body: .value { args in try array(args) }),
    ] + MathFunctions.all + OperationsFunctions.all + URLValue.initialisers

    static let byName: [String: FreeFunction] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    static func named(_ name: String) -> FreeFunction? { byName[name] }

    static let names = Set(byName.keys)

    private static func language(_ name: String, _ summary: String, example: String) -> FreeFunction {
        FreeFunction(name: name, forms: [], summary: summary, example: example, body: .language)
    }

    private static func variadicValues(_ name: String) -> Parameter { variadic(name, .value) }

    private static func check(_ args: MethodArguments, _ failure: String) throws -> Value {
        guard try args.values[0].asBool() else {
            throw FlowError(failure + (args.values.count > 1 ? ": \(args.values[1].description)" : ""))
        }
        return .null
    }

    private static func extreme(_ args: MethodArguments, least: Bool) throws -> Value {
        var best = args.values[0]
        for v in args.values.dropFirst() where try least ? v.compare(to: best) < 0 : v.compare(to: best) > 0 { best = v }
        // Swift's integer literal beside a Double is a Double: min(2.5, 1) is 1.0.
        if case .int(let i) = best, args.values.contains(where: { if case .double = $0 { true } else { false } }) { return .double(Double(i)) }
        return best
    }

    private static func absolute(_ value: Value) throws -> Value {
        switch value {
        case .int(let i) where i != .min: return .int(Swift.abs(i))
        case .int: throw FlowError("integer overflow in abs: abs(Int.min) is larger than Int.max")
        case .double(let d): return .double(Swift.abs(d))
        case .duration(let t) where t.nanoseconds != .min: return .duration(TimeSpan(nanoseconds: Swift.abs(t.nanoseconds)))
        case .duration: throw FlowError("duration overflow in abs")
        default: throw FlowError("abs needs a number, got \(value.typeName) \(value.literal)")
        }
    }

    /// The values of `stride(from:to:by:)`, as an array.
    private static func stride(_ from: Value, _ to: Value, _ by: Value, through: Bool) throws -> Value {
        switch (from, to, by) {
        case (.int(let a), .int(let b), .int(let step)):
            guard step != 0 else { throw FlowError("stride's step cannot be 0") }
            let (distance, overflow) = b.subtractingReportingOverflow(a)
            guard !overflow, distance / step < BinaryOperator.rangeLimit else { throw FlowError("a stride holds at most \(BinaryOperator.rangeLimit) numbers") }
            return .array(through ? Swift.stride(from: a, through: b, by: step).map(Value.int) : Swift.stride(from: a, to: b, by: step).map(Value.int))
        default:
            guard let a = try? from.asDouble(), let b = try? to.asDouble(), let step = try? by.asDouble(), step != 0, step.isFinite else {
                throw FlowError("stride needs numbers and a step other than 0")
            }
            guard Swift.abs((b - a) / step) < Double(BinaryOperator.rangeLimit) else { throw FlowError("a stride holds at most \(BinaryOperator.rangeLimit) numbers") }
            return .array(through ? Swift.stride(from: a, through: b, by: step).map(Value.double) : Swift.stride(from: a, to: b, by: step).map(Value.double))
        }
    }

    private static func integer(_ v: Value) throws -> Value {
        switch v {
        case .string(let s): return Int(s.trimmingWhitespace()).map(Value.int) ?? .null
        case .double(let d):
            guard d.isFinite, Swift.abs(d) < 9.2e18 else { throw FlowError("\(d) does not fit in an Int") }
            return .int(Int(d))
        case .int: return v
        default: throw FlowError("cannot convert \(v.typeName) \(v.literal) to Int")
        }
    }

    private static func double(_ v: Value, _ name: String) throws -> Value {
        switch v {
        case .double: return v
        case .int(let i): return .double(Double(i))
        case .string(let s): return Double(s.trimmingWhitespace()).map(Value.double) ?? .null
        case .duration(let t): return .double(t.seconds)
        default: throw FlowError("cannot convert \(v.typeName) \(v.literal) to \(name)")
        }
    }

    private static func array(_ args: MethodArguments) throws -> Value {
        if args.labels == ["repeating", "count"] {
            let n = try args.values[1].asInt()
            guard n >= 0 else { throw FlowError("Array(repeating:count:) takes a count of 0 or more, not \(n)") }
            try MemoryBudget.checkElements(n, "Array(repeating:count:)")
            return .array(Array(repeating: args.values[0], count: n))
        }
        switch args.values[0] {
        case .array: return args.values[0]
        case .string(let s): return .array(try s.characterValues("making an array of a string's characters"))
        case let v: throw FlowError("cannot convert \(v.typeName) \(v.literal) to Array")
        }
    }
}
