extension OperatorSpec {
    static let take = method("take", aliases: ["prefix"], .filtering, "the first n values, then completion", [arg("count", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.take(2))
            """#,
        differences: "RxSwift `take(n)`, Combine `prefix(n)`, RxJS `take(n)`; `take(0)` completes at once.") { $0.take(try $1.int(0)) }
}

extension Observable {
    /// The first `count` values, then completion (the source is cancelled).
    /// `take(0)` completes at once without subscribing to the source.
    public func take(_ count: Int) -> Observable {
        guard count > 0 else { return ClosureNode("take") { o, s, _ in Observable.empty().subscribe(o, on: s) } }
        return TakeNode(count, self)
    }
}

final class TakeStage: Stage {
    @exclusivity(unchecked) var remaining: Int
    init(_ count: Int) { remaining = count }
    override func process(_ value: inout Value) throws -> StageVerdict {
        remaining -= 1
        return remaining > 0 ? .pass : .passThenComplete
    }
}

final class TakeNode: PipelineNode {
    let count: Int

    init(_ count: Int, _ source: Observable) {
        self.count = count
        super.init("take", source)
    }

    override func makeStage() -> Stage { TakeStage(count) }
}
