extension OperatorSpec {
    static let fail = subjectMethod("fail", aliases: ["onError", "error", "send(error:)"], "fails a subject with an error value", [arg("error", .value)],
        example: #"""
            let s = subject()
            timer(2ms).sink { _ in s.fail("broken") }
            marbles(s)
            """#,
        differences: "RxSwift `onError(e)`, Combine `send(completion: .failure(e))`, RxJS `error(e)`.") { subject, args in
        subject.fail(FlowError(args.value(0)!, at: args.context.location))
    }
}
