extension OperatorSpec {
    static let delaySubscription = method("delaySubscription", .time, "subscribes to the source after a duration", [arg("dueTime", .duration).nonNegative()],
        example: #"""
            let source = cold("a-b|")
            marbles(source, source.delaySubscription(2ms))
            """#,
        differences: "RxSwift's `delaySubscription(_:scheduler:)`; RxJS writes `timer(d).pipe(switchMap(() => s))`.") {
        $0.delaySubscription(try $1.duration(0))
    }
}

extension Observable {
    /// Subscribes to the source `dueTime` after being subscribed.
    public func delaySubscription(_ dueTime: TimeSpan) -> Observable {
        ClosureNode("delaySubscription", inputs: [self]) { observer, scheduler, inputs in
            let sink = ForwardingSink(observer)
            sink.announce()
            sink.pendingStart = scheduler.schedule(after: dueTime) { [weak sink] in
                guard let sink, !sink.isStopped else { return }
                inputs[0].subscribe(sink, on: scheduler)
            }
        }
    }
}

/// Passes everything through; owns a disposable for work not yet started.
final class ForwardingSink: Sink {
    var pendingStart: Disposable?
    override func disposeResources() {
        pendingStart?.dispose()
        pendingStart = nil
    }
}
