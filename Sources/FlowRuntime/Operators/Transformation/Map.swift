extension OperatorSpec {
    static let map = OperatorSpec("map", aliases: ["tryMap"], .transformation, .method, "transforms each value", [
        Signature([arg("transform", .function)]) { .stream(try $0.source().map($0.function(0))) },
        // CwlSignal: map(withState:) { state, value in ... }, changing its state in place.
        Signature([labelled("withState", .value), arg("transform", .function)]) {
            .stream(try $0.source().map(withState: $0.value(0) ?? .null, $0.function(1)))
        },
    ], example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.map { $0 * 10 })
            """#,
        differences: "`map(withState: initial) { state, value in ... }` is CwlSignal's: the closure changes `state` in place, and what it returns is emitted.")
}

extension Observable {
    /// Each value transformed by `transform`. A throw ends the stream with that error.
    public func map(_ transform: Function) -> Observable {
        MapNode(transform, self)
    }

    /// CwlSignal's `map(withState:)`: `transform` gets a state it may change
    /// (kept for the next value) and the value; what it returns is emitted.
    public func map(withState initial: Value, _ transform: Function) -> Observable {
        let step = Function.binary(name: transform.name) { pair, value in
            let state = pair.tupleElements?.first ?? initial
            let (next, result) = try transform.callWithState(state, value)
            return .tuple([next, result])
        }
        let second = Function.unary(name: "result") { $0.tupleElements?[1] ?? .null }
        return scan(.tuple([initial, .null]), step).map(second)
    }
}

final class MapStage: Stage {
    let transform: Function
    init(_ transform: Function) { self.transform = transform }
    override func process(_ value: inout Value) throws -> StageVerdict {
        value = try transform.call(value)
        return .pass
    }
}

final class MapNode: PipelineNode {
    let transform: Function

    init(_ transform: Function, _ source: Observable) {
        self.transform = transform
        super.init("map", source)
    }

    override func makeStage() -> Stage { MapStage(transform) }
}
