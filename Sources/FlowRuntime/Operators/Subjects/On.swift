extension OperatorSpec {
    static let on = subjectMethod("on", aliases: [], "delivers an event to a subject: .next(v), .error(e) or .completed (RxSwift's on)",
        [arg("event", .value)],
        example: #"""
            let s = subject()
            timer(1ms).sink { _ in s.on(.next("a")) }
            timer(2ms).sink { _ in s.on(.completed) }
            marbles(s)
            """#) { subject, args in
        switch args.value(0)! {
        case .event(.next(let value)): subject.send(value)
        case .event(.completed): subject.complete()
        case .event(.error(let error)): subject.fail(error.located(at: args.context.location))
        case let other:
            throw FlowError("on takes .next(value), .error(error) or .completed, got \(other.typeName) \(other.literal)",
                            at: args.context.location)
        }
    }
}
