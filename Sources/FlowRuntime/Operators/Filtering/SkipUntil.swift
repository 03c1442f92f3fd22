extension OperatorSpec {
    static let skipUntil = method("skipUntil", aliases: ["skip(until:)", "drop(untilOutputFrom:)"], .filtering, "drops values until another stream emits",
        [arg("other", .stream)],
        example: #"""
            let source = cold("-a-b-c-d|")
            let start = cold("--x")
            marbles(source, start, source.skipUntil(start))
            """#,
        differences: "RxSwift `skip(until:)`, Combine `drop(untilOutputFrom:)`, RxJS `skipUntil`.") { $0.skipUntil(try $1.stream(0)) }
}

extension Observable {
    /// Drops values until `other` emits a value, then passes the rest. If
    /// `other` completes without a value, nothing passes.
    public func skipUntil(_ other: Observable) -> Observable {
        ClosureNode("skipUntil", inputs: [self, other]) { observer, scheduler, inputs in
            GateSink(observer, scheduler: scheduler, mode: .skipUntil).start(source: inputs[0], gate: inputs[1])
        }
    }
}
