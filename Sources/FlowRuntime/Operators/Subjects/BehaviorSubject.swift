extension OperatorSpec {
    static let behaviorSubject = OperatorSpec("behaviorSubject", aliases: [
        "CurrentValueSubject", Spelling("BehaviorSubject", label: "value"), "BehaviorSubject", Spelling("BehaviorRelay", label: "value"),
    ], .subjects, .function,
        "a subject holding a current value (read with .value), replayed to each new subscriber", [
        Signature([arg("initial", .value)]) { .stream(BehaviorSubject($0.value(0)!)) },
    ], example: #"""
            let s = behaviorSubject(0)
            timer(2ms).sink { _ in s.send(1) }
            marbles(s.take(2))
            """#,
        differences: "RxSwift `BehaviorSubject(value:)` (and `BehaviorRelay`, which never ends), Combine `CurrentValueSubject`, RxJS `BehaviorSubject`: a new subscriber gets the current value first.")
}

/// Holds a current value, replayed to each new subscriber.
public final class BehaviorSubject: Subject {
    public private(set) var value: Value

    public init(_ initial: Value) {
        value = initial
        super.init(name: "behaviorSubject")
    }

    override func recordNext(_ value: Value) { self.value = value }

    override func convertHeldValues(with convert: (Value) -> Value) { value = convert(value) }

    override func replay(to observer: Observer) {
        if terminal == nil { observer.onNext(value) }
    }
}
