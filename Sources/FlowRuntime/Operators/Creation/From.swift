extension OperatorSpec {
    static let from = source("from", aliases: [Spelling("Sequence", label: "sequence")], "emits each element of an array, then completes", [arg("array", .value)],
        example: #"""
            marbles(from([1, 2, 3]))
            """#,
        differences: "RxSwift `Observable.from(array)`, Combine `array.publisher` (`Publishers.Sequence`), RxJS `from(array)` (which also takes promises and iterables).") { args in
        .from(try args.value(0)!.asArray())
    }
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
