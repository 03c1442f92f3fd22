extension OperatorSpec {
    static let using = source("using", "makes a resource per subscription and a stream from it; the resource is disposed when the stream ends",
        [arg("resourceFactory", .function), labelled("observableFactory", .function)],
        example: #"""
            let bag = DisposeBag()
            marbles(using({ bag }, observableFactory: { _ in cold("-a-b|") }))
            """#,
        differences: "RxSwift's `Observable.using(_:observableFactory:)` and RxJS's `using(resourceFactory, observableFactory)`. A resource that is a subscription, a `DisposeBag` or a closure is disposed (called) when the stream ends or is disposed; other values are simply dropped. Combine has none.") { args in
        .using(try args.function(0), try args.function(1))
    }
}

extension Observable {
    /// Per subscription: `resourceFactory()`, then the stream
    /// `observableFactory(resource)`; when that stream ends or is disposed,
    /// a resource that can be called (a subscription, a `DisposeBag`) is.
    public static func using(_ resourceFactory: Function, _ observableFactory: Function) -> Observable {
        deferred(Function.variadic(name: "using") { _ in
            let resource = try resourceFactory.call([])
            let stream = try observableFactory.call(resource).asStream()
            guard case .function(let disposer) = resource else { return .stream(stream) }
            return .stream(stream.sideEffects("using", SideEffectHooks(dispose: { _ = try disposer.call([]) })))
        })
    }
}
