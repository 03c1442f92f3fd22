extension OperatorSpec {
    static let create = source("create", aliases: ["Observable.create"],
        "calls the closure on each subscription with an emitter: onNext (next) sends a value, onCompleted (complete) or onError (error) ends the stream; a closure it returns runs when the subscription ends",
        [arg("subscribe", .function)],
        example: #"""
            let numbers = create { observer in
              observer.onNext(1)
              observer.onNext(2)
              observer.onCompleted()
              return Disposables.create()
            }
            marbles(numbers)
            """#,
        differences: "RxSwift `Observable.create { observer in ... return Disposables.create { } }` and RxJS `new Observable(subscriber => ...)`, whose teardown runs when the subscription ends; Combine has no create (a `PassthroughSubject` or a `Future` stands in).") { .create(try $0.function(0)) }
}

extension Observable {
    /// RxSwift's `Observable.create`: each subscription calls `subscribe`
    /// with an emitter (a subject whose only observer is this subscriber).
    /// A function it returns is the teardown, run once when the
    /// subscription ends, by a terminal event or by disposal.
    public static func create(_ subscribe: Function) -> Observable {
        ClosureNode("create") { observer, scheduler, _ in
            let sink = CreateSink(observer)
            sink.announce()
            let emitter = PublishSubject()
            emitter.subscribe(sink, on: scheduler)
            do {
                let teardown = try subscribe.call(.stream(emitter))
                if case .function(let f) = teardown { sink.teardown = f }
            } catch {
                sink.onError(FlowError.wrap(error))
            }
            if sink.isStopped { sink.runTeardown() }
        }
    }
}

final class CreateSink: Sink {
    var teardown: Function?

    override func disposeResources() { runTeardown() }

    func runTeardown() {
        let f = teardown
        teardown = nil
        _ = try? f?.call([])
    }
}
