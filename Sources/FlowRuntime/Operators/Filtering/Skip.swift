extension OperatorSpec {
    static let skip = method("skip", aliases: [Spelling("dropFirst", implied: [(nil, .int(1))])], .filtering, "drops the first n values", [arg("count", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.skip(2))
            """#,
        differences: "RxSwift `skip(n)`, Combine `dropFirst(n)`, RxJS `skip(n)`.") { $0.skip(try $1.int(0)) }
}

extension Observable {
    /// All but the first `count` values.
    public func skip(_ count: Int) -> Observable {
        SkipNode(count, self)
    }
}

final class SkipStage: Stage {
    @exclusivity(unchecked) var remaining: Int
    init(_ count: Int) { remaining = count }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if remaining > 0 { remaining -= 1; return .drop }
        return .pass
    }
}

final class SkipNode: PipelineNode {
    let count: Int

    init(_ count: Int, _ source: Observable) {
        self.count = count
        super.init("skip", source)
    }

    override func makeStage() -> Stage { SkipStage(count) }
}
