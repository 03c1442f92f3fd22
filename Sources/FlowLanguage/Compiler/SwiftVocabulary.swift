import FlowRuntime

/// The names reactive Swift and RxJS code uses around its operators, which
/// flow reads so pasted code runs: schedulers (`MainScheduler.instance`,
/// `RunLoop.main`), type namespaces (`Observable.just`, `Publishers.Merge`),
/// and implicit members (`.seconds(1)`, `.finished`, `.failure(e)`).
enum SwiftVocabulary {
    /// `Type.member` expressions that name a scheduler. flow delivers every
    /// event on one loop, so a scheduler is a marker the operators that take
    /// one accept and ignore.
    static let schedulers: [String: Set<String>] = [
        "MainScheduler": ["instance", "asyncInstance"],
        "RunLoop": ["main", "current"],
        "DispatchQueue": ["main", "global"],
        "OperationQueue": ["main", "current"],
        "CurrentThreadScheduler": ["instance"],
        "ImmediateScheduler": ["shared", "instance"],
    ]

    /// Scheduler types made with an initializer: `ConcurrentDispatchQueueScheduler(qos: .background)`.
    static let schedulerTypes: Set<String> = [
        "ConcurrentDispatchQueueScheduler", "SerialDispatchQueueScheduler", "ConcurrentMainScheduler",
        "OperationQueueScheduler", "DispatchQueue", "OperationQueue",
    ]

    /// RxJS's stream constants, `EMPTY` and `NEVER`: a stream is an
    /// immutable description, so one made when compiling serves every use.
    static let streamConstants: [String: @Sendable () -> Observable] = ["EMPTY": { .empty() }, "NEVER": { .never() }]

    /// RxJS's scheduler constants.
    static let schedulerConstants: Set<String> = ["asyncScheduler", "asapScheduler", "queueScheduler", "animationFrameScheduler"]

    /// Swift's constants of its number types: `Int.max`, `Double.pi`.
    static func numberConstant(_ type: String, _ name: String) -> Value? {
        switch (type, name) {
        case ("Int", "max"): .int(.max)
        case ("Int", "min"): .int(.min)
        case ("Double", "infinity"): .double(.infinity)
        case ("Double", "pi"): .double(.pi)
        case ("Double", "greatestFiniteMagnitude"): .double(.greatestFiniteMagnitude)
        case ("Double", "leastNonzeroMagnitude"): .double(.leastNonzeroMagnitude)
        case ("Double", "nan"): .double(.nan)
        case ("FloatingPointRoundingRule", _) where NumberValues.roundingRules[name] != nil: NumberValues.member(name)
        case ("FloatingPointSign", "plus"), ("FloatingPointSign", "minus"): NumberValues.member(name)
        default: nil
        }
    }

    /// Type names whose static members are flow's free functions:
    /// `Observable.just(1)` is `just(1)`, `Publishers.Merge(a, b)` is `Merge(a, b)`.
    static let namespaces: Set<String> = [
        "Observable", "Single", "Maybe", "Completable", "Infallible", "Publishers", "AnyPublisher", "Signal", "Driver",
        // `Swift.print`: the standard library's functions by their module.
        "Swift",
    ]

    static func scheduler(_ text: String) -> Value { .record(["scheduler": .string(text)]) }

    /// Foundation's coders, for Combine's `decode(type:decoder:)` and
    /// `encode(encoder:)`: JSON is the format flow reads and writes.
    static let coders: Set<String> = ["JSONDecoder", "JSONEncoder"]

    static func coder(_ name: String) -> Value { .record(["coder": .string(name)]) }

    /// `Todo.self`, `[Todo].self`: a type as a value, which names what a
    /// Swift API would produce; flow's values are dynamic, so it is not checked.
    /// A type as a value (`Int.self`, `type(of: x)`): printed as Swift
    /// prints a metatype (`Array<Int>`, `()`), equal to the same type.
    static func type(_ name: String) -> Value { .tuple(Tuple([.string(runtimeName(name))], labels: ["type"], nominal: metatype)) }

