extension OperatorSpec {
    static let `repeat` = OperatorSpec("repeat", .utility, .method,
        "when the source completes, subscribes to it again: count subscriptions in all (with no count, for ever)", [
        Signature([arg("count", .int).nonNegative()]) { .stream(try $0.source().repeat(try $0.int(0))) },
        Signature([]) { .stream(try $0.source().repeat(Int.max)) },
    ], example: #"""
            let source = cold("-a|")
            marbles(source, source.repeat(3))
            """#,
        differences: "RxJS's `repeat(n)`, where n counts subscriptions (n = 1 is the source once); Combine has none.")
}

extension Observable {
    /// RxJS's `repeat`: `count` subscriptions in all, one after another
    /// (`Int.max` for ever); `repeat(0)` completes at once.
    public func `repeat`(_ count: Int) -> Observable {
        guard count > 0 else { return .empty() }
        return ClosureNode("repeat", inputs: [self]) { observer, scheduler, inputs in
            RetrySink(observer, scheduler: scheduler, source: inputs[0], retries: count == Int.max ? count : count - 1, on: .completion).start()
        }
    }
}
