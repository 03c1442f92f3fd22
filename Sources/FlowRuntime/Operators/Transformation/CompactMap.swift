extension OperatorSpec {
    static let compactMap = method("compactMap", aliases: ["tryCompactMap"], .transformation, "transforms each value, dropping nil results", [arg("transform", .function)],
        example: #"""
            let source = cold("-1-2-3-4|")
            marbles(source, source.compactMap { $0 % 2 == 0 ? $0 : nil })
            """#,
        differences: "RxSwift's and Combine's; RxJS has none: `filter` then `map`.") {
        $0.compactMap(try $1.function(0))
    }
}

extension Observable {
    /// Each value transformed; nil results are dropped.
    public func compactMap(_ transform: Function) -> Observable {
        CompactMapNode(transform, self)
    }
}

final class CompactMapStage: Stage {
    let transform: Function
    init(_ transform: Function) { self.transform = transform }
    override func process(_ value: inout Value) throws -> StageVerdict {
        value = try transform.call(value)
        return value.isNull ? .drop : .pass
    }
}

final class CompactMapNode: PipelineNode {
    let transform: Function

    init(_ transform: Function, _ source: Observable) {
        self.transform = transform
        super.init("compactMap", source)
    }

    override func makeStage() -> Stage { CompactMapStage(transform) }
}
