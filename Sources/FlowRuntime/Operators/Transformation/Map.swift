extension OperatorSpec {
    static let map = method("map", aliases: ["tryMap"], .transformation, "transforms each value", [arg("transform", .function)],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.map { $0 * 10 })
            """#) { $0.map(try $1.function(0)) }
}

extension Observable {
    /// Each value transformed by `transform`. A throw ends the stream with that error.
    public func map(_ transform: Function) -> Observable {
        MapNode(transform, self)
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
