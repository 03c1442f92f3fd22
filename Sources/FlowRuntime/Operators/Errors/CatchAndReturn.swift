extension OperatorSpec {
    static let catchAndReturn = method("catchAndReturn", aliases: ["catchErrorJustReturn", "replaceError(with:)"], .errors, "on error, emits a value and completes",
        [arg("value", .value)],
        example: #"""
            let source = cold("-a#")
            marbles(source, source.catchAndReturn("z"))
            """#,
        differences: "RxSwift `catchAndReturn` (once `catchErrorJustReturn`), Combine `replaceError(with:)`, RxJS `catchError(() => of(x))`.") { $0.catchAndReturn($1.value(0)!) }
}

extension Observable {
    /// On error, emits `value` and completes.
    public func catchAndReturn(_ value: Value) -> Observable {
        SinkNode("catchAndReturn", self) { observer, scheduler in
            CatchSink(observer, scheduler: scheduler) { _ in .just(value) }
        }
    }
}
