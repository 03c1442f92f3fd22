extension OperatorSpec {
    static let complete = subjectMethod("complete", aliases: ["onCompleted", "close"], "completes a subject", [],
        example: #"""
            let s = subject()
            timer(2ms).sink { _ in s.complete() }
            marbles(s)
            """#,
        differences: "RxSwift `onCompleted()`, Combine `send(completion: .finished)`, RxJS `complete()`.") { subject, _ in subject.complete() }
}
