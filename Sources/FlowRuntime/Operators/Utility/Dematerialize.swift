extension OperatorSpec {
    static let dematerialize = method("dematerialize", .utility, "turns event values back into events", [],
        example: #"""
            let events = cold("-a-b|").materialize()
            marbles(events.dematerialize())
            """#,
        differences: "RxSwift's and RxJS's `dematerialize()`; Combine has none.") { s, _ in s.dematerialize() }
}

extension Observable {
    /// The inverse of `materialize`: event values become events again. A
    /// value that is not an event is an error.
    public func dematerialize() -> Observable {
        SinkNode("dematerialize", self) { observer, _ in DematerializeSink(observer) }
    }
}

final class DematerializeSink: Sink {
    override func onNext(_ value: Value) {
        guard case .event(let event, _) = value else {
            return sendError(FlowError("dematerialize expects events, got \(value.typeName) \(value.literal)"))
        }
        switch event {
        case .next(let v): sendNext(v)
        case .error(let e): sendError(e)
        case .completed: sendCompleted()
        }
    }
}
