extension OperatorSpec {
    static let breakpoint = OperatorSpec("breakpoint", .utility, .method,
        "prints where and why when a closure says so (Combine stops in the debugger), then goes on unchanged", [
        Signature(["receiveSubscription", "receiveOutput", "receiveCompletion"].map { labelled($0, .function, optional: true) }) { args in
            .stream(try args.source().breakpoint(
                subscription: args.optionalFunction(0), output: args.optionalFunction(1), completion: args.optionalFunction(2),
                at: args.context.location, report: args.context.output, spelling: args.context.dialect.completionSpelling))
        },
    ], example: #"""
            let source = cold("-1-5-2|")
            marbles(source.breakpoint(receiveOutput: { $0 > 3 }))
            """#,
        differences: "Combine's `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)` raises SIGTRAP to stop in a debugger when a closure returns true; flow has no debugger and never traps, so it prints a line naming the place and the event instead. `breakpointOnError()` is `breakpoint(receiveCompletion: { $0.kind == \"error\" })`.")
}

extension Observable {
    /// The source unchanged; each event for which its closure returns true
    /// is reported through `output` with the place of the call.
    public func breakpoint(
        subscription: Function?, output: Function?, completion: Function?, at location: SourceLocation?,
        report print: @escaping (String) -> Void, spelling: Event.Spelling
    ) -> Observable {
        let place = location.map { "breakpoint at \($0)" } ?? "breakpoint"
        func check(_ closure: Function?, _ argument: Value, _ what: String) throws {
            if let closure, try closure.test(argument) { print("\(place): \(what)") }
        }
        func checkEnd(_ event: Event) throws {
            let end = Value.event(event, spelling)
            try check(completion, end, "receive \(end)")
        }
        return sideEffects("breakpoint", SideEffectHooks(
            next: output.map { _ in { value in try check(output, value, "receive value: (\(value.literal))") } },
            error: completion.map { _ in { error in try checkEnd(.error(error)) } },
            completed: completion.map { _ in { try checkEnd(.completed) } },
            subscribe: subscription.map { _ in { try check(subscription, .null, "receive subscription") } }))
    }
}
