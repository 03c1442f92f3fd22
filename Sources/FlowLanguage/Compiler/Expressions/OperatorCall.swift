import FlowRuntime

/// A call of a runtime operator as the script wrote it, resolved once when
/// compiling: which operator it means, the labels that operator's
/// signatures expect, which of the written arguments it takes, and what
/// the spelling implies. `take(until: s)` is `takeUntil(s)`;
/// `debounce(for: 0.5, scheduler: RunLoop.main)` is `debounce` with 0.5
/// seconds (the scheduler is dropped: every event runs on flow's one loop).
struct OperatorCall {
    let spec: OperatorSpec
    /// The labels as the operator's signatures expect them.
    let labels: [String?]
    /// Where each of the operator's arguments comes from; nil when they are
    /// the written ones as written.
    let sources: [Source]?
    let form: CallForm

    enum Source {
        case argument(Int)
        case constant(Value)
    }

    /// Arguments that choose where events are delivered. flow has one
    /// loop, so they are checked, then left out.
    static let schedulingLabels: Set<String> = ["scheduler", "options"]

    init?(_ name: String, labels written: [String?], method: Bool) {
        let kept = written.indices.filter { written[$0].map { !Self.schedulingLabels.contains($0) } ?? true }
        let keptLabels = kept.map { written[$0] }
        guard let (spec, spelling) = operatorTable.resolve(name, labels: keptLabels, method: method) else { return nil }
        self.spec = spec
        let adapted: [(label: String?, source: Source)]
        if let spelling {
            adapted = spelling.adapt(keptLabels).map { entry in
                switch entry.source {
                case .argument(let i): (entry.label, .argument(kept[i]))
                case .implied(let k): (entry.label, .constant(spelling.implied[k].value.value))
                }
            }
        } else {
            adapted = kept.map { (written[$0], .argument($0)) }
        }
        labels = adapted.map(\.label)
        let asWritten = adapted.count == written.count && adapted.enumerated().allSatisfy { i, entry in
            if case .argument(i) = entry.source { entry.label == written[i] } else { false }
        }
        sources = asWritten ? nil : adapted.map(\.source)
        // A bare number is seconds in Combine's forms (`for:`, a scheduler
        // argument), milliseconds otherwise (RxJS).
        form = CallForm(name: name, numbersAreSeconds: kept.count < written.count || spelling?.takesSeconds == true)
    }

    /// A module's function or method, called as written.
    init(_ spec: OperatorSpec) {
        self.spec = spec
        labels = []
        sources = nil
        form = CallForm()
    }

    /// The name as written, for messages.
    var name: String { form.name ?? spec.name }

    /// Whether the operator gets exactly the written arguments.
    var passesArgumentsAsWritten: Bool { sources == nil }

    /// The operator's arguments, from the written ones.
    func arguments(_ written: [Value]) -> [Value] {
        guard let sources else { return written }
        return sources.map { source in
            switch source {
            case .argument(let i): written[i]
            case .constant(let value): value
            }
        }
    }
}

extension Compiler.CompiledArguments {
    /// These arguments as `call`'s operator takes them. Implied arguments
    /// are shown at `span` (the operator's name) in messages.
    func adapted(to call: OperatorCall, impliedAt span: Span) -> Self {
        guard let sources = call.sources else { return self }
        var codes: [Code] = [], constants: [Value?] = [], spans: [Span] = []
        for source in sources {
            switch source {
            case .argument(let i):
                codes.append(self.codes[i])
                constants.append(self.constants[i])
                spans.append(self.spans[i])
            case .constant(let value):
                codes.append { _ in value }
                constants.append(value)
                spans.append(span)
            }
        }
        let evaluate = self.evaluate
        return Self(labels: call.labels, codes: codes, writtenDirects: writtenDirects, constants: constants, spans: spans,
                    evaluate: { frame in call.arguments(try evaluate(frame)) })
    }
}

/// What a method call `receiver.name(...)` means, decided in one place:
/// an operator of the table, a collection helper on arrays
/// and strings, or a module's method on the values it makes
/// (`response.json()`). A name may be both an operator and a helper
/// (`first`, `map`): the receiver decides when the script runs.
struct MethodMeaning {
    /// The operator or module method, if the name is one.
    let call: OperatorCall?
    /// Whether the name is a collection helper.
    let isHelper: Bool

    /// Nil when the name is none of these.
    init?(_ name: String, labels: [String?], modules: [String: BuiltinModule]) {
        isHelper = ValueMethods.readingNames.contains(name)
        if let call = OperatorCall(name, labels: labels, method: true), call.spec.form != .function {
            self.call = call
        } else if !isHelper, let method = Self.moduleMethod(name, in: modules) {
            self.call = OperatorCall(method)
        } else if isHelper {
            self.call = nil
        } else {
            return nil
        }
    }

    private static func moduleMethod(_ name: String, in modules: [String: BuiltinModule]) -> OperatorSpec? {
        for module in modules.values { if let method = module.methods.first(where: { $0.name == name }) { return method } }
        return nil
    }
}
