extension OperatorSpec {
    static let deferred = source("deferred", aliases: ["defer", "Deferred"], "calls the closure on each subscription and subscribes to the stream it returns",
        [arg("factory", .function)],
        example: #"""
            marbles(deferred { just(42) })
            """#,
        differences: "RxSwift `Observable.deferred { }`, Combine `Deferred { }`, RxJS `defer(() => ...)`: each calls the closure on every subscription.") { .deferred(try $0.function(0)) }
}

extension Observable {
    /// Calls `factory` on each subscription and subscribes to the stream it
    /// returns; an error thrown by the factory is the stream's error.
    public static func deferred(_ factory: Function) -> Observable {
        ClosureNode("deferred") { observer, scheduler, _ in
            let stream: Observable
            do {
                stream = try factory.call([]).asStream()
            } catch {
                observer.onSubscribe(NopDisposable.shared)
                observer.onError(FlowError.wrap(error))
                return
            }
            stream.subscribe(observer, on: scheduler)
        }
    }
}
