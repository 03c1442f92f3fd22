extension OperatorSpec {
    static let distinctUntilChanged = method("distinctUntilChanged", aliases: ["removeDuplicates", "removeDuplicates(by:)", "tryRemoveDuplicates", "distinctUntilChanged(at:)"],
        .filtering,
        "drops a value equal to the previous one; a closure of one parameter gives the key to compare, of two ({ $0.id == $1.id }) says whether two values are equal",
        [optionalArg("keyOrComparator", .function)],
        example: #"""
            let source = cold("-a-a-b-a|")
            marbles(source, source.distinctUntilChanged())
            """#,
        differences: "A one-parameter closure is a key (RxSwift's `distinctUntilChanged { $0.id }` and `distinctUntilChanged(at: \\.id)`, RxJS's second argument), a two-parameter closure an equality test (RxSwift's comparer, Combine's `removeDuplicates(by:)`, RxJS's comparator).") { $0.distinctUntilChanged(key: try $1.optionalFunction(0)) }
}

extension Observable {
    /// Drops a value equal to the one before it: compared by `key` when it
    /// reads one argument, or by `key` itself when it reads two (RxSwift's
    /// comparer, Combine's `removeDuplicates(by:)`, RxJS's comparator).
    public func distinctUntilChanged(key: Function? = nil) -> Observable {
        DistinctUntilChangedNode(key, self)
    }
}

final class DistinctUntilChangedStage: Stage {
    let key: Function?
    let comparesPairs: Bool
    @exclusivity(unchecked) var previous: Value?
    init(key: Function?) {
        self.key = key
        comparesPairs = key?.reads == 2
    }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if comparesPairs, let key {
            defer { previous = value }
            if let previous, try key.call(previous, value).asBool() { return .drop }
            return .pass
        }
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
