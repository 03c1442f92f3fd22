extension OperatorSpec {
    static let asDriver = OperatorSpec("asDriver", aliases: ["asSignal"], .sharing, .method,
        "RxCocoa's UI stream: never fails (an error becomes the given value, stream or recovery), shared, and a late subscriber gets the latest value (asDriver) or only what comes next (asSignal)", [
        Signature([labelled("onErrorJustReturn", .value)]) { args in try shared(args) { $0.catchAndReturn(args.value(0)!) } },
        Signature([labelled("onErrorDriveWith", .stream)]) { args in try shared(args) { try $0.fallingBack(to: args.stream(0), name: args.name) } },
        Signature([labelled("onErrorSignalWith", .stream)]) { args in
            try shared(args, replaysLatest: false) { try $0.fallingBack(to: args.stream(0), name: args.name) }
        },
        Signature([labelled("onErrorRecover", .function)]) { args in try shared(args) { try $0.catch(args.function(0)) } },
        Signature([]) { args in try shared(args) { $0 } },
    ], example: #"""
            let source = cold("-a-b-#")
            let driver = source.asDriver(onErrorJustReturn: "-")
            marbles(source, driver, driver.delaySubscription(2ms))
            """#,
        differences: "RxCocoa's `asDriver(onErrorJustReturn:)` (also `onErrorDriveWith:`, `onErrorRecover:`) and `asSignal(...)`; a Driver replays its latest value to a new subscriber (`share(replay: 1)`), a Signal does not (`share()`). Both deliver on the main thread, which here is the one loop every event is on. `drive` and `emit` subscribe them. Combine and RxJS have no such types.")
}

extension OperatorSpec {
    /// The source made never to fail by `recovering`, then shared while
    /// subscribed: a Driver replays its latest value to a late subscriber,
    /// a Signal (`asSignal`) does not.
    private static func shared(_ args: Arguments, replaysLatest: Bool? = nil,
                               recovering: (Observable) throws -> Observable) throws -> Value {
        .stream(try recovering(args.source()).share(replay: replaysLatest ?? (args.name != "asSignal") ? 1 : 0))
    }
}

extension Observable {
    /// On error, `fallback` in place of the source.
    func fallingBack(to fallback: Observable, name: String) -> Observable {
        self.catch(Function.unary(name: name) { _ in .stream(fallback) })
    }
}
