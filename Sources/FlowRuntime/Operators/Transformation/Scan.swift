extension OperatorSpec {
    static let scan = OperatorSpec("scan", aliases: ["tryScan"], .transformation, .method, "emits each step of a running accumulation (a reducer)", [
        Signature([arg("seed", .value), arg("accumulator", .function)]) { .stream(try $0.source().scan($0.value(0), $0.function(1))) },
        Signature([labelled("into", .value), arg("accumulator", .function)]) {
            .stream(try $0.source().scan(into: $0.value(0) ?? .null, $0.function(1)))
        },
        Signature([arg("accumulator", .function)]) { .stream(try $0.source().scan(nil, $0.function(0))) },
        // RxJS: scan(accumulator, seed).
        Signature([arg("accumulator", .function), arg("seed", .value)]) { .stream(try $0.source().scan($0.value(1), $0.function(0))) },
    ], example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.scan(0) { $0 + $1 })
            """#,
        differences: "RxSwift and Combine take the seed first (`scan(0) { }`), RxJS takes the accumulator first (`scan(fn, 0)`); flow accepts both orders.")
}

extension Observable {
    /// Running accumulation: emits `accumulator(state, value)` for each value,
    /// starting from `seed`. Without a seed the first value is the first state.
    public func scan(_ seed: Value?, _ accumulator: Function) -> Observable {
        ScanNode(seed, accumulator, self)
    }

    /// `scan(into:)`: the accumulator changes its `inout` state in place,
    /// which is copied only while something downstream still holds it.
    public func scan(into seed: Value, _ accumulator: Function) -> Observable {
        ScanNode(seed, accumulator, self, inPlace: true)
    }
}

final class ScanIntoStage: Stage {
    let accumulator: Function
    @exclusivity(unchecked) var state: Value
    init(seed: Value, _ accumulator: Function) {
        self.state = seed
        self.accumulator = accumulator
    }
    override func process(_ value: inout Value) throws -> StageVerdict {
        try accumulator.update(&state, with: value)
        value = state
        return .pass
    }
}

final class ScanStage: Stage {
    let accumulator: Function
    @exclusivity(unchecked) var state: Value?
    init(seed: Value?, _ accumulator: Function) {
        self.state = seed
        self.accumulator = accumulator
    }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if let state {
            value = try accumulator.call(state, value)
        }
        state = value
        return .pass
    }
}

final class ScanNode: PipelineNode {
    let seed: Value?
    let accumulator: Function

    let inPlace: Bool

    init(_ seed: Value?, _ accumulator: Function, _ source: Observable, inPlace: Bool = false) {
        self.seed = seed
        self.accumulator = accumulator
        self.inPlace = inPlace
        super.init("scan", source)
    }

    override func makeStage() -> Stage {
        if inPlace, let seed { return ScanIntoStage(seed: seed, accumulator) }
        return ScanStage(seed: seed, accumulator)
    }
}
