import FlowMarbles
import FlowRuntime

/// Compiling calls: operators, language builtins, methods, closures.
extension Compiler {
    struct CompiledArguments {
        var labels: [String?]
        var codes: [Code]
        /// Each written argument's specialised form, if it has one (in the
        /// order written, also once adapted to an operator's parameters).
        var writtenDirects: [DirectCode?] = []
        /// Values of arguments that are literals, for static checks.
        var constants: [Value?]
        var spans: [Span]
        /// Each argument's static type (StaticType.swift).
        var types: [StaticType] = []
        /// All arguments' values. Composed rather than mapped over `codes`:
        /// a closure taken out of an array comes wrapped in conversion thunks.
        var evaluate: (Frame) throws -> [Value]
    }

    /// `closureParameters`: the types a closure argument's parameters take.
    /// `combiningHints`: for a hover only, the receiver's likely element
    /// when the call combines it with the streams before its closure
    /// (`a.combineLatest(b) { x, y in ... }`), whose parameters take one
    /// element of each.
    func compileArguments(_ arguments: [CallArgument], in scope: Scope, closureParameters: [StaticType]? = nil,
                          closureParameterHints hints: [StaticType]? = nil, combiningHints: StaticType? = nil) -> CompiledArguments {
        var codes: [Code] = []
        var directs: [DirectCode?] = []
        var types: [StaticType] = []
        var evaluate: (Frame) throws -> [Value] = { _ in [] }
        let count = arguments.count
        let specialising = scope.frameOwner.specialising != nil
        for argument in arguments {
            if let closureParameters, case .closure = argument.value, argument.label == nil || Self.elementClosureLabels.contains(argument.label!) {
                closureParameterTypes = closureParameters
            }
            if let hints, case .closure = argument.value, argument.label == nil { closureParameterHints = hints }
            if let first = combiningHints, case .closure = argument.value {
                let others = types.compactMap { type -> StaticType? in if case .stream(let element) = type { element } else { nil } }
                if !others.isEmpty, others.allSatisfy(\.isKnown) { closureParameterHints = [first] + others }
            }
            let compiled = self.compiled(argument.value, in: scope)
            let code = compiled.code
            codes.append(code)
            types.append(compiled.type)
            if specialising { directs.append(compiled.direct) }
            let before = evaluate
            evaluate = { frame in
                var values = try before(frame)
                values.reserveCapacity(count)
                values.append(try code(frame))
                return values
            }
        }
        // Literal arguments (`range(0, 1)`) are one array made now.
        let constants = arguments.compactMap { Compiler.constant($0.value) }
        if constants.count == arguments.count { evaluate = { _ in constants } }
        return CompiledArguments(
            labels: arguments.map(\.label), codes: codes, writtenDirects: directs,
            constants: arguments.map { Self.staticValue($0.value) }, spans: arguments.map(\.value.span), types: types, evaluate: evaluate)
    }

    /// Operators whose closure takes one element of the receiver and one of each stream given.
    static let combiningOperators: Set<String> = ["combineLatest", "zip", "withLatestFrom"]

    /// Labels of the closures that take a stream's elements (`sink(receiveValue:)`).
    static let elementClosureLabels: Set<String> = ["receiveValue", "onNext", "next"]

    /// Operators whose closure takes one element of the stream, as it is.
    static let elementClosureOperators: Set<String> = [
        "map", "compactMap", "filter", "flatMap", "flatMapLatest", "flatMapFirst", "concatMap", "switchMap", "mergeMap", "exhaustMap",
        "tryMap", "tryFilter", "tryCompactMap", "do", "handleEvents", "tap", "first", "last", "contains", "allSatisfy", "skipWhile",
        "takeWhile", "drop", "prefix",
    ]

    /// The kind of value an argument is known to have before running:
    /// literals, and closures (stood in for by a placeholder function).
    static func staticValue(_ expr: Expr) -> Value? {
        switch expr {
        case .literal(let v, _): return v
        case .string: return .string("")
        case .closure: return .function(placeholderFunction)
        case .array: return .array([])
        default: return nil
        }
    }

