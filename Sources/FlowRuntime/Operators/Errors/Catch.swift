extension OperatorSpec {
    static let `catch` = method("catch", aliases: ["catchError", "tryCatch"], .errors,
        "on error, continues with the stream the closure returns; a closure of two parameters also gets the stream itself, to subscribe again (RxJS's caught)",
        [arg("handler", .function)],
        example: #"""
            let source = cold("-a#")
            marbles(source, source.catch { _ in cold("-b|") })
            """#,
        differences: "The closure gets the error's value. RxJS's `catchError((error, caught) => ...)` also gets the stream itself, to subscribe again: flow passes it to a closure of two parameters.") { $0.catch(try $1.function(0)) }
}

extension Observable {
    /// On error, continues with the stream `handler` returns for the
    /// error's value. A throwing handler ends the stream with its error.
    public func `catch`(_ handler: Function) -> Observable {
        guard handler.reads == 2 else {
            return SinkNode("catch", self) { observer, scheduler in
                CatchSink(observer, scheduler: scheduler) { error in try handler.call(error.value).asStream() }
            }
        }
        return CatchWithCaughtNode(self, handler)
    }
}

/// Passes the source on until a subclass switches to another stream in
/// its place (`catch` on an error, `switchIfEmpty` on an empty completion).
class FallbackSink: Sink, InnerHost {
    final let scheduler: Scheduler
    private var fallback: InnerObserver?

    init(_ downstream: Observer, scheduler: Scheduler) {
        self.scheduler = scheduler
        super.init(downstream)
    }

    /// Continue with `next` in place of the source.
    final func switchTo(_ next: Observable) {
        cancelUpstream()
        let inner = InnerObserver(host: self, index: 1)
        fallback = inner
        next.subscribe(inner, on: scheduler)
    }

    final func innerNext(_ inner: InnerObserver, _ value: Value) { sendNext(value) }
    final func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    final func innerCompleted(_ inner: InnerObserver) { sendCompleted() }

    override func disposeResources() {
        fallback?.dispose()
        fallback = nil
    }
}

/// Passes the source on; on error, switches to a replacement stream.
final class CatchSink: FallbackSink {
    private let replacement: (FlowError) throws -> Observable

    init(_ downstream: Observer, scheduler: Scheduler, replacement: @escaping (FlowError) throws -> Observable) {
        self.replacement = replacement
        super.init(downstream, scheduler: scheduler)
    }

    override func onError(_ error: FlowError) {
        let next: Observable
        do { next = try replacement(error) } catch { return sendError(FlowError.wrap(error)) }
        switchTo(next)
    }
}

/// RxJS's `catchError((error, caught) => ...)`: `caught` is this very
/// node, so a handler that returns it subscribes to the source again.
final class CatchWithCaughtNode: Observable {
    private let handler: Function

    init(_ source: Observable, _ handler: Function) {
        self.handler = handler
        super.init(operatorName: "catch", input: source)
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let sink = CatchSink(observer, scheduler: scheduler) { [handler] error in
            try handler.call(error.value, .stream(self)).asStream()
        }
        input.subscribe(sink, on: scheduler)
    }
}
