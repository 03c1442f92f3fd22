extension OperatorSpec {
    static let just = source("just", aliases: ["Just"], "emits one value, then completes", [arg("value", .value)],
        example: #"""
            marbles(just(1))
            """#,
        differences: "RxSwift `Observable.just(x)`, Combine `Just(x)` (which cannot fail), RxJS `of(x)`.") { .just($0.value(0)!) }
}

extension Observable {
    /// Emits `value`, then completes.
    public static func just(_ value: Value) -> Observable {
        JustNode(value)
    }
}

/// `just`: common enough inside `flatMap` closures to deserve a node that
/// allocates nothing but itself.
final class JustNode: Observable {
    let value: Value

    init(_ value: Value) {
        self.value = value
        super.init(operatorName: "just")
    }

    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let downstream = StopSignal(subscribing: observer)
        if !downstream.isStopped { observer.onNext(value) }
        if !downstream.isStopped { observer.onCompleted() }
    }
}
