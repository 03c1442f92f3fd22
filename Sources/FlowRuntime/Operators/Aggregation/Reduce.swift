extension OperatorSpec {
    static let reduce = OperatorSpec("reduce", aliases: ["tryReduce"], .aggregation, .method, "folds all values into one, emitted at completion", [
        Signature([arg("seed", .value), arg("accumulator", .function)]) { .stream(try $0.source().reduce($0.value(0), $0.function(1))) },
        Signature([labelled("into", .value), arg("accumulator", .function)]) {
            .stream(try $0.source().reduce(into: $0.value(0) ?? .null, $0.function(1)))
        },
        Signature([arg("accumulator", .function)]) { .stream(try $0.source().reduce(nil, $0.function(0))) },
        // RxJS: reduce(accumulator, seed).
        Signature([arg("accumulator", .function), arg("seed", .value)]) { .stream(try $0.source().reduce($0.value(1), $0.function(0))) },
    ], example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.reduce(0) { $0 + $1 })
            """#,
        differences: "As for `scan`: seed first (RxSwift, Combine) or accumulator first (RxJS). Without a seed, an empty stream fails with \"no elements\", as in RxJS.")
}

extension Observable {
    /// Folds every value into `seed` with `accumulator`; emits the result at
    /// completion (the seed if there were no values). Without a seed, the
    /// first value starts the fold and an empty stream fails with "no elements".
    public func reduce(_ seed: Value?, _ accumulator: Function) -> Observable {
        aggregate("reduce", seed) { state, value in
            guard let state else { return value }
            return try accumulator.call(state, value)
        } finish: { state in
            guard let state else { throw FlowError.noElements }
            return state
        }
    }

    /// `reduce(into:)`: the accumulator changes its `inout` state in place,
    /// so folding values into a collection is linear.
    public func reduce(into seed: Value, _ accumulator: Function) -> Observable {
        SinkNode("reduce", self) { observer, _ in ReduceIntoSink(observer, seed: seed, accumulator: accumulator) }
    }

    func aggregate(
        _ name: String, _ seed: Value?, step: @escaping (Value?, Value) throws -> Value,
        finish: @escaping (Value?) throws -> Value?
    ) -> Observable {
        SinkNode(name, self) { observer, _ in AggregateSink(observer, seed: seed, step: step, finish: finish) }
    }
}

final class AggregateSink: Sink {
    @exclusivity(unchecked) private var state: Value?
    private let step: (Value?, Value) throws -> Value
    private let finish: (Value?) throws -> Value?

    init(_ downstream: Observer, seed: Value?, step: @escaping (Value?, Value) throws -> Value, finish: @escaping (Value?) throws -> Value?) {
        self.state = seed
        self.step = step
        self.finish = finish
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do { state = try step(state, value) } catch { sendError(FlowError.wrap(error)) }
    }

    override func onCompleted() {
        do {
            if let result = try finish(state) { sendNext(result) }
            sendCompleted()
        } catch {
            sendError(FlowError.wrap(error))
        }
    }
}

final class ReduceIntoSink: Sink {
    @exclusivity(unchecked) private var state: Value
    private let accumulator: Function

    init(_ downstream: Observer, seed: Value, accumulator: Function) {
        self.state = seed
        self.accumulator = accumulator
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do { try accumulator.update(&state, with: value) } catch { sendError(FlowError.wrap(error)) }
    }

    override func onCompleted() {
        let result = state
        state = .null
        sendNext(result)
        sendCompleted()
    }
}
