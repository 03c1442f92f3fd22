extension OperatorSpec {
    static let ignoreElements = method("ignoreElements", aliases: ["ignoreOutput", "asCompletable"], .filtering, "drops every value, keeps completion or error", [],
        example: #"""
            let source = cold("-a-b|")
            marbles(source, source.ignoreElements())
            """#,
        differences: "RxSwift `ignoreElements()`, Combine `ignoreOutput()`, RxJS `ignoreElements()`; RxSwift's `asCompletable()` (a `Completable` trait) is the same.") { s, _ in s.ignoreElements() }
}

extension Observable {
    /// Drops every value; passes completion or error.
    public func ignoreElements() -> Observable {
        IgnoreElementsNode(self)
    }
}

final class IgnoreElementsStage: Stage {
    override func process(_ value: inout Value) throws -> StageVerdict { .drop }
}

final class IgnoreElementsNode: PipelineNode {

    init(_ source: Observable) {
        super.init("ignoreElements", source)
    }

    override func makeStage() -> Stage { IgnoreElementsStage() }
}
