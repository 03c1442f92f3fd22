extension OperatorSpec {
    static let asObservable = method("asObservable", aliases: ["eraseToAnyPublisher", "asObserver", "asDriver", "asSignal"], .utility,
        "the stream itself: the libraries' type erasure, which a dynamically typed language does not need", [],
        example: #"""
            let source = cold("-a|")
            marbles(source.asObservable())
            """#,
        differences: "RxSwift `asObservable()`, Combine `eraseToAnyPublisher()`; RxJS needs none.") { source, _ in source }
}
