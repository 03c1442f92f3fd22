/// Fusion of synchronous one-in-one-out stages.
///
/// `map`, `filter`, `compactMap`, `scan`, `take`, `skip`, `takeWhile`,
/// `skipWhile`, `distinctUntilChanged`, `enumerated` and `ignoreElements`
/// written one after another run in a single sink that loops over the
/// stages. That keeps the per-event cost to one call per stage (no sink
/// chain, no allocation), and a chain of 100 000 `map`s subscribes,
/// delivers and disposes without recursing once per stage.

/// What a stage decided about a value.
enum StageVerdict {
    case pass
    case drop
    /// Pass this value on, then complete (`take(n)` on its n-th value).
    case passThenComplete
    /// Complete without passing this value (`takeWhile` failing).
    case complete
}

/// The per-subscription state of one fused stage.
class Stage {
    func process(_ value: inout Value) throws -> StageVerdict { .pass }
}

/// One node of a fused chain. Nodes still form an ordinary graph (for
/// tools); fusion happens when a node is subscribed.
final class PipelineNode: Observable {
    let makeStage: () -> Stage

    init(_ name: String, _ source: Observable, makeStage: @escaping () -> Stage) {
        self.makeStage = makeStage
        super.init(operatorName: name, inputs: [source])
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        var factories: [() -> Stage] = []
        var node: Observable = self
        while let stageNode = node as? PipelineNode {
            factories.append(stageNode.makeStage)
            node = stageNode.inputs[0]
        }
        let stages = factories.reversed().map { $0() }
        node.subscribe(PipelineSink(observer, stages: stages), on: scheduler)
    }
}

final class PipelineSink: Sink {
    /// Owns the stages for the sink's lifetime.
    private let stages: [Stage]
    /// The same stages without reference counting: the loop below runs
    /// once per event per stage, and retaining each stage there cost more
    /// than the stage's own work.
    private let unowned: UnsafeMutableBufferPointer<Unmanaged<Stage>>

    init(_ downstream: Observer, stages: [Stage]) {
        self.stages = stages
        unowned = .allocate(capacity: stages.count)
        _ = unowned.initialize(from: stages.map { Unmanaged.passUnretained($0) })
        super.init(downstream)
    }

    deinit { unowned.deallocate() }

    override func onNext(_ value: Value) {
        if isStopped { return }
        var current = value
        do {
            for stage in unowned {
                switch try stage._withUnsafeGuaranteedRef({ try $0.process(&current) }) {
                case .pass: continue
                case .drop: return
                case .passThenComplete:
                    downstream.onNext(current)
                    sendCompleted()
                    return
                case .complete:
                    sendCompleted()
                    return
                }
            }
        } catch {
            sendError(FlowError.wrap(error))
            return
        }
        downstream.onNext(current)
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

final class CompactMapStage: Stage {
    let transform: Function
    init(_ transform: Function) { self.transform = transform }
    override func process(_ value: inout Value) throws -> StageVerdict {
        value = try transform.call(value)
        return value.isNull ? .drop : .pass
    }
}

final class FilterStage: Stage {
    let predicate: Function
    init(_ predicate: Function) { self.predicate = predicate }
    override func process(_ value: inout Value) throws -> StageVerdict {
        try predicate.test(value) ? .pass : .drop
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

final class TakeStage: Stage {
    @exclusivity(unchecked) var remaining: Int
    init(_ count: Int) { remaining = count }
    override func process(_ value: inout Value) throws -> StageVerdict {
        remaining -= 1
        return remaining > 0 ? .pass : .passThenComplete
    }
}

final class SkipStage: Stage {
    @exclusivity(unchecked) var remaining: Int
    init(_ count: Int) { remaining = count }
    override func process(_ value: inout Value) throws -> StageVerdict {
        if remaining > 0 { remaining -= 1; return .drop }
        return .pass
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

final class DistinctUntilChangedStage: Stage {
    let key: Function?
    @exclusivity(unchecked) var previous: Value?
    init(key: Function?) { self.key = key }
    override func process(_ value: inout Value) throws -> StageVerdict {
        let current = try key?.call(value) ?? value
        defer { previous = current }
        if let previous, previous == current { return .drop }
        return .pass
    }
}

final class EnumeratedStage: Stage {
    @exclusivity(unchecked) var index = 0
    override func process(_ value: inout Value) throws -> StageVerdict {
        value = .tuple(Tuple([.int(index), value], labels: ["index", "element"]))
        index += 1
        return .pass
    }
}

final class IgnoreElementsStage: Stage {
    override func process(_ value: inout Value) throws -> StageVerdict { .drop }
}
