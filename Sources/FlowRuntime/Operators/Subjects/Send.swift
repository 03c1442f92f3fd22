extension OperatorSpec {
    static let send = OperatorSpec("send", aliases: ["onNext", "next", "accept", "send(value:)"], .subjects, .method,
        "pushes a value into a subject (no value: Combine's send() of Void); send(completion: .finished) or .failure(e) ends it", [
        Signature([arg("value", .value)]) { args in
            try args.subject().send(args.value(0)!)
            return .null
        },
        Signature([]) { args in
            try args.subject().send(.tuple([]))
            return .null
        },
        Signature([labelled("completion", .value)]) { args in
            guard case .event(let event, _) = args.value(0)!, event.isTerminal else {
                let other = args.value(0)!
                throw FlowError("send(completion:) takes .finished or .failure(error), got \(other.typeName) \(other.literal)",
                                at: args.context.location)
            }
            try args.subject().send(event: event.located(at: args.context.location))
            return .null
        },
    ], example: #"""
            let s = subject()
            timer(2ms).sink { _ in s.send(7) }
            timer(3ms).sink { _ in s.send(completion: .finished) }
            marbles(s)
            """#,
        differences: "Combine's `send`; RxSwift's `onNext` (`accept` on a relay), RxJS's `next`.", traits: .sendsIntoSubject)
}

extension Arguments {
    /// The subject a subject method is called on.
    func subject() throws -> Subject {
        guard case .stream(let s)? = receiver, let subject = s as? Subject else {
            throw FlowError("\(name) needs a subject, such as one made by subject()", at: context.location)
        }
        return subject
    }
}
