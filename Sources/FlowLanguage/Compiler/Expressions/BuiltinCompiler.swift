import FlowMarbles
import FlowRuntime

/// The language's own functions, and the marble forms of the contract.
extension Compiler {
    func compileBuiltin(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        switch name {
        case "print": return compilePrint(arguments, in: scope)
        case "cold", "hot": return compileMarbleSource(name, nameSpan, arguments, in: scope)
        case "time": return compileTime(nameSpan, arguments, in: scope)
        case "marbles": return compileMarbles(nameSpan, arguments, in: scope)
        case "type": return compileTypeOf(nameSpan, arguments, in: scope)
        case "expect":
            error("an expectation needs toBe, as in expect(s).toBe(\"-a-|\")", span)
            return { _ in .null }
        default:
            switch FreeFunctions.named(name)?.body {
            case .value(let body)?: return compileFreeFunction(FreeFunctions.named(name)!, body, nameSpan, arguments, in: scope).code
            case .running(let body)?:
                let env = environment
                return compileFreeFunction(FreeFunctions.named(name)!, { try body($0, env) }, nameSpan, arguments, in: scope).code
            case .language?, nil:
                error("unknown function '\(name)'", nameSpan)
                return { _ in .null }
            }
        }
    }

    /// A free function's call with what is known of its result's type:
    /// Swift's conversions (`Int("7")` is an `Int?`, `Double(2)` a Double).
    func compiledBuiltin(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> CompiledExpression {
        // The language's functions with a result type known here are types' initialisers, capitalised.
        guard name.isCapitalised else {
            if let function = FreeFunctions.named(name), function.resultType.isKnown {
                return compileMathCall(function, nameSpan, arguments, span, in: scope)
            }
            // `{ print("hi") }` is a `() -> ()`, as Swift types it.
            if name == "print" { return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope)).typed(.void, sure: true) }
            let isMarbleSource = name == "cold" || name == "hot"
            // In a hover's compile only, the stream its marbles likely make
            // (`Observable<String>` of `cold("-a-b|")`), so that what its
            // operators make is known too: `cold("-a-b|").map { $0 + "!" }`.
            let likely = isMarbleSource && environment.bindingTypes != nil
                ? Self.marbleStreamType(.call(callee: .name(name, nameSpan), arguments: arguments, span)) ?? .unknown : .unknown
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope), isStream: isMarbleSource, type: likely)
        }
        if name == "String", arguments.first?.label == "format" { checkFormat(arguments) }
        if name == "Data", arguments.count == 1, arguments[0].label == nil, case .member(let text, "utf8", _, _) = arguments[0].value {
            // `Data(text.utf8)`: the text's bytes, which a Data holds as text.
            let code = compile(text, in: scope)
            return CompiledExpression({ frame in DataValue.make(try code(frame).asString()) }, type: .named("Data"), typeIsSure: true)
        }
        if name == "String", arguments.first?.label == "data" {
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope)).typed(.optional(.string), sure: true)
        }
        if name == "URLError", scope.lookup("URLError") == nil {
            // `URLError(.badServerResponse)`: its code named as Swift names it.
            guard arguments.count == 1, arguments[0].label == nil, case .implicitMember(let code, let codeSpan) = arguments[0].value else {
                error("URLError takes its code, as in URLError(.badServerResponse)", nameSpan)
                return CompiledExpression { _ in .null }
            }
            guard let number = URLErrorValue.codes[code] else {
                error("URLError has no code '\(code)'", codeSpan,
                      help: Suggestions.didYouMean(code, among: Array(URLErrorValue.codes.keys)) ?? "codes such as .badServerResponse, .timedOut, .cannotConnectToHost")
                return CompiledExpression { _ in .null }
            }
            let made = URLErrorValue.make(code: number)
            return CompiledExpression({ _ in made }, type: .named("URLError"), typeIsSure: true)
        }
        if name == "DateFormatter" || name == "ISO8601DateFormatter" || name == "TimeZone" || name == "Locale" {
            // Foundation's formatters are classes: a `let` holding one has its properties set.
            let made: StaticType = name == "TimeZone" ? .optional(.named(name)) : .named(name)
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope)).typed(made, sure: true)
        }
        if name == "URL" || name == "URLRequest" {
            let made: StaticType = name == "URL" ? .optional(.named("URL")) : .named("URLRequest")
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope)).typed(made, sure: true)
        }
        if name == "Array", arguments.map(\.label) == ["repeating", "count"] {
            // `Array(repeating: 0.0, count: 3)` is a [Double], so `grid[0] = 3` stores 3.0.
            let type = repeatedArrayType(arguments, in: scope)
            let made = CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope))
            return type.isKnown ? made.typed(type, sure: false) : made
        }
        if name == "Decimal" {
            let made: StaticType = arguments.first?.label == "string" ? .optional(.decimal) : .decimal
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope)).typed(made, sure: true)
        }
        guard ["Int", "Double", "Float", "String", "Bool"].contains(name), let function = FreeFunctions.named(name),
              case .value(let body) = function.body else {
            return CompiledExpression(compileBuiltin(name, nameSpan, arguments, span, in: scope), isStream: name == "cold" || name == "hot")
        }
        return compileFreeFunction(function, body, nameSpan, arguments, in: scope)
    }

    /// What Swift's conversion initialisers give for an argument's type.
    private static func conversionType(_ name: String, from argument: StaticType?) -> StaticType {
        let target: StaticType = switch name {
        case "Int": .int
        case "Double", "Float": .double
        case "Bool": .bool
        default: .string
        }
        guard target != .string else { return .string }
        switch argument {
        case .string?: return .optional(target)
        case .int?, .double?: return target == .bool ? .unknown : target
        default: return .unknown
        }
    }

    /// `print(a, b, separator: "-", terminator: "")`: the values'
    /// descriptions, separated by spaces, ended by a line.
    private func compilePrint(_ arguments: [CallArgument], in scope: Scope) -> Code {
        for argument in arguments where argument.label != nil && !["separator", "terminator", "to"].contains(argument.label!) {
            error("print has no argument labelled '\(argument.label!)'", argument.labelSpan!, help: "it takes values, separator:, terminator: and to:")
        }
        // `to: &standardError`, the one output stream a script names.
        var toStandardError = false
        var arguments = arguments
        if let index = arguments.firstIndex(where: { $0.label == "to" }) {
            if case .inoutArgument(.name("standardError", _), _) = arguments[index].value {
                toStandardError = true
            } else {
                error("print(to:) writes to &standardError", arguments[index].value.span, help: "write print(..., to: &standardError)")
            }
            arguments.remove(at: index)
        }
        let args = compileArguments(arguments, in: scope)
        let env = environment
        let describers = args.types.map { describer(for: $0, in: scope) }
        return { frame in
            let values = try args.evaluate(frame)
            var separator = " ", terminator = "\n"
            var shown: [String] = []
            for (i, (label, value)) in zip(args.labels, values).enumerated() {
                switch label {
                case "separator": separator = value.description
                case "terminator": terminator = value.description
                default: shown.append(try describers[i](value, frame))
                }
            }
            if toStandardError {
                env.errorOutput(shown.joined(separator: separator) + (terminator == "\n" ? "" : terminator))
            } else {
                env.print(shown.joined(separator: separator), terminator: terminator)
            }
            return .void
        }
    }

    /// Checks a literal marble string now, reporting a mistake at its character.
    private func checkMarble(_ argument: CallArgument, as kind: MarbleKind) {
        guard case .literal(.string(let marble), let span) = argument.value else { return }
        // Points at a character of the marble when the literal has no
        // escapes (then characters of the string and of the source line agree).
        func place(_ offset: Int) -> Span {
            guard !file.text(of: span).contains("\\") else { return span }
            let before = String(marble.prefix(offset)).utf8.count
            let width = Swift.max(1, String(marble.dropFirst(offset).prefix(1)).utf8.count)
            return Span(span.start + 1 + before, span.start + 1 + before + width)
        }
        do {
            var ignored: Int?
            switch kind {
            case .cold: ignored = try MarbleParser.parseEvents(marble, isInput: true).ignoredEventOffset
            case .hot: ignored = try MarbleParser.parseEvents(marble, allowSubscriptionPoint: true, isInput: true).ignoredEventOffset
            case .expected: _ = try MarbleParser.parseEvents(marble)
            case .subscription: _ = try MarbleParser.parseSubscription(marble)
            case .time: _ = try MarbleParser.duration(of: marble)
            }
            if let ignored {
                warning("this event comes after '|' or '#' and is never delivered", place(ignored),
                        help: "remove what follows the terminal event, or move the terminal event to the end")
            }
            if kind != .subscription, let offset = MarbleParser.digitsBeforeALetter(in: marble) {
                warning("digits then a letter are read as one value each, not as a time", place(offset),
                        help: "a time progression is 10ms, 1.5s, 2m or 1h between spaces; values of several characters are written as one symbol with its value, as in cold(\"-a-\", a: 10)")
            }
        } catch let e as MarbleSyntaxError {
            error("bad marble: \(e.message)", place(e.offset), help: "marbles use - | # ^ ! ( ) values and time like 10ms; see grammar.md")
        } catch {}
    }

    enum MarbleKind { case cold, hot, expected, subscription, time }

    /// `cold("-a-|", a: 1, error: "boom")`, `hot("-^-a")`.
    private func compileMarbleSource(_ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        guard let first = arguments.first, first.label == nil else {
            error("\(name) needs a marble string first, as in \(name)(\"-a-b-|\", a: 1)", nameSpan)
            return { _ in .null }
        }
        checkMarble(first, as: name == "cold" ? .cold : .hot)
        facts.playsMarbles = true
        let values = compileMarbleValues(Array(arguments.dropFirst()), in: scope)
        let marble = compile(first.value, in: scope)
        let location = self.location(first.value.span)
        let label = file.text(of: Span(nameSpan.start, (arguments.last?.value.span.end ?? nameSpan.end) + 1))
        let origin = NodeOrigin(label: label, location: location)
        let env = environment
        return { frame in
            let text = try located(location) { try marble(frame).asString() }
            let (symbols, errorValue) = try values(frame)
            return try located(location) {
                do {
                    let stream: Observable
                    if name == "cold" {
                        stream = try ColdStream(text, values: symbols, error: errorValue)
                    } else {
                        let hot = try HotStream(text, values: symbols, error: errorValue)
                        env.made(hot)
                        stream = hot
                    }
                    // The marble's own `#` points at the marble.
                    stream.origin = origin
                    return .stream(stream)
                } catch let e as MarbleSyntaxError {
                    throw FlowError("bad marble: \(e.description)")
                }
            }
        }
    }

    /// The labelled values of a marble (`a: 1`) and its `error:` value.
    func compileMarbleValues(_ arguments: [CallArgument], in scope: Scope) -> (Frame) throws -> ([String: Value], Value?) {
        var entries: [(String, Code)] = []
        for argument in arguments {
            guard let label = argument.label else {
                error("marble values are labelled with their symbol, as in a: 1", argument.value.span)
                continue
            }
            if label != "error" && label.count != 1 {
                error("'\(label)' is not a marble symbol: symbols are single letters or digits", argument.labelSpan!,
                      help: "use error: for the value of #")
            }
            entries.append((label, compile(argument.value, in: scope)))
        }
        return { frame in
            var symbols: [String: Value] = [:]
            var errorValue: Value?
            for (label, code) in entries {
                if label == "error" { errorValue = try code(frame) } else { symbols[label] = try code(frame) }
            }
            return (symbols, errorValue)
        }
    }

    /// `time("---|")`: the duration a marble spans (3ms).
    private func compileTime(_ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        guard arguments.count == 1, arguments[0].label == nil else {
            error("time takes one marble string, as in time(\"---|\")", nameSpan)
            return { _ in .null }
        }
        checkMarble(arguments[0], as: .time)
        let marble = compile(arguments[0].value, in: scope)
        let location = self.location(arguments[0].value.span)
        return { frame in
            try located(location) {
                do { return .duration(try MarbleParser.duration(of: try marble(frame).asString())) } catch let e as MarbleSyntaxError {
                    throw FlowError("bad marble: \(e.description)")
                }
            }
        }
    }

    /// `marbles(a, b, c)`: lanes drawn when the run ends, labelled as written.
    private func compileMarbles(_ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        // `title:` names the diagram (a text, not a lane).
        let titleArgument = arguments.first { $0.label == "title" }
        let streams = arguments.filter { $0.label != "title" }
        if streams.isEmpty { error("marbles needs the streams to draw, as in marbles(a, b)", nameSpan) }
        let title = titleArgument.map { compile($0.value, in: scope) }
        let lanes = streams.map { argument -> (String, Code) in
            (argument.label ?? file.text(of: argument.value.span), compile(argument.value, in: scope))
        }
        let env = environment
        facts.drawsMarbles = true
        let location = self.location(nameSpan)
        return { frame in
            let run = env.run
            let streams = try lanes.map { label, code in (label, try located(location) { try code(frame).asStream() }) }
            let titleText = try title.map { code in try located(location) { try code(frame).asString() } }
            if !run.scheduler.isVirtual && !run.lanesInVirtualTime, let tracer = run.scheduler.tracer {
                // On the live clock the lanes show what the run's own
                // subscriptions saw: a request is not made twice.
                for (_, stream) in streams {
                    tracer.watch(stream)
                    if env.tracesEverything { tracer.trace(stream) }
                }
                run.observedGroupLocations[run.observedGroups.count] = location
                run.observedGroups.append((titleText, streams.map { ($0.0, .observed($0.1)) }))
                return .null
            }
            var group: [(label: String, recorder: EventRecorder)] = []
            for (label, stream) in streams {
                if env.tracesEverything { run.marbles.scheduler.tracer?.trace(stream) }
                group.append((label, run.record(stream, at: location)))
            }
            if let titleText { run.laneTitles[run.lanes.count] = titleText }
            run.lanes.append(group)
            return .null
        }
    }

    /// `min(3, 1)`, `String(describing: x)`, `stride(from:to:by:)`: a free
    /// function computed from its arguments, checked against its forms.
    private func compileFreeFunction(_ function: FreeFunction, _ body: @escaping (MethodArguments) throws -> Value, _ nameSpan: Span,
                                     _ arguments: [CallArgument], in scope: Scope) -> CompiledExpression {
        let args = compileArguments(arguments, in: scope)
        guard function.forms.contains(where: { Signature.bind($0, labels: args.labels, values: args.constants) != nil }) else {
            error("no form of '\(function.name)' takes these arguments; it takes \(function.formsDescription)", nameSpan)
            return CompiledExpression { _ in .null }
        }
        let location = self.location(nameSpan)
        let name = function.name, labels = args.labels
        // `String(describing:)` shows its argument as `print` would.
        let describe = describer(for: args.types.first ?? .unknown, nested: name == "String" && labels == ["reflecting"], in: scope)
        let code: Code = { frame in
            let values = try args.evaluate(frame)
            return try located(location) {
                try body(MethodArguments(name: name, labels: labels, values: values, describe: { try describe($0, frame) }))
            }
        }
        guard ["Int", "Double", "Float", "String", "Bool"].contains(name) else { return CompiledExpression(code) }
        let type = Self.conversionType(name, from: args.types.count == 1 ? args.types[0] : nil)
        return CompiledExpression(code, type: type, typeIsSure: type.isKnown)
    }

    // MARK: - expect

    /// `expect(s).toBe("-a-|", a: 1)`, `expect(s, subscription: "^--!")`,
    /// `expect(s, unsubscribe: "--!")`, `expect(s.subscriptions).toBe(["^-!"])`.
    func compileExpectation(_ expectArgs: [CallArgument], _ expectSpan: Span, toBe: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        guard let target = expectArgs.first, target.label == nil else {
            error("expect needs the stream to check, as in expect(s).toBe(\"-a|\")", expectSpan)
            return { _ in .null }
        }
        for extra in expectArgs.dropFirst() where extra.label != "subscription" && extra.label != "unsubscribe" {
            error("expect takes a stream and subscription: or unsubscribe:", extra.labelSpan ?? extra.value.span,
                  help: extra.label.flatMap { Suggestions.didYouMean($0, among: ["subscription", "unsubscribe"]) })
        }
        guard let marbleArgument = toBe.first, marbleArgument.label == nil else {
            error("toBe needs the expected marble first, as in toBe(\"-a-|\", a: 1)", span)
            return { _ in .null }
        }
        let location = self.location(expectSpan)
        let env = environment
        if case .member(let base, "subscriptions", _, _) = target.value {
            return compileSubscriptionExpectation(base, marbleArgument, toBe, location, in: scope)
        }
        // `reveal: true`: an exercise's right lane is shown once the learner
        // checks an answer. It stays in the file once the lane is answered.
        var valueArguments = Array(toBe.dropFirst())
        var reveals = false
        if let r = valueArguments.firstIndex(where: { $0.label == "reveal" }) {
            let argument = valueArguments.remove(at: r)
            if case .literal(.bool(let flag), _) = argument.value { reveals = flag } else {
                error("reveal: takes true or false", argument.value.span, help: "write toBe(\"???\", reveal: true)")
            }
        }
        let credit = expectationCredit(&valueArguments)
        var placeholder: (text: String, span: Span)?
        if case .literal(.string(let text), let placeholderSpan) = marbleArgument.value, MarbleParser.isPlaceholder(text) {
            warning("this expectation is not answered yet", placeholderSpan, help: "write the marbles you expect in place of \"\(text)\"")
            placeholder = (text, placeholderSpan)
        } else {
            checkMarble(marbleArgument, as: .expected)
        }
        let prompt = file.text(of: target.value.span)
        let stream = compile(target.value, in: scope)
        let marble = compile(marbleArgument.value, in: scope)
        let values = compileMarbleValues(valueArguments, in: scope)
        // `subscription:` and `unsubscribe:` marbles both count from frame 0
        // (spaces ignored, as in RxJS); an unsubscription needs no `^`.
        let subscription = expectArgs.dropFirst().first.map { argument -> Code in
            checkMarble(argument, as: .subscription)
            return compile(argument.value, in: scope)
        }
        return { frame in
            let observable = try located(location) { try stream(frame).asStream() }
            let expected = try located(location) { try marble(frame).asString() }
            var log = SubscriptionLog(subscribed: .zero, unsubscribed: nil)
            if let code = subscription {
                let text = try located(location) { try code(frame).asString() }
                log = try located(location) {
                    do {
                        return try MarbleParser.parseSubscription(text)
                    } catch let e as MarbleSyntaxError { throw FlowError("bad marble: \(e.description)") }
                }
            }
            if MarbleParser.isPlaceholder(expected) {
                // Answering exercises: what the stream does here is recorded
                // as the right answer, for the page to check answers with.
                if env.answersExercises, let placeholder, placeholder.text == expected {
                    let recorder = env.run.marbles.observe(observable, subscription: log, location: location)
                    env.run.unanswered.append(UnansweredLane(location: location, placeholder: placeholder.span, prompt: prompt, reveals: reveals,
                                                             subscribed: log.subscribed, stream: observable, recorder: recorder))
                    return .null
                }
                throw FlowError("not answered yet: write the marbles you expect in place of \"\(expected)\"", at: location)
            }
            let (symbols, errorValue) = try values(frame)
            try located(location) {
                do {
                    try env.run.marbles.expect(observable, subscription: log, toBe: expected, values: symbols, error: errorValue, location: location,
                                               credit: credit)
                } catch let e as MarbleSyntaxError { throw FlowError("bad marble: \(e.description)") }
            }
            env.run.expectationCount += 1
            return .null
        }
    }

    /// `points: 3` and `partial: .perEvent` of a `toBe`, taken out of its
    /// arguments: what the expectation carries of its test's points, for a
    /// grader. Literals only: a key's points are known before it runs.
    private func expectationCredit(_ arguments: inout [CallArgument]) -> MarbleRun.Credit? {
        var points: Int?, perEvent = false
        if let p = arguments.firstIndex(where: { $0.label == "points" }) {
            let argument = arguments.remove(at: p)
            if case .literal(.int(let n), _) = argument.value, n >= 0 { points = n } else {
                error("points: takes a whole number of points, as in toBe(\"-a|\", points: 2)", argument.value.span)
            }
        }
        if let p = arguments.firstIndex(where: { $0.label == "partial" }) {
            let argument = arguments.remove(at: p)
            if case .implicitMember("perEvent", _) = argument.value { perEvent = true } else {
                error("partial: takes .perEvent (credit per right event)", argument.value.span, help: "write toBe(\"-a|\", points: 2, partial: .perEvent)")
            }
            if points == nil { error("partial credit needs the points it divides, as in toBe(\"-a|\", points: 2, partial: .perEvent)", argument.value.span) }
        }
        guard let points else { return nil }
        expectationPointsInTest = (expectationPointsInTest ?? 0) + points
        return MarbleRun.Credit(points: points, perEvent: perEvent)
    }

    private func compileSubscriptionExpectation(
        _ base: Expr, _ marbleArgument: CallArgument, _ toBe: [CallArgument], _ location: SourceLocation, in scope: Scope
    ) -> Code {
        if toBe.count > 1 { error("a subscription log is compared with marbles only", toBe[1].value.span) }
        if case .array(let elements, _) = marbleArgument.value {
            for element in elements { checkMarble(CallArgument(label: nil, labelSpan: nil, value: element, isTrailing: false), as: .subscription) }
        } else {
            checkMarble(marbleArgument, as: .subscription)
        }
        let stream = compile(base, in: scope)
        let marble = compile(marbleArgument.value, in: scope)
        let env = environment
        return { frame in
            let value = try stream(frame)
            guard case .stream(let s) = value, let logged = s as? LoggedStream else {
                throw FlowError("only cold(...) and hot(...) streams log their subscriptions", at: location)
            }
            let expected = try marble(frame)
            let marbles: [String] = try located(location) {
                if case .string(let one) = expected { return [one] }
                return try expected.asArray().map { try $0.asString() }
            }
            try located(location) {
                do { try env.run.marbles.expectSubscriptions(logged, toBe: marbles, location: location) } catch let e as MarbleSyntaxError {
                    throw FlowError("bad marble: \(e.description)")
                }
            }
            env.run.expectationCount += 1
            return .null
        }
    }
}

