extension OperatorSpec {
    static let create = OperatorSpec("create", aliases: ["Observable.create"], .creation, .function,
        "calls the closure on each subscription with an emitter: onNext (next) sends a value, onCompleted (complete) or onError (error) ends the stream; a closure it returns runs when the subscription ends. Without a closure, CwlSignal's pair (input, signal): what is sent to the input, the signal emits", [
        Signature([arg("subscribe", .function)]) { .stream(.create(try $0.function(0))) },
        // CwlSignal's `Signal<T>.create()`.
        Signature([]) { _ in
            let subject = PublishSubject()
            return .tuple(Tuple([.stream(subject), .stream(subject)], labels: ["input", "signal"]))
        },
    ], example: #"""
            let numbers = create { observer in
              observer.onNext(1)
              observer.onNext(2)
              observer.onCompleted()
              return Disposables.create()
            }
            marbles(numbers)
            """#,
        differences: "RxSwift `Observable.create { observer in ... return Disposables.create { } }` and RxJS `new Observable(subscriber => ...)`, whose teardown runs when the subscription ends; Combine has no create (a `PassthroughSubject` or a `Future` stands in). CwlSignal's `Signal<T>.create()` returns `(input, signal)`: `input.send(value:)`, `input.complete()` and `input.send(error:)` feed the signal, as a subject does.")
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
