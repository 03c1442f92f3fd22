extension OperatorSpec {
    static let filter = method("filter", aliases: ["tryFilter"], .filtering, "passes the values for which the predicate is true", [arg("predicate", .function)],
        example: #"""
            let source = cold("-1-2-3-4|")
            marbles(source, source.filter { $0 % 2 == 0 })
            """#,
        differences: "The same in all three (RxJS also passes each value's index).") {
        $0.filter(try $1.function(0))
    }
}

extension Observable {
    /// Values for which `predicate` returns true.
    public func filter(_ predicate: Function) -> Observable {
        FilterNode(predicate, self)
    }
}

final class FilterStage: Stage {
    let predicate: Function
    init(_ predicate: Function) { self.predicate = predicate }
    override func process(_ value: inout Value) throws -> StageVerdict {
        try predicate.test(value) ? .pass : .drop
    }
}

final class FilterNode: PipelineNode {
    let predicate: Function

    init(_ predicate: Function, _ source: Observable) {
        self.predicate = predicate
        super.init("filter", source)
    }

    override func makeStage() -> Stage { FilterStage(predicate) }
}
