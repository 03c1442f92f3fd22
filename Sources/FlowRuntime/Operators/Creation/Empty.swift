extension OperatorSpec {
    static let empty = OperatorSpec("empty", aliases: ["Empty"], .creation, .function,
        "completes at once (Combine's Empty(completeImmediately: false) never completes)", [
        Signature([]) { _ in .stream(.empty()) },
        Signature([labelled("completeImmediately", .bool)]) { .stream(try $0.bool(0, default: true) ? .empty() : .never()) },
    ], example: #"""
            marbles(empty(), Empty(completeImmediately: false))
            """#,
        differences: "RxSwift `Observable.empty()`, Combine `Empty()`, RxJS `EMPTY`: all complete at once (Combine's `Empty(completeImmediately: false)` never ends, which is `never()`).")
}

extension Observable {
    /// Completes at once.
    public static func empty() -> Observable {
        ClosureNode("empty") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
            observer.onCompleted()
        }
    }
}
