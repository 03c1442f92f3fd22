extension OperatorSpec {
    static let on = subjectMethod("on", aliases: [], "delivers an event to a subject: .next(v), .error(e) or .completed (RxSwift's on)",
        [arg("event", .value)],
        example: #"""
            let s = subject()
            timer(1ms).sink { _ in s.on(.next("a")) }
            timer(2ms).sink { _ in s.on(.completed) }
            marbles(s)
            """#,
        differences: "RxSwift's `on(.next(v))`, `on(.error(e))`, `on(.completed)`; Combine and RxJS send each kind of event with a method of its own.") { subject, args in
        guard case .event(let event, _) = args.value(0)! else {
            let other = args.value(0)!
            throw FlowError("on takes .next(value), .error(error) or .completed, got \(other.typeName) \(other.literal)",
                            at: args.context.location)
        }
        subject.send(event: event.located(at: args.context.location))
    }
}
