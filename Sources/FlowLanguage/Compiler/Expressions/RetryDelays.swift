import FlowRuntime

extension Compiler {
    /// `.exponential(initial: 1s, max: 30s, jitter: true)`, the delay
    /// strategy `retry(_:delay:)` reads (`RetryDelay`): a case value whose
    /// labels are checked here, where they are written.
    func compileExponentialDelay(_ arguments: [CallArgument], _ span: Span, in scope: Scope) -> Code {
        let allowed = ["initial", "max", "jitter"]
        for argument in arguments where argument.label.map({ !allowed.contains($0) }) ?? true {
            error("'.exponential' takes initial:, max: and jitter:", argument.labelSpan ?? argument.value.span,
                  help: argument.label.flatMap { Suggestions.didYouMean($0, among: allowed) } ?? "as in .exponential(initial: 1s, max: 30s, jitter: true)")
        }
        if !arguments.contains(where: { $0.label == "initial" }) {
            error("'.exponential' needs initial:, the first delay", span, help: "as in .exponential(initial: 1s, max: 30s)")
        }
        let args = compileArguments(arguments, in: scope)
        let labels = args.labels, nominal = Compiler.exponentialDelay
        return { frame in .tuple(Tuple(try args.evaluate(frame), labels: labels, nominal: nominal)) }
    }

    static let exponentialDelay = Nominal(type: "RetryDelay", caseName: "exponential")
}