    static let metatype = Nominal(type: "Metatype", describe: { tuple in tuple.elements.first.map { $0.isNull ? "" : "\($0)" } ?? "" })

    /// A type as written (`[Int]`, `[String: P]`, `Int?`, `Void`) spelled
    /// as Swift prints its metatype (`Array<Int>`, `Dictionary<String, P>`,
    /// `Optional<Int>`, `()`).
    static func runtimeName(_ written: String) -> String {
        let text = written.trimmingWhitespace()
        if text == "Void" || text == "()" { return "()" }
        if text.hasSuffix("?") { return "Optional<" + runtimeName(String(text.dropLast())) + ">" }
        if let (head, arguments) = Compiler.genericParts(text) {
            let inner = arguments.map(runtimeName)
            switch (head, inner.count) {
            case ("[]", 1): return "Array<\(inner[0])>"
            case ("[]", 2): return "Dictionary<\(inner[0]), \(inner[1])>"
            default: return head + "<" + inner.joined(separator: ", ") + ">"
            }
        }
        return text
    }

    /// The name of a type written as an expression (`Todo`, `[Todo]`,
    /// `[String: Int]`, `Outer.Inner`), if it is one.
    static func typeName(_ expr: Expr) -> String? {
        switch expr {
        case .name(let name, _): return name.isCapitalised ? name : nil
        case .member(let base, let name, _, _): return typeName(base).map { "\($0).\(name)" }
        // `Int?.self`, which parses as the chain `Int?` `.self`.
        case .optionalBind(let wrapped, _): return typeName(wrapped).map { "\($0)?" }
        case .optionalChain(let chain, _): return typeName(chain)
        case .array(let elements, _) where elements.count == 1: return typeName(elements[0]).map { "[\($0)]" }
        case .dictionary(let pairs, _) where pairs.count == 1:
            guard let key = typeName(pairs[0].key), let value = typeName(pairs[0].value) else { return nil }
            return "[\(key): \(value)]"
        default: return nil
        }
    }

    /// Implicit members that are values on their own.
    static let constantNames = [
        "finished", "completed", "forever", "whileConnected", "none", "main",
        "background", "utility", "default", "userInitiated", "userInteractive", "unspecified", "common", "unlimited",
        // A text encoding (`data(using: .utf8)`): flow's texts are UTF-8.
        "utf8",
    ] + NumberValues.memberNames.sorted()

    static func constant(_ name: String) -> Value? {
        switch name {
        // Each prints as it was written: `.finished` is Combine's.
        case "finished": .event(.completed, .combine)
        case "completed": .event(.completed)
        case "none": .null
        case "unlimited": .int(Int.max)
        case "main": scheduler(".main")
        // `x.rounded(.down)`, `x.sign == .minus`.
        case _ where NumberValues.member(name) != nil: NumberValues.member(name)
        case _ where constantNames.contains(name): .string(name)
        // `iso.formatOptions = [.withFullDate]`: an option by its name.
        case _ where ISO8601FormatterValue.options[name] != nil: .string(name)
        // `f.dateStyle = .medium`: a DateFormatter.Style by its name (`.none` is nil above).
        case _ where DateFormatterValue.styles[name] != nil: .string(name)
        default: nil
        }
    }

    /// Implicit members called with one value.
    static let constructors: [String: String] = [
        "nanoseconds": "a duration", "microseconds": "a duration", "milliseconds": "a duration", "seconds": "a duration",
        "failure": "an error event", "error": "an error event", "success": "a value event", "next": "a value event",
        "some": "the value itself", "max": "a count", "fromSeconds": "a duration",
    ]

