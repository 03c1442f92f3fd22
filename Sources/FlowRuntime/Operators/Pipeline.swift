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

/// What a fused node makes for each subscription. An enum rather than a
/// closure: building a node (which scripts do per event inside `flatMap`)
/// then allocates nothing but the node.
enum StageRecipe {
    case map(Function)
    case compactMap(Function)
    case filter(Function)
    case scan(seed: Value?, Function)
    case take(Int)
    case skip(Int)
    case takeWhile(Function, inclusive: Bool)
    case skipWhile(Function)
    case distinctUntilChanged(key: Function?)
    case enumerated
    case ignoreElements

    var name: String {
        switch self {
        case .map: "map"
        case .compactMap: "compactMap"
        case .filter: "filter"
        case .scan: "scan"
        case .take: "take"
        case .skip: "skip"
        case .takeWhile: "takeWhile"
        case .skipWhile: "skipWhile"
        case .distinctUntilChanged: "distinctUntilChanged"
        case .enumerated: "enumerated"
        case .ignoreElements: "ignoreElements"
        }
    }

    func makeStage() -> Stage {
        switch self {
        case .map(let f): MapStage(f)
        case .compactMap(let f): CompactMapStage(f)
        case .filter(let f): FilterStage(f)
        case .scan(let seed, let f): ScanStage(seed: seed, f)
        case .take(let n): TakeStage(n)
        case .skip(let n): SkipStage(n)
        case .takeWhile(let f, let inclusive): TakeWhileStage(f, inclusive: inclusive)
        case .skipWhile(let f): SkipWhileStage(f)
        case .distinctUntilChanged(let key): DistinctUntilChangedStage(key: key)
        case .enumerated: EnumeratedStage()
        case .ignoreElements: IgnoreElementsStage()
        }
    }
}

/// One node of a fused chain. Nodes still form an ordinary graph (for
/// tools); fusion happens when a node is subscribed.
final class PipelineNode: Observable {
    let recipe: StageRecipe

    init(_ recipe: StageRecipe, _ source: Observable) {
        self.recipe = recipe
        super.init(operatorName: recipe.name, inputs: [source])
    }

    /// Fused stages fail only through their closures, which locate errors.
    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        // A traced stage runs on its own, so that its output has a lane.
        if let tracer = scheduler.tracer, tracer.isTraced(self) {
            let sink = PipelineSink(observer, count: 1)
            sink.set(recipe.makeStage(), at: 0)
            return inputs[0].subscribe(sink, on: scheduler)
        }
        // Walk up the fused nodes once to count them, once to make their
        // stages, filling the sink's buffer from the end: one allocation.
        var count = 0
        var node: Observable = self
        while let stageNode = node as? PipelineNode {
            count += 1
            node = stageNode.inputs[0]
        }
        let sink = PipelineSink(observer, count: count)
        var index = count
        node = self
        while let stageNode = node as? PipelineNode {
            index -= 1
            sink.set(stageNode.recipe.makeStage(), at: index)
            node = stageNode.inputs[0]
        }
        node.subscribe(sink, on: scheduler)
    }
}

final class PipelineSink: Sink {
    /// The stages, retained by the sink and released in `deinit`, held
    /// without reference counting: the loop below runs once per event per
    /// stage, and retaining each stage there cost more than its own work.
    private let unowned: UnsafeMutableBufferPointer<Unmanaged<Stage>>

    init(_ downstream: Observer, count: Int) {
        unowned = .allocate(capacity: count)
        super.init(downstream)
    }

    func set(_ stage: Stage, at index: Int) {
        (unowned.baseAddress! + index).initialize(to: Unmanaged.passRetained(stage))
    }

    deinit {
        for stage in unowned { stage.release() }
        unowned.deallocate()
    }

    override func onNext(_ value: Value) {
        if isStopped { return }
        var current = value
        // A stage that lets its last value through (`take`) still hands it
        // to the stages after it; completion follows the value.
        var completesAfter = false
        do {
            for stage in unowned {
                switch try stage._withUnsafeGuaranteedRef({ try $0.process(&current) }) {
                case .pass: continue
                case .passThenComplete: completesAfter = true
                case .drop:
                    if completesAfter { sendCompleted() }
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
        if completesAfter { sendCompleted() }
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
