/// Aggregation: operators that reduce a whole stream to one value, emitted
/// when the source completes (or earlier, once the answer is known).
/// An error from the source is passed on and nothing is emitted.
///
/// Unless an operator's comment says otherwise: an error from a source is
/// passed on at once and ends the result; completion is passed on after
/// what the operator still owes (a final buffer, a pending value);
/// disposing the result cancels every source, timer and inner subscription
/// it holds, and nothing is delivered after a terminal event or disposal.
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

    /// How many values (matching `predicate`, when given) the stream had.
    public func count(_ predicate: Function? = nil) -> Observable {
        aggregate("count", .int(0)) { state, value in
            if let predicate, try !predicate.test(value) { return state! }
            return try Value.add(state!, .int(1))
        } finish: { $0! }
    }

    /// All values in one array.
    public func toArray() -> Observable {
        SinkNode("toArray", self) { observer, _ in ToArraySink(observer) }
    }

    /// The smallest value; an empty stream completes without one.
    public func min() -> Observable { extremum("min", keepIf: { $0 < 0 }) }

    /// The largest value; an empty stream completes without one.
    public func max() -> Observable { extremum("max", keepIf: { $0 > 0 }) }

    /// The sum of the values (0 when there are none).
    public func sum() -> Observable {
        aggregate("sum", .int(0)) { state, value in try Value.add(state!, value) } finish: { $0! }
    }

    /// `true` if the stream completes without a value, `false` at the first value.
    public func isEmpty() -> Observable {
        decide("isEmpty", whenFound: false) { _ in true }
    }

    /// `true` at the first value equal to `element`, `false` if none.
    public func contains(_ element: Value) -> Observable {
        decide("contains", whenFound: true) { $0 == element }
    }

    /// `false` at the first value failing `predicate`, `true` if none does.
    public func allSatisfy(_ predicate: Function) -> Observable {
        decide("allSatisfy", whenFound: false) { try !predicate.test($0) }
    }

    /// The source, or `value` alone if it completes without values.
    public func defaultIfEmpty(_ value: Value) -> Observable {
        SinkNode("defaultIfEmpty", self) { observer, _ in DefaultIfEmptySink(observer, fallback: value) }
    }

    private func extremum(_ name: String, keepIf better: @escaping (Int) -> Bool) -> Observable {
        aggregate(name, nil) { state, value in
            guard let state else { return value }
            return better(try value.compare(to: state)) ? value : state
        } finish: { $0 }
    }

    func aggregate(
        _ name: String, _ seed: Value?, step: @escaping (Value?, Value) throws -> Value,
        finish: @escaping (Value?) throws -> Value?
    ) -> Observable {
        SinkNode(name, self) { observer, _ in AggregateSink(observer, seed: seed, step: step, finish: finish) }
    }

    /// Emits `whenFound` at the first value `matches`, else `!whenFound` at completion.
    private func decide(_ name: String, whenFound: Bool, matches: @escaping (Value) throws -> Bool) -> Observable {
        SinkNode(name, self) { observer, _ in DecisionSink(observer, whenFound: whenFound, matches: matches) }
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

final class ToArraySink: Sink {
    private var values: [Value] = []
    override func onNext(_ value: Value) { values.append(value) }
    override func onCompleted() {
        sendNext(.array(values))
        sendCompleted()
    }
}

final class DecisionSink: Sink {
    private let whenFound: Bool
    private let matches: (Value) throws -> Bool

    init(_ downstream: Observer, whenFound: Bool, matches: @escaping (Value) throws -> Bool) {
        self.whenFound = whenFound
        self.matches = matches
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            guard try matches(value) else { return }
        } catch {
            return sendError(FlowError.wrap(error))
        }
        sendNext(.bool(whenFound))
        sendCompleted()
    }

    override func onCompleted() {
        sendNext(.bool(!whenFound))
        sendCompleted()
    }
}

final class DefaultIfEmptySink: Sink {
    private let fallback: Value
    private var isEmpty = true

    init(_ downstream: Observer, fallback: Value) {
        self.fallback = fallback
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        isEmpty = false
        sendNext(value)
    }

    override func onCompleted() {
        if isEmpty { sendNext(fallback) }
        sendCompleted()
    }
}
