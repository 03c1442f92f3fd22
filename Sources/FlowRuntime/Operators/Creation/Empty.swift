extension OperatorSpec {
    static let empty = source("empty", aliases: ["Empty"], "completes at once", [],
        example: #"""
            marbles(empty())
            """#) { _ in .empty() }
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
