extension OperatorSpec {
    static let materialize = method("materialize", .utility, "emits each event as a value: next(v), error(e), completed", [],
        example: #"""
            let source = cold("-a-#")
            marbles(source, source.materialize().map { $0.kind })
            """#,
        differences: "RxSwift's and RxJS's `materialize()`; Combine has none.") { s, _ in s.materialize() }
}

extension Observable {
    /// Each event as a value (`next(v)`, `error(e)`, `completed`, with members
    /// `kind`, `value`, `error`); completes after the source's terminal event.
    public func materialize() -> Observable {
        SinkNode("materialize", self) { observer, _ in MaterializeSink(observer) }
    }
}

final class MaterializeSink: Sink {
    override func onNext(_ value: Value) { sendNext(.event(.next(value))) }

    override func onError(_ error: FlowError) {
        sendNext(.event(.error(error)))
        sendCompleted()
    }

    override func onCompleted() {
        sendNext(.event(.completed))
        sendCompleted()
    }
}
