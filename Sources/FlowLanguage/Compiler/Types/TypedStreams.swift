import FlowRuntime

/// A stream made with its element type written, as Swift code makes them:
/// `CurrentValueSubject<Double, Never>(21)`, `Just<Double>(5)`,
/// `Observable<Double>.just(5)`. Its literal arguments take that type, and
/// a subject converts what is sent into it, so `send(5)` into a Double
/// subject is 5.0, as Swift's literal would be.
extension Compiler {
    /// The element type written after a stream type's name at `nameSpan`.
    func writtenElementType(at nameSpan: Span, in scope: Scope) -> StaticType? {
        guard let text = file.genericTypeText(at: nameSpan.start), case .stream(let element) = staticType(text: text, in: scope),
              element.isKnown else { return nil }
        return element
    }

    func compileTypedSource(_ call: OperatorCall, element: StaticType, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span,
                            in scope: Scope) -> CompiledExpression {
        let typedArguments = arguments.map { argument in
            var typed = argument
            // `CurrentValueSubject<Settings, Never>(.quiet)`: a member of the element type.
            typed.value = Self.literal(implicitMemberSpelledOut(argument.value, expecting: element, in: scope), as: element)
            return typed
        }
        let made = compileOperator(call, receiver: nil, nameSpan, typedArguments, span, in: scope)
        guard let convert = Conversion.to(element) else { return made.typed(.stream(element), sure: true) }
        let code = made.code
        return CompiledExpression({ frame in
            let value = try code(frame)
            if case .stream(let stream) = value, let subject = stream as? Subject { subject.convertElements(with: convert) }
            return value
        }, isStream: true, type: .stream(element), typeIsSure: true)
    }

    /// A literal argument (or an array of them, for `of` and `from`) read
    /// as the element type.
    private static func literal(_ expr: Expr, as element: StaticType) -> Expr {
        switch expr {
        case .literal(let value, let span): return .literal(Conversion.literal(value, to: element), span)
        case .array(let items, let span):
            // `Just<[Double]>([1, 2])`, and `from([1, 2])` of Doubles.
            let inner = if case .array(let e) = element { e } else { element }
            return .array(items.map { literal($0, as: inner) }, span)
        default: return expr
        }
    }
}

extension Compiler {
    /// Operators whose stream has the elements of their receiver's.
    static let elementKeepingOperators: Set<String> = [
        "filter", "tryFilter", "debounce", "throttle", "distinctUntilChanged", "removeDuplicates", "take", "prefix", "skip", "dropFirst",
        "delay", "share", "receive", "subscribe", "eraseToAnyPublisher", "asObservable", "print", "handleEvents", "do", "tap", "first",
        "last", "takeUntil", "skipWhile", "takeWhile", "drop", "timeout", "retry", "catchAndReturn", "catchErrorJustReturn",
        "replaceError", "startWith", "prepend", "append", "observeOn", "subscribeOn", "observe", "debug", "sample", "shareReplay",
        "multicast", "publish", "makeConnectable", "autoconnect", "refCount",
    ]

    /// The type of what an operator called on a stream of a known element
    /// type makes, where it follows: `map` gives its closure's result,
    /// `compactMap` that result unwrapped, and the operators that pass
    /// elements on keep their type. Unknown elsewhere.
    static func operatorResultType(_ name: String, receiver: StaticType, arguments: [StaticType]) -> StaticType {
        let closureResult: StaticType? = arguments.lazy.compactMap { type -> StaticType? in
            if case .function(_, let result) = type, result.isKnown { return result }
            return nil
        }.first
        if case .array(let element) = receiver {
            // The same names on an array: its helpers.
            switch name {
            case "map": return closureResult.map(StaticType.array) ?? .unknown
            case "compactMap": return closureResult.map { .array($0.unwrapped) } ?? .unknown
            case "filter", "sorted", "reversed", "shuffled": return element.isKnown ? receiver : .unknown
            default: return .unknown
            }
        }
        guard case .stream(let element) = receiver else { return .unknown }
        switch name {
        case "map", "tryMap": return closureResult.map(StaticType.stream) ?? .unknown
        case "compactMap", "tryCompactMap": return closureResult.map { .stream($0.unwrapped) } ?? .unknown
        case "replaceNil": return .stream(element.unwrapped)
        default: return elementKeepingOperators.contains(name) && element.isKnown ? receiver : .unknown
        }
    }
}

