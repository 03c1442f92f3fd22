extension OperatorSpec {
    static let takeWhile = OperatorSpec("takeWhile", aliases: ["take(while:)", "prefix(while:)"], .filtering, .method, "values while the predicate holds, then completion", [
        Signature([arg("predicate", .function), labelled("inclusive", .bool, optional: true)]) {
            .stream(try $0.source().takeWhile($0.function(0), inclusive: $0.bool(1, default: false)))
        },
    ], example: #"""
            let source = cold("-1-2-3-1|")
            marbles(source, source.takeWhile { $0 < 3 })
            """#,
        differences: "RxSwift `take(while:behavior:)` (`.inclusive` also emits the first value that fails), Combine `prefix(while:)`, RxJS `takeWhile(p, inclusive)`.")
}

extension Observable {
    /// Values while `predicate` holds; the first that fails completes the
    /// stream (and is emitted first when `inclusive`).
    public func takeWhile(_ predicate: Function, inclusive: Bool = false) -> Observable {
        TakeWhileNode(predicate, inclusive, self)
    }
}

final class TakeWhileStage: Stage {
    let predicate: Function
    let inclusive: Bool
    init(_ predicate: Function, inclusive: Bool) {
        self.predicate = predicate
        self.inclusive = inclusive
    }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if try predicate.test(value) { return .pass }
        return inclusive ? .passThenComplete : .complete
    }
}

final class TakeWhileNode: PipelineNode {
    let predicate: Function
    let inclusive: Bool

    init(_ predicate: Function, _ inclusive: Bool, _ source: Observable) {
        self.predicate = predicate
        self.inclusive = inclusive
        super.init("takeWhile", source)
    }

    override func makeStage() -> Stage { TakeWhileStage(predicate, inclusive: inclusive) }
}
