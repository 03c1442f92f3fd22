extension OperatorSpec {
    static let asDriver = OperatorSpec("asDriver", aliases: ["asSignal"], .sharing, .method,
        "RxCocoa's UI stream: never fails (an error becomes the given value, stream or recovery), shared, and a late subscriber gets the latest value (asDriver) or only what comes next (asSignal)", [
        Signature([labelled("onErrorJustReturn", .value)]) { args in
            .stream(try args.source().catchAndReturn(args.value(0)!).uiShared(replaysLatest: args.name != "asSignal"))
        },
        Signature([labelled("onErrorDriveWith", .stream)]) { args in
            let fallback = try args.stream(0)
            let handler = Function.unary(name: args.name) { _ in .stream(fallback) }
            return .stream(try args.source().catch(handler).uiShared(replaysLatest: args.name != "asSignal"))
        },
        Signature([labelled("onErrorSignalWith", .stream)]) { args in
            let fallback = try args.stream(0)
            return .stream(try args.source().catch(Function.unary(name: args.name) { _ in .stream(fallback) }).uiShared(replaysLatest: false))
        },
        Signature([labelled("onErrorRecover", .function)]) { args in
            .stream(try args.source().catch(args.function(0)).uiShared(replaysLatest: args.name != "asSignal"))
        },
        Signature([]) { args in .stream(try args.source().uiShared(replaysLatest: args.name != "asSignal")) },
    ], example: #"""
            let source = cold("-a-b-#")
            let driver = source.asDriver(onErrorJustReturn: "-")
            marbles(source, driver, driver.delaySubscription(2ms))
            """#,
        differences: "RxCocoa's `asDriver(onErrorJustReturn:)` (also `onErrorDriveWith:`, `onErrorRecover:`) and `asSignal(...)`; a Driver replays its latest value to a new subscriber (`share(replay: 1)`), a Signal does not (`share()`). Both deliver on the main thread, which here is the one loop every event is on. `drive` and `emit` subscribe them. Combine and RxJS have no such types.")
}

extension Observable {
    /// Shared while subscribed, replaying the latest value when asked (a
    /// Driver) or nothing (a Signal).
    func uiShared(replaysLatest: Bool) -> Observable {
        share(replay: replaysLatest ? 1 : 0)
    }
}
