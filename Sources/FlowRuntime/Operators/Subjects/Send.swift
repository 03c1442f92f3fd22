extension OperatorSpec {
    static let send = subjectMethod("send", aliases: ["onNext"], "pushes a value into a subject", [arg("value", .value)],
        example: #"""
            let s = subject()
            timer(2ms).sink { _ in s.send(7) }
            marbles(s.take(1))
            """#) { subject, args in
        subject.send(args.value(0)!)
    }
}
