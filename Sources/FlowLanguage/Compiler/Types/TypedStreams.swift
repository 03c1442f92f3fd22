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
