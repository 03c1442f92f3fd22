extension OperatorSpec {
    static let skipWhile = OperatorSpec("skipWhile", aliases: ["skip(while:)", "drop(while:)"], .filtering, .method, "drops values while the predicate holds", [
        Signature([arg("predicate", .function)]) { .stream(try $0.source().skipWhile($0.function(0))) },
    ], example: #"""
            let source = cold("-1-2-3-1|")
            marbles(source, source.skipWhile { $0 < 2 })
            """#,
        differences: "RxSwift `skip(while:)`, Combine `drop(while:)`, RxJS `skipWhile`.")
}

extension Observable {
    /// Drops values while `predicate` holds, then passes everything.
    public func skipWhile(_ predicate: Function) -> Observable {
        SkipWhileNode(predicate, self)
    }
}

final class SkipWhileStage: Stage {
    let predicate: Function
    var skipping = true
    init(_ predicate: Function) { self.predicate = predicate }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if skipping, try predicate.test(value) { return .drop }
        skipping = false
        return .pass
    }
}

final class SkipWhileNode: PipelineNode {
    let predicate: Function

    init(_ predicate: Function, _ source: Observable) {
        self.predicate = predicate
        super.init("skipWhile", source)
    }

    override func makeStage() -> Stage { SkipWhileStage(predicate) }
}