    private static var placeholderFunction: Function { Function.variadic { _ in .null } }

    func compileCall(_ callee: Expr, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> CompiledExpression {
        switch callee {
        case .implicitMember(let name, let nameSpan):
            return CompiledExpression(compileImplicitMember(name, nameSpan, arguments: arguments, in: scope))
        case .name(let name, let nameSpan):
            return compileNamedCall(name, nameSpan, arguments, span, in: scope)
        case .member(let base, let name, let nameSpan, _):
            return compileMethodCall(base, name, nameSpan, arguments, span, in: scope)
        default:
            return CompiledExpression(compileValueCall(callee, arguments, span, in: scope))
        }
    }

    /// Calling a closure held in a value: `f(1, 2)`.
    func compileValueCall(_ callee: Expr, _ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        if let labelled = arguments.first(where: { $0.label != nil }) {
            error("closures take no argument labels", labelled.labelSpan ?? labelled.value.span)
        }
        let function = compile(callee, in: scope)
        let args = compileArguments(arguments, in: scope)
        let location = self.location(span)
        // `reducer(&state, action)`: each `&x` gets what the closure's
        // parameter holds when it returns.
        let changed: [(index: Int, place: Modify)] = arguments.enumerated().compactMap { i, argument in
            guard case .inoutArgument(let target, _) = argument.value, let place = compilePlace(target, in: scope) else { return nil }
            return (i, place)
        }
        if !changed.isEmpty {
            return { frame in
                var values = try args.evaluate(frame)
                guard StackSpace.hasRoom() else { throw StackSpace.recursionTooDeep.located(at: location) }
                let f = try located(location) { try function(frame).asFunction() }
                // Moved out of their places, so the closure changes them without a copy.
                for (i, place) in changed { try place(frame) { values[i] = $0; $0 = .null } }
                let result = Result { try located(location) { try f.callChanging(&values) } }
                // Put back even when the call failed: the vars keep their values.
                for (i, place) in changed where i < values.count { try place(frame) { $0 = values[i] } }
                return try result.get()
            }
        }
        return { frame in
            let f = try function(frame)
            let values = try args.evaluate(frame)
            guard StackSpace.hasRoom() else { throw StackSpace.recursionTooDeep.located(at: location) }
            if case .stream(let stream) = f, let subject = stream as? Subject, values.count == 1, case .event(let event, let spelling) = values[0] {
                // RxSwift's traits call their observer with an event:
                // `single(.success(v))` is a value and the end,
                // `completable(.completed)`, `maybe(.error(e))`.
                subject.send(event: event.located(at: location))
                if case .next = event, spelling == .result { subject.send(event: .completed) }
                return .null
            }
            return try located(location) { try f.asFunction().call(values) }
        }
    }

    /// The name a member chain starts from (`URLSession` in
    /// `URLSession.shared.x` and in `URLSession.shared.dataTask(with: u).resume()`).
    static func rootName(of expr: Expr) -> (String, Span)? {
        switch expr {
        case .name(let name, let span): (name, span)
        case .member(let base, _, _, _): rootName(of: base)
        case .call(let callee, _, _): rootName(of: callee)
        default: nil
        }
    }

    /// A method of a value that is not a script's type: a stream operator,
    /// a subscription, a collection helper.
    func compileValueMethodCall(
        _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> CompiledExpression {
        if Builtins.isSubscribing(name, labels: arguments.map(\.label)) {
            return compileSubscription(base, name, nameSpan, arguments, span, in: scope)
        }
        if name == "pipe" { return compiled(piped(base, nameSpan, arguments), in: scope) }
        if name == "collect", let buffer = collectingByTime(base, nameSpan, arguments, span) { return compiled(buffer, in: scope) }
        guard let meaning = methodMeaning(name, labels: arguments.map(\.label)) else {
            // `URLSession.shared.dataTaskPublisher(...)`: the framework's name is the error, not its method.
            if let (root, rootSpan) = Self.rootName(of: base), UnsupportedAPIs.named(root) != nil, scope.lookup(root) == nil,
               resolveType(root, in: scope) == nil {
                unknownName(root, rootSpan, in: scope)
                return CompiledExpression { _ in .null }
            }
            if scope.visibleTypes.contains(where: { $0.hasProperty(name) }) {
                // `service.order(x)`: a closure held in a property, called.
                return CompiledExpression(compileValueCall(.member(base, name, nameSpan: nameSpan, nameSpan), arguments, span, in: scope))
            }
            if let function = operatorTable.lookup(name), function.form == .function {
                error("'\(name)' is a free function, not a method: call it as \(name)(...)", nameSpan)
            } else {
                error("unknown method '\(name)'", nameSpan,
                      help: suggestion(for: name, among: Builtins.allMethods + modules.values.flatMap { $0.methods.map(\.name) }))
            }
            return CompiledExpression { _ in .null }
        }
        let call = meaning.call
        let compiledReceiver = compiled(base, in: scope), receiver = compiledReceiver.code
        if call == nil, refusesNumberMethod(name, of: base, compiledReceiver, at: nameSpan) { return CompiledExpression { _ in .null } }
        if name == "map" || name == "flatMap", case .optional(let wrapped) = compiledReceiver.type, wrapped.isKnown,
           arguments.count == 1, arguments[0].label == nil {
            return compileOptionalMap(receiver, wrapped: wrapped, flattens: name == "flatMap", arguments[0], nameSpan, in: scope)
        }
        // On a receiver that is surely a stream, the name is the operator:
        // its forms and ranges are checked now, not when the script runs.
        let onStream = meaning.isHelper && compiledReceiver.isStream
        if onStream, call == nil {
            error("'\(name)' is a method of arrays and strings, and this is a stream", nameSpan,
                  help: "collect its values first, as in toArray().map { $0.\(name)(...) }")
            return CompiledExpression { _ in .null }
        }
        let isHelper = meaning.isHelper && !onStream
        // A closure given the elements of a stream or an array of a sure
        // type takes them as that type.
        let element = compiledReceiver.type.element
        let typesElements = element.isKnown && compiledReceiver.typeIsSure && Self.elementClosureOperators.contains(name)
        var arguments = arguments
        if arguments.count == 1, element.isKnown, arguments[0].label == nil, call?.spec.name == "send" {
            // `subject.send(.init(volume: 5))`: a member of the subject's element type.
            arguments[0].value = implicitMemberSpelledOut(arguments[0].value, expecting: element, in: scope)
        }
        let hintsElements = !typesElements && element.isKnown && environment.bindingTypes != nil
            && (Self.elementClosureOperators.contains(name) || name == "forEach")
        let combines = element.isKnown && environment.bindingTypes != nil && Self.combiningOperators.contains(name)
        var args = compileArguments(arguments, in: scope, closureParameters: typesElements ? [element] : nil,
                                    closureParameterHints: hintsElements ? [element] : nil, combiningHints: combines ? element : nil)
        // A helper's call is checked against its forms; a name shared with a
        // stream operator (`first`, `map`) may fit either, as the receiver
        // decides when the script runs.
        let methods = isHelper ? ValueMethods.group(named: name) : nil
        let helperLabels = methods?.bind(labels: args.labels, values: args.constants, trailingClosure: arguments.last?.isTrailing == true)
        if let methods, helperLabels == nil, call == nil {
            error("no form of '\(name)' takes these arguments; it takes \(methods.formsDescription)", nameSpan)
            return CompiledExpression { _ in .null }
        }
        let helper: ((Value, Frame) throws -> Value)?
        if let methods, let helperLabels {
            var helperArgs = args
            helperArgs.labels = helperLabels
            helper = helperInvoker(methods, nameSpan, helperArgs)
        } else {
            helper = nil
        }
        guard let call else {
            let type = Self.numberMemberType(of: compiledReceiver.type, name) ?? .unknown
            return CompiledExpression({ frame in try helper!(try receiver(frame), frame) }, type: type, typeIsSure: type.isKnown)
        }
        args = args.adapted(to: call, impliedAt: nameSpan)
        let invoke = operatorInvoker(call, nameSpan, args, span, check: helper == nil, in: scope)
        let direct = specialised(in: scope) {
            directOperatorCall(call, receiver: (base, compiledReceiver.direct), arguments, args,
                               helper: helperLabels.map { (name, $0) }, nameSpan, in: scope)
        }
        let result = resultType(ofOperator: name, receiver: compiledReceiver.type, arguments: args.types)
        return CompiledExpression({ frame in
            let value = try receiver(frame)
            // The same name on an array or a string is the collection helper.
            if let helper, !value.isStream { return try helper(value, frame) }
            return try invoke(value, frame)
        }, direct: direct, isStream: compiledReceiver.isStream && !call.spec.traits.contains(.sendsIntoSubject),
           type: result.type, typeIsSure: compiledReceiver.typeIsSure && !result.isLikely)
    }

    /// `Optional.map` and `flatMap` on a value known to be an optional: the
    /// closure gets the value whatever it is (a struct, an array), or the
    /// result is nil.
    private func compileOptionalMap(_ receiver: @escaping Code, wrapped: StaticType, flattens: Bool, _ argument: CallArgument,
                                    _ nameSpan: Span, in scope: Scope) -> CompiledExpression {
        closureParameterTypes = [wrapped]
        let transform = compiled(argument.value, in: scope)
        let f = transform.code
        let location = self.location(nameSpan)
        return CompiledExpression({ frame in
            let value = try receiver(frame)
            if value.isNull { return .null }
            let function = try located(location) { try f(frame).asFunction() }
            return try located(location) { try function.call(value) }
        }, type: .optional(.unknown))
    }

    /// An operator's call: on a receiver, or as a free function (`just(1)`),
    /// whose value is a stream.
    func compileOperator(
        _ call: OperatorCall, receiver: Code?, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> CompiledExpression {
        let args = compileArguments(arguments, in: scope).adapted(to: call, impliedAt: nameSpan)
        let invoke = operatorInvoker(call, nameSpan, args, span, check: true, in: scope)
        guard let receiver else {
            return CompiledExpression({ frame in try invoke(nil, frame) },
                            direct: specialised(in: scope) { directOperatorCall(call, receiver: nil, arguments, args, helper: nil, nameSpan, in: scope) },
                            isStream: true, type: likelySourceType(call.spec.name, arguments: args.types))
        }
        return CompiledExpression { frame in try invoke(try receiver(frame), frame) }
    }

    /// Calls an operator of the table on an evaluated receiver (nil for a
    /// free function) with arguments evaluated in the caller's frame.
    private func operatorInvoker(
        _ call: OperatorCall, _ nameSpan: Span, _ args: CompiledArguments, _ span: Span, check: Bool, in scope: Scope
    ) -> (Value?, Frame) throws -> Value {
        let spec = call.spec, form = call.form
        if check {
            // Which parameter takes each argument matters only for a literal
            // number or duration, whose range and unit are checked.
            let rangesToCheck = args.constants.contains { constant in
                switch constant { case .int?, .double?, .duration?: true; default: false }
            }
            if !rangesToCheck {
                if !spec.signatures.contains(where: { $0.fits(labels: args.labels, values: args.constants) }) {
                    reportBadCall(call, args, nameSpan)
                }
            } else {
                let plans = spec.signatures.compactMap { signature in
                    signature.bind(labels: args.labels, values: args.constants).map { (signature, $0) }
                }
                if plans.isEmpty {
                    reportBadCall(call, args, nameSpan)
                } else {
                    reportOutOfRange(call, args, plans)
                    warnAboutBareDurations(call, args, plans)
                }
            }
        }
        let env = environment
        if Self.needsLiveClock(spec) { facts.needsLiveClock = true }
        let label = file.text(of: Span(nameSpan.start, span.end))
        let location = self.location(nameSpan)
        let origin = NodeOrigin(label: label, location: location)
        if spec.traits.contains(.describesValues) {
            // `print` and `debug` show values as `print(...)` does here: a
            // type's `description`, an enum case with its type in a
            // collection. A description's getter runs from the calling frame.
            let describe = describer(in: scope)
            return { target, frame in
                let context = env.context(at: location) { value in (try? describe(value, frame)) ?? value.description }
                let site = OperatorTable.CallSite(spec, labels: args.labels, context: context, form: form)
                let result = try OperatorTable.call(site, receiver: target, arguments: try args.evaluate(frame))
                if case .stream(let stream) = result, stream.origin == nil { stream.origin = origin }
                return result
            }
        }
        let site = OperatorTable.CallSite(spec, labels: args.labels, context: env.context(at: location), form: form)
        if spec.traits.contains(.sendsIntoSubject), args.labels == [nil] {
            // Sending into a subject happens per event in loops: skip the table.
            return { target, frame in
                if case .stream(let stream)? = target, let subject = stream as? Subject {
                    subject.send(try args.codes[0](frame))
                    return .null
                }
                return try OperatorTable.call(site, receiver: target, arguments: try args.evaluate(frame))
            }
        }
        return { target, frame in
            let values = try args.evaluate(frame)
            let result = try OperatorTable.call(site, receiver: target, arguments: values)
            if case .stream(let stream) = result, stream.origin == nil { stream.origin = origin }
            return result
        }
    }

    /// Sources of events in real time: timers, and what a module reads
    /// from outside (files, requests, standard input).
    static func needsLiveClock(_ spec: OperatorSpec) -> Bool {
        if spec.traits.contains(.readsTheClock) { return true }
        return spec.family == .creation && operatorTable.lookup(spec.name) !== spec
    }

    /// Calls a method of values on an evaluated receiver.
    private func helperInvoker(_ methods: ValueMethods.Group, _ nameSpan: Span, _ args: CompiledArguments) -> (Value, Frame) throws -> Value {
        let location = self.location(nameSpan)
        let env = environment
        return { target, frame in
            let values = try args.evaluate(frame)
            return try located(location) { try methods.call(on: target, labels: args.labels, arguments: values, random: env.run.random) }
        }
    }

    /// A bare number for a duration is milliseconds, as in RxJS; a Swift
    /// developer writing `debounce(0.5)` means seconds. Runs either way;
    /// `flow check` says which unit it is read in.
    private func warnAboutBareDurations(_ call: OperatorCall, _ args: CompiledArguments, _ plans: [(Signature, [[Int]])]) {
        guard !call.form.numbersAreSeconds, let (signature, plan) = plans.first else { return }
        for (i, constant) in args.constants.enumerated() {
            guard let constant, constant.isNumber, let p = plan.firstIndex(where: { $0.contains(i) }),
                  signature.parameters[p].type == .duration else { continue }
            let number = constant.description
            let fractional = if case .double(let d) = constant { d != d.rounded() } else { false }
            warning("\(number) is read as \(number) milliseconds, as RxJS reads it", args.spans[i],
                    help: fractional ? "write \(number)s if you meant seconds, or \(number)ms" : "write \(number)ms to say so")
        }
    }

    /// A literal count or duration out of its parameter's range
    /// (`take(-1)`, `debounce(-5ms)`), when no signature that fits takes it.
    private func reportOutOfRange(_ call: OperatorCall, _ args: CompiledArguments, _ plans: [(Signature, [[Int]])]) {
        for (i, constant) in args.constants.enumerated() {
            guard let constant else { continue }
            let problems = plans.map { signature, plan in
                plan.firstIndex { $0.contains(i) }.flatMap { signature.parameters[$0].violation(constant) }
            }
            if let problem = problems.first.flatMap({ $0 }), problems.allSatisfy({ $0 != nil }) {
                error("\(call.name): \(problem)", args.spans[i])
            }
        }
    }

    /// Says why no signature fits: an unknown label, a literal of the wrong
    /// kind (a non-closure where a closure is needed), or the count.
    private func reportBadCall(_ call: OperatorCall, _ args: CompiledArguments, _ nameSpan: Span) {
        let spec = call.spec, name = call.name
        let forms = (name == spec.name ? "'\(name)' takes " : "'\(name)' is \(spec.name), which takes ")
            + spec.signatureDescriptions.joined(separator: " or ")
        let knownLabels = Set(spec.signatures.flatMap { $0.parameters.compactMap(\.label) } + operatorTable.spellingLabels(of: name))
        for (i, label) in args.labels.enumerated() {
            if let label, !knownLabels.contains(label) {
                let hint = Suggestions.closest(to: label, among: knownLabels).map { "did you mean '\($0):'? " } ?? ""
                error("'\(name)' has no argument labelled '\(label)'", args.spans[i], help: hint + forms)
                return
            }
        }
        let shapeFits = spec.signatures.contains { $0.fits(labels: args.labels, values: args.labels.map { _ in nil }) }
        if shapeFits {
            for (i, constant) in args.constants.enumerated() {
                guard let constant else { continue }
                let wanted = spec.signatures.compactMap { signature -> ParameterType? in
                    guard let plan = signature.bind(labels: args.labels, values: args.labels.map { _ in nil }),
                          let p = plan.firstIndex(where: { $0.contains(i) }) else { return nil }
                    return signature.parameters[p].type
                }
                if let type = wanted.first, !type.accepts(constant) {
                    let what = type == .function ? "a closure" : (type == .int ? "an Int" : "a \(type.rawValue)")
                    error("'\(name)' needs \(what) here, not \(constant.typeName) \(constant.literal)", args.spans[i],
                          help: type == .function ? "write a closure, as in \(name) { $0 }" : forms)
                    return
                }
            }
        }
        let counts = spec.signatures.map { signature in
            (signature.parameters.filter { !$0.isOptional }.count,
             signature.parameters.contains(where: \.isVariadic) ? Int.max : signature.parameters.count)
        }
        let least = counts.map(\.0).min() ?? 0, most = counts.map(\.1).max() ?? 0
        let given = args.labels.count
        if given < least || given > most {
            let wanted = least == most ? "\(least)" : most == Int.max ? "at least \(least)" : "\(least) to \(most)"
            error("'\(name)' takes \(wanted) argument\(most == 1 && least == 1 ? "" : "s"), got \(given)", nameSpan, help: forms)
            return
        }
        error("wrong arguments for '\(name)'", nameSpan, help: forms)
    }

    /// RxJS's `source.pipe(map(f), filter(p))` is the chain
    /// `source.map(f).filter(p)`: each operator call becomes a method call
    /// on what the previous one made.
    private func piped(_ base: Expr, _ nameSpan: Span, _ arguments: [CallArgument]) -> Expr {
        var chain = base
        for argument in arguments {
            guard argument.label == nil, case .call(.name(let op, let opSpan), let opArguments, let callSpan) = argument.value else {
                error("pipe takes operator calls, as in pipe(map { $0 * 2 }, filter { $0 > 2 })", argument.labelSpan ?? argument.value.span,
                      help: "write the operators in the pipe, or chain them: source.map { ... }")
                continue
            }
            chain = .call(callee: .member(chain, op, nameSpan: opSpan, callSpan), arguments: opArguments, callSpan)
        }
        return chain
    }

    /// Combine's `collect(.byTime(scheduler, stride))` and
    /// `collect(.byTimeOrCount(scheduler, stride, count))` are
    /// `buffer(timeSpan: stride, count: count)`; a bare stride is in
    /// seconds, as a Combine scheduler's is. Nil for any other `collect`.
    private func collectingByTime(_ base: Expr, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span) -> Expr? {
        guard arguments.count == 1, arguments[0].label == nil,
              case .call(.implicitMember(let strategy, _), let given, _) = arguments[0].value,
              given.allSatisfy({ $0.label == nil }),
              strategy == "byTime" && given.count == 2 || strategy == "byTimeOrCount" && given.count == 3 else { return nil }
        var stride = given[1].value
        if case .literal(let value, let at) = stride, value.isNumber {
            stride = .call(callee: .implicitMember("seconds", at), arguments: [CallArgument(label: nil, labelSpan: nil, value: stride, isTrailing: false)], at)
        }
        var bufferArguments = [CallArgument(label: "timeSpan", labelSpan: nil, value: stride, isTrailing: false)]
        if given.count == 3 { bufferArguments.append(CallArgument(label: "count", labelSpan: nil, value: given[2].value, isTrailing: false)) }
        // The scheduler is checked as every `scheduler:` argument is, then dropped.
        bufferArguments.append(CallArgument(label: "scheduler", labelSpan: nil, value: given[0].value, isTrailing: false))
        return .call(callee: .member(base, "buffer", nameSpan: nameSpan, span), arguments: bufferArguments, span)
    }

    // MARK: - Subscribing

    private func compileSubscription(
        _ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], _ span: Span, in scope: Scope
    ) -> CompiledExpression {
        if name == "assign" { return CompiledExpression(compileAssign(compile(base, in: scope), arguments, nameSpan, span, in: scope)) }
        let allowed = Builtins.subscribingLabels[name] ?? []
        for argument in arguments where !allowed.contains(argument.label) {
            error("'\(name)' has no argument labelled '\(argument.label!)'", argument.labelSpan ?? argument.value.span,
                  help: "it takes " + allowed.compactMap { $0.map { "\($0):" } }.joined(separator: ", ")
                      + (allowed.contains(nil) ? " or a trailing closure" : ""))
        }
        let compiledStream = compiled(base, in: scope), stream = compiledStream.code
        let element = compiledStream.type.element
        let args = compileArguments(arguments, in: scope, closureParameters: element.isKnown && compiledStream.typeIsSure ? [element] : nil)
        let env = environment
        let location = self.location(span)
        if name == "bind", args.labels.contains("to") {
            // RxSwift's `bind(to: subject, ...)`: each value is sent to every target.
            return CompiledExpression { frame in
                let observable = try located(location) { try stream(frame).asStream() }
                let targets = try args.evaluate(frame).map { target in
                    try located(location) {
                        guard case .stream(let s) = target, let subject = s as? Subject else {
                            throw FlowError("bind(to:) needs subjects or relays, got \(target.typeName) \(target.literal)")
                        }
                        return subject
                    }
                }
                var handlers = Handlers()
                handlers.next = Function.unary(name: "bind") { value in
                    for target in targets { target.send(value) }
                    return .null
                }
                return .function(env.subscribe(observable, at: location, handlers: handlers))
            }
        }
        let roles = Handlers.roles(of: args.labels, in: name)
        // Combine's `sink` gives an AnyCancellable, which cancels when released.
        let cancelsOnRelease = name == "sink"
        return CompiledExpression({ frame in
            let observable = try located(location) { try stream(frame).asStream() }
            var handlers = Handlers()
            for (role, code) in zip(roles, args.codes) {
                try located(location) { try handlers.set(role, value: code(frame)) }
            }
            let subscriber = env.subscribe(observable, at: location, handlers: handlers)
            return .function(cancelsOnRelease ? CancelOnRelease(subscriber) : subscriber)
        }, direct: specialised(in: scope) { directSubscription(name, compiledStream.direct, arguments, args, span, in: scope) })
    }

    /// Combine's `store(in: &cancellables)`: the subscription kept in the
    /// set (an array here) or `DisposeBag`, which end it when they let go of it.
    func compileStore(_ base: Expr, into target: Expr, _ nameSpan: Span, in scope: Scope) -> Code {
        let subscription = compile(base, in: scope)
        guard let place = compilePlace(target, in: scope) else { return { _ in .null } }
        let location = self.location(nameSpan)
        return { frame in
            let value = try subscription(frame)
            guard case .function(let f) = value, let subscriber = f.subscription else {
                throw FlowError("store(in:) keeps a subscription, got \(value.typeName) \(value.literal)", at: location)
            }
            try place(frame) { held in
                switch held {
                case .function(let bag as DisposeBagValue):
                    bag.insert(subscriber)
                case .array(var items):
                    held = .null
                    items.append(value.keptByAName())
                    held = .array(items)
                default:
                    throw FlowError("store(in:) keeps subscriptions in a Set<AnyCancellable>() or a DisposeBag(), got \(held.typeName) \(held.literal)",
                                    at: location)
                }
            }
            return .null
        }
    }
}
