extension OperatorSpec {
    static let complete = subjectMethod("complete", aliases: ["onCompleted"], "completes a subject", [],
        example: #"""
            let s = subject()
            timer(2ms).sink { _ in s.complete() }
            marbles(s)
            """#) { subject, _ in subject.complete() }
}