    static func construct(_ name: String, _ value: Value) throws -> Value {
        func duration(_ unit: TimeSpan) throws -> Value { .duration(try TimeSpan.amount(value, of: unit, unitName: name)) }
        switch name {
        case "nanoseconds": return try duration(TimeSpan(nanoseconds: 1))
        case "microseconds": return try duration(TimeSpan(nanoseconds: 1000))
        case "milliseconds": return try duration(.milliseconds(Int64(1)))
        case "seconds", "fromSeconds": return try duration(.seconds(1))
        case "failure": return .event(.error(FlowError(value)), .combine)
        case "error": return .event(.error(FlowError(value)))
        // `.success(v)` is a Result's (a Single's value, which ends it).
        case "success": return .event(.next(value), .result)
        case "next": return .event(.next(value))
        default: return value
        }
    }
}

extension Compiler {
    /// `.seconds(1)`, `.finished`, `.failure(e)`.
    func compileImplicitMember(_ name: String, _ span: Span, arguments: [CallArgument]?, in scope: Scope) -> Code {
        // A case of the script's own enums comes first.
        if resolveAmbiguity(name, span, in: scope) { return { _ in .null } }
        if let type = resolveCase(type: nil, name: name, span, in: scope) {
            guard let arguments else { return compileStaticMember(type, name, span, in: scope) }
            return compileCaseConstruction(type, name, span, arguments, in: scope)
        }
        if name == "exponential", let arguments { return compileExponentialDelay(arguments, span, in: scope) }
        let known = arguments == nil
            ? "flow knows " + SwiftVocabulary.constantNames.sorted().map { ".\($0)" }.joined(separator: ", ")
            : "flow knows " + SwiftVocabulary.constructors.keys.sorted().map { ".\($0)(x)" }.joined(separator: ", ")
        let cases = visibleCaseNames(in: scope)
        if !cases.isEmpty, SwiftVocabulary.constant(name) == nil, SwiftVocabulary.constructors[name] == nil {
            error("unknown case '.\(name)'", span, help: Suggestions.didYouMean(name, among: cases)
                  ?? "the cases in scope are " + cases.map { ".\($0)" }.joined(separator: ", "))
            return { _ in .null }
        }
        guard let arguments else {
            if let value = SwiftVocabulary.constant(name) { return { _ in value } }
            if SwiftVocabulary.constructors[name] != nil {
                error("'.\(name)' needs a value, as in .\(name)(1)", span)
            } else {
                error("unknown '.\(name)'", span, help: Suggestions.didYouMean(name, among: SwiftVocabulary.constantNames) ?? known)
            }
            return { _ in .null }
        }
        if name == "byTime" || name == "byTimeOrCount" {
            // What `collect` makes of them is `collectingByTime`'s; anywhere else they mean nothing.
            error("'.\(name)' is a strategy of collect, as in collect(.byTime(RunLoop.main, .seconds(1))) or collect(.byTimeOrCount(RunLoop.main, .seconds(1), 10))",
                  span)
            return { _ in .null }
        }
        guard let what = SwiftVocabulary.constructors[name] else {
            error("unknown '.\(name)(...)'", span,
                  help: Suggestions.didYouMean(name, among: Array(SwiftVocabulary.constructors.keys)) ?? known)
            return { _ in .null }
        }
        guard arguments.count == 1, arguments[0].label == nil else {
            error("'.\(name)' takes one value and makes \(what), as in .\(name)(1)", span)
            return { _ in .null }
        }
        let value = compile(arguments[0].value, in: scope)
        let location = self.location(span)
        return { frame in
            let v = try value(frame)
            return try located(location) { try SwiftVocabulary.construct(name, v) }
        }
    }

    /// `MainScheduler.instance`, `RunLoop.main`: a scheduler marker, or nil
    /// when `base.name` is not one.
    func schedulerValue(_ base: Expr, _ name: String, in scope: Scope) -> Value? {
        guard case .name(let type, _) = base, scope.lookup(type) == nil, SwiftVocabulary.schedulers[type]?.contains(name) == true
        else { return nil }
        return SwiftVocabulary.scheduler("\(type).\(name)")
    }
}
