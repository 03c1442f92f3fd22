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
    /// The written arguments the operator takes, by index; nil for all.
    let taken: [Int]?
    /// Arguments the spelling implies, after the taken ones.
    let implied: [Value]
    let form: CallForm

    /// Arguments that choose where events are delivered. flow has one
    /// loop, so they are checked, then left out.
    static let schedulingLabels: Set<String> = ["scheduler", "options"]

    init?(_ name: String, labels written: [String?]) {
        let kept = written.indices.filter { written[$0].map { !Self.schedulingLabels.contains($0) } ?? true }
        let keptLabels = kept.map { written[$0] }
        guard let (spec, spelling) = operatorTable.resolve(name, labels: keptLabels) else { return nil }
        let (canonical, implied) = spelling?.adapt(keptLabels) ?? (keptLabels, [])
        self.spec = spec
        self.labels = canonical
        self.taken = kept.count == written.count ? nil : kept
        self.implied = implied
        // A bare number is seconds in Combine's forms (`for:`, a scheduler
        // argument), milliseconds otherwise (RxJS).
        form = CallForm(name: name, numbersAreSeconds: kept.count < written.count || spelling?.takesSeconds == true)
    }

    /// A module's function or method, called as written.
    init(_ spec: OperatorSpec) {
        self.spec = spec
        labels = []
        taken = nil
        implied = []
        form = CallForm()
    }

    /// The name as written, for messages.
    var name: String { form.name ?? spec.name }

    /// Whether the operator gets exactly the written arguments.
    var passesArgumentsAsWritten: Bool { taken == nil && implied.isEmpty }

    /// The operator's arguments, from the written ones.
    func arguments(_ written: [Value]) -> [Value] {
        if passesArgumentsAsWritten { return written }
        return (taken?.map { written[$0] } ?? written) + implied
    }
}

extension Compiler.CompiledArguments {
    /// These arguments as `call`'s operator takes them. Implied arguments
    /// are shown at `span` (the operator's name) in messages.
    func adapted(to call: OperatorCall, impliedAt span: Span) -> Self {
        if call.passesArgumentsAsWritten { return self }
        let indices = call.taken ?? Array(codes.indices)
        let implied = call.implied
        let codes = indices.map { self.codes[$0] } + implied.map { value in { (_: Frame) in value } }
        let evaluate = self.evaluate
        return Self(labels: call.labels, codes: codes,
                    constants: indices.map { constants[$0] } + implied.map(Optional.some),
                    spans: indices.map { spans[$0] } + implied.map { _ in span },
                    evaluate: { frame in call.arguments(try evaluate(frame)) })
    }
}
