extension OperatorSpec {
    static let continuous = OperatorSpec("continuous", .sharing, .method,
        "shares the source and gives each new subscriber its latest value at once, starting from initial when given (CwlSignal)", [
        Signature([]) { .stream(try $0.source().share(replay: 1)) },
        Signature([labelled("initial", .value)]) { .stream(try $0.source().startWith([$0.value(0)!]).share(replay: 1)) },
    ], example: #"""
            let source = cold("-a-b|")
            let latest = source.continuous(initial: "?")
            marbles(latest, latest.delaySubscription(2ms))
            """#,
        differences: "CwlSignal's continuous signal: RxSwift writes `startWith(v).share(replay: 1)`, Combine a CurrentValueSubject, RxJS `startWith(v)` and `shareReplay({ bufferSize: 1, refCount: true })`.")
}
