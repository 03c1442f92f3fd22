extension OperatorSpec {
    static let asObservable = OperatorSpec("asObservable", aliases: ["eraseToAnyPublisher", "asObserver", "AnyPublisher"], .utility, .both,
        "the stream itself: the libraries' type erasure, which a dynamically typed language does not need", [
        Signature([]) { .stream(try $0.source()) },
        // Combine's `AnyPublisher(publisher)`.
        Signature([arg("source", .stream)]) { .stream(try $0.stream(0)) },
    ], example: #"""
            let source = cold("-a|")
            marbles(source.asObservable(), AnyPublisher(source))
            """#,
        differences: "RxSwift `asObservable()`, Combine `eraseToAnyPublisher()` and `AnyPublisher(publisher)`; RxJS needs none.")
}
