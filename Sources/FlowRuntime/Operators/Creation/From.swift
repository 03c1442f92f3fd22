extension OperatorSpec {
    static let from = OperatorSpec("from", aliases: [Spelling("Sequence", label: "sequence")], .creation, .function,
        "emits each element of an array, then completes; from(optional:) emits the value unless it is nil", [
        Signature([arg("array", .value)]) { .stream(.from(try $0.value(0)!.asArray())) },
        Signature([labelled("optional", .value)]) { args in
            let value = args.value(0)!
            return .stream(value == .null ? .empty() : .from([value]))
        },
    ], example: #"""
            let name: String? = nil
            marbles(from([1, 2, 3]), from(optional: "a"), from(optional: name))
            """#,
        differences: "RxSwift `Observable.from(array)` and `Observable.from(optional:)`, Combine `array.publisher` (`Publishers.Sequence`) and `Optional.Publisher`, RxJS `from(array)` (which also takes promises and iterables).")
}

extension Observable {
    /// Emits each value in order, then completes. (`of`, and `from` on an array.)
    public static func from(_ values: [Value], name: String = "from") -> Observable {
        ClosureNode(name) { observer, _, _ in
            let downstream = StopSignal(subscribing: observer)
            for value in values {
                if downstream.isStopped { return }
                observer.onNext(value)
            }
            if !downstream.isStopped { observer.onCompleted() }
        }
    }
}
