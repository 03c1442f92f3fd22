extension OperatorSpec {
    static let distinctUntilChanged = method("distinctUntilChanged", aliases: ["removeDuplicates"], .filtering, "drops a value equal to the previous one",
        [optionalArg("key", .function)],
        example: #"""
            let source = cold("-a-a-b-a|")
            marbles(source, source.distinctUntilChanged())
            """#) { $0.distinctUntilChanged(key: try $1.optionalFunction(0)) }
}

extension Observable {
    /// Drops a value equal to the one before it (compared by `key` when given).
    public func distinctUntilChanged(key: Function? = nil) -> Observable {
        DistinctUntilChangedNode(key, self)
    }
}

final class DistinctUntilChangedStage: Stage {
    let key: Function?
    @exclusivity(unchecked) var previous: Value?
    init(key: Function?) { self.key = key }
    override func process(_ value: inout Value) throws -> StageVerdict {
        let current = try key?.call(value) ?? value
        defer { previous = current }
        if let previous, previous == current { return .drop }
        return .pass
    }
}

final class DistinctUntilChangedNode: PipelineNode {
    let key: Function?

    init(_ key: Function?, _ source: Observable) {
        self.key = key
        super.init("distinctUntilChanged", source)
    }

    override func makeStage() -> Stage { DistinctUntilChangedStage(key: key) }
}
