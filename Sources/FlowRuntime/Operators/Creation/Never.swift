extension OperatorSpec {
    static let never = source("never", "never emits and never ends", [],
        example: #"""
            marbles(never())
            """#,
        differences: "RxSwift `Observable.never()`, Combine `Empty(completeImmediately: false)`, RxJS `NEVER`.") { _ in .never() }
}

extension Observable {
    /// Never emits and never ends.
    public static func never() -> Observable {
        ClosureNode("never") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
        }
    }
}