/// For an editor's hover only (`Program.bindingTypes`): what a stream made
/// with operators likely carries, from what its sources and closures likely
/// give (a marble stream's values, `$0` of its `map`). Asked only in the
/// compile that notes binding types, never in one that runs or checks a
/// script, and never taken as sure.
extension Compiler {
    /// The type of an operator's call: the sure one where it follows, and
    /// in a hover's compile the likely one where that does not.
    func resultType(ofOperator name: String, receiver: StaticType, arguments: [StaticType]) -> (type: StaticType, isLikely: Bool) {
        let known = Self.operatorResultType(name, receiver: receiver, arguments: arguments)
        guard !known.isKnown, environment.bindingTypes != nil else { return (known, false) }
        return (Self.likelyOperatorResultType(name, receiver: receiver, arguments: arguments), true)
    }

    /// A free operator's stream, in a hover's compile: `just(10)`,
    /// `of(1, 2)`, `from([1.5])`, `combineLatest(a, b)`.
    func likelySourceType(_ name: String, arguments: [StaticType]) -> StaticType {
        guard environment.bindingTypes != nil else { return .unknown }
        switch name {
        case "just", "Just", "of", "sequence", "publisher":
            if name == "of" || name == "sequence" || name == "publisher", arguments.count == 1, case .array(let element) = arguments[0] {
                return element.isKnown ? .stream(element) : .unknown
            }
            return Self.oneType(arguments).map(StaticType.stream) ?? .unknown
        case "from":
            guard arguments.count == 1, case .array(let element) = arguments[0], element.isKnown else { return .unknown }
            return .stream(element)
        case "combineLatest", "zip", "merge":
            guard let first = arguments.first, first.isStream else { return .unknown }
            return Self.likelyOperatorResultType(name, receiver: first, arguments: Array(arguments.dropFirst()))
        default:
            return .unknown
        }
    }

    /// What the operator's catalog says of its stream's elements: `scan`
    /// and `reduce` carry their seed's type, `combineLatest` and `zip` a
    /// tuple of their streams' elements (or their closure's result),
    /// `withLatestFrom` the other stream's, `merge` the one type of all,
    /// `count` an Int, `toArray` and `collect()` an array of the elements,
    /// the `flatMap`s the elements of the streams their closure makes.
    static func likelyOperatorResultType(_ name: String, receiver: StaticType, arguments: [StaticType]) -> StaticType {
        guard case .stream(let element) = receiver else { return .unknown }
        let closureResult = arguments.lazy.compactMap { type -> StaticType? in
            if case .function(_, let result) = type, result.isKnown { return result }
            return nil
        }.first
        // A closure whose result is not known leaves the result unknown:
        // `combineLatest(b) { ... }` makes what it returns, not a tuple.
        let takesClosure = arguments.contains { if case .function = $0 { true } else { false } }
        let streams = arguments.compactMap { type -> StaticType? in
            if case .stream(let element) = type { return element }
            return nil
        }
        let result: StaticType?
        switch name {
        case "map", "tryMap": result = closureResult
        case "scan", "reduce", "tryScan", "tryReduce":
            result = arguments.first.flatMap { seed -> StaticType? in
                if case .function = seed { return nil }
                return seed.isKnown ? seed : nil
            }
        case "combineLatest", "zip":
            guard !streams.isEmpty else { return .unknown }
            let parts = [element] + streams
            result = takesClosure ? closureResult : parts.allSatisfy(\.isKnown) ? .tuple(parts, labels: parts.map { _ in nil }) : nil
        case "withLatestFrom":
            result = takesClosure ? closureResult : streams.count == 1 ? streams[0] : nil
        case "merge":
            result = oneType([element] + streams)
        case "count": result = .int
        case "toArray", "collect": result = arguments.isEmpty && element.isKnown ? .array(element) : nil
        case "flatMap", "flatMapLatest", "flatMapFirst", "concatMap", "switchMap", "mergeMap", "exhaustMap", "switchToLatest":
            if case .stream(let inner)? = closureResult { result = inner } else { result = nil }
        default:
            return operatorResultType(name, receiver: receiver, arguments: arguments)
        }
        guard let result, result.isKnown else { return .unknown }
        return .stream(result)
    }

    /// The type all of `types` share, if they are known and one.
    private static func oneType(_ types: [StaticType]) -> StaticType? {
        guard let first = types.first, first.isKnown, types.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}
