extension OperatorSpec {
    static let enumerated = method("enumerated", .transformation, "pairs each value with its index: (index:, element:)", [],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.enumerated().map { $0.index })
            """#,
        differences: "RxSwift's `enumerated()`; RxJS passes the index to `map((v, i) => ...)`; Combine has none.") { s, _ in s.enumerated() }
}

extension Observable {
    /// Each value paired with its position: `(index: 0, element: v)`.
    public func enumerated() -> Observable {
        EnumeratedNode(self)
    }
}

final class EnumeratedStage: Stage {
    @exclusivity(unchecked) var index = 0
    override func process(_ value: inout Value) throws -> StageVerdict {
        value = .tuple(Tuple([.int(index), value], labels: ["index", "element"]))
        index += 1
        return .pass
    }
}

final class EnumeratedNode: PipelineNode {

    init(_ source: Observable) {
        super.init("enumerated", source)
    }

    override func makeStage() -> Stage { EnumeratedStage() }
}
