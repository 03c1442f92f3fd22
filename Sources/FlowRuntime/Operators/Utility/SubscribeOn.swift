extension OperatorSpec {
    static let subscribeOn = method("subscribeOn", aliases: ["subscribe(on:)"], .utility,
        "subscribes to the source on a later turn of the event loop, at the same time",
        [arg("scheduler", .value)],
        example: #"""
            let source = cold("-a-b|")
            marbles(source.subscribe(on: MainScheduler.instance))
            """#,
        differences: "RxSwift `subscribe(on:)`, Combine `subscribe(on:)`, RxJS `subscribeOn`; flow runs on one event loop, so it is a later turn of the loop at the same time.") { source, _ in source.subscribeOn() }
}

extension Observable {
    /// RxSwift's `subscribe(on:)`, Combine's `subscribe(on:)`: the
    /// subscription to the source happens on a later turn of the loop.
    public func subscribeOn() -> Observable {
        ClosureNode("subscribeOn", inputs: [self]) { observer, scheduler, inputs in
            let sink = ForwardingSink(observer)
            sink.announce()
            sink.pendingStart = scheduler.schedule(at: scheduler.now) { [weak sink] in
                guard let sink, !sink.isStopped else { return }
                inputs[0].subscribe(sink, on: scheduler)
            }
        }
    }
}