extension Compiler {
    /// `type(of: x)`: the type Swift knows x has where it is known here
    /// (a declared `Double`, an optional, a closure's signature), else the
    /// value's own kind (its struct, enum or class; an array's elements').
    func compileTypeOf(_ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        guard arguments.count == 1, arguments[0].label == "of" else {
            error("type takes one value, as in type(of: x)", nameSpan)
            return { _ in .null }
        }
        let argument = compiled(arguments[0].value, in: scope)
        if argument.typeIsSure, let known = Self.runtimeName(of: argument.type) {
            let value = SwiftVocabulary.type(known)
            let code = argument.code
            return { frame in _ = try code(frame); return value }
        }
        let code = argument.code
        return { frame in SwiftVocabulary.type(Self.runtimeName(of: try code(frame))) }
    }

    /// A static type as Swift prints its metatype; nil where a part of it is not known.
    static func runtimeName(of type: StaticType) -> String? {
        switch type {
        case .unknown, .stream: return nil
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .bool: return "Bool"
        case .void: return "()"
        case .optional(let wrapped): return runtimeName(of: wrapped).map { "Optional<\($0)>" }
        case .array(let element): return runtimeName(of: element).map { "Array<\($0)>" }
        case .dictionary(let key, let value):
            guard let k = runtimeName(of: key), let v = runtimeName(of: value) else { return nil }
            return "Dictionary<\(k), \(v)>"
        case .tuple(let elements, let labels):
            let names = elements.map(runtimeName(of:))
            guard names.allSatisfy({ $0 != nil }) else { return nil }
            return "(" + zip(names, labels).map { ($1.map { $0 + ": " } ?? "") + $0! }.joined(separator: ", ") + ")"
        case .named(let name): return SwiftVocabulary.runtimeName(name)
        case .generic(let name, let arguments, _):
            let names = arguments.map(runtimeName(of:))
            let base = SwiftVocabulary.runtimeName(name)
            guard names.allSatisfy({ $0 != nil }) else { return nil }
            return base + "<" + names.map { $0! }.joined(separator: ", ") + ">"
        case .function(let parameters, let result):
            let names = parameters.map(runtimeName(of:))
            guard names.allSatisfy({ $0 != nil }), let r = runtimeName(of: result) else { return nil }
            return "(" + names.map { $0! }.joined(separator: ", ") + ") -> " + r
        }
    }

    /// A value's type by its own kind, where nothing was declared.
    static func runtimeName(of value: Value) -> String {
        switch value {
        case .null: return "Optional<Any>"
        case .array(let items):
            let kinds = Set(items.map(runtimeName(of:)))
            return "Array<\(kinds.count == 1 ? kinds.first! : "Any")>"
        case .dictionary(let pairs):
            let keys = Set(pairs.keys.map(runtimeName(of:))), values = Set(pairs.values.map(runtimeName(of:)))
            return "Dictionary<\(keys.count == 1 ? keys.first! : "AnyHashable"), \(values.count == 1 ? values.first! : "Any")>"
        case .tuple(let tuple) where tuple.nominal == nil:
            return "(" + tuple.elements.indices.map { i in
                (tuple.label(at: i).map { $0 + ": " } ?? "") + runtimeName(of: tuple.elements[i])
            }.joined(separator: ", ") + ")"
        case .tuple(let tuple) where tuple.nominal === SwiftVocabulary.metatype:
            return "\(tuple.elements.first?.description ?? "").Type"
        default:
            return value.typeName
        }
    }
}
