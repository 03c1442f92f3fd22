/// Fusion of synchronous one-in-one-out stages.
///
/// Fused stages (`map`, `filter`, `compactMap`, `scan`, `take`, `skip`,
/// `takeWhile`, `skipWhile`, `distinctUntilChanged`, `enumerated`,
/// `ignoreElements`; each defined in its operator's file) written one after
/// another run in a single sink that loops over the
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
///
/// Each fused operator subclasses it (in its own file, beside its stage)
/// and makes a fresh stage per subscription. A subclass rather than a
/// closure or an enum: building a node, which scripts do per event inside
/// `flatMap`, then allocates nothing but the node, and a new fused operator
/// touches no shared list.
class PipelineNode: Observable {
    init(_ name: String, _ source: Observable) {
        super.init(operatorName: name, input: source)
        isFusedStage = true
    }

    /// The per-subscription state of this stage; the base stage passes
    /// every value.
    func makeStage() -> Stage { Stage() }

    /// Fused stages fail only through their closures, which locate errors.
    override var raisesOwnErrors: Bool { false }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let tracer = scheduler.tracer
        // A traced stage runs on its own, so that its output has a lane.
        if let tracer, tracer.isTraced(self) {
            let sink = PipelineSink(observer, count: 1)
            sink.set(makeStage(), at: 0)
            return input.subscribe(sink, on: scheduler)
        }
        // Walk up the fused nodes once to count them, once to make their
        // stages, filling the sink's buffer from the end: one allocation.
        // A watched stage upstream (a stream `--marbles` draws as the run
        // saw it) is subscribed on its own, so that its subscription shows.
        var count = 0
        var node: Observable = self
        while node.isFusedStage {
            if count > 0, let tracer, tracer.isWatched(node) { break }
            let stageNode = unsafeDowncast(node, to: PipelineNode.self)
            count += 1
            node = stageNode.input
        }
        let sink = PipelineSink(observer, count: count)
        var index = count
        node = self
        while index > 0 {
            let stageNode = unsafeDowncast(node, to: PipelineNode.self)
            index -= 1
            sink.set(stageNode.makeStage(), at: index)
            node = stageNode.input
        }
        node.subscribe(sink, on: scheduler)
    }
}

final class PipelineSink: Sink {
    /// The stages, retained by the sink and released in `deinit`, held
    /// without reference counting: the loop below runs once per event per
    /// stage, and retaining each stage there cost more than its own work.
    /// One stage, the most common chain, is held in `single` and the
    /// buffer points at it: a subscription then allocates no buffer.
    private let unowned: UnsafeMutableBufferPointer<Unmanaged<Stage>>
    @exclusivity(unchecked) private var single: Unmanaged<Stage>?

    init(_ downstream: Observer, count: Int) {
        unowned = count == 1 ? UnsafeMutableBufferPointer(start: nil, count: 0) : .allocate(capacity: count)
        super.init(downstream)
    }

    func set(_ stage: Stage, at index: Int) {
        if unowned.baseAddress == nil {
            single = Unmanaged.passRetained(stage)
        } else {
            (unowned.baseAddress! + index).initialize(to: Unmanaged.passRetained(stage))
        }
    }

    deinit {
        single?.release()
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
            if let single { guard try run(single, &current, &completesAfter) else { return } }
            for stage in unowned { guard try run(stage, &current, &completesAfter) else { return } }
        } catch {
            sendError(FlowError.wrap(error))
            return
        }
        downstream.onNext(current)
        if completesAfter { sendCompleted() }
    }

    /// Runs one stage on the value; false when the value goes no further.
    @inline(__always)
    private func run(_ stage: Unmanaged<Stage>, _ current: inout Value, _ completesAfter: inout Bool) throws -> Bool {
        switch try stage._withUnsafeGuaranteedRef({ try $0.process(&current) }) {
        case .pass: return true
        case .passThenComplete:
            completesAfter = true
            return true
        case .drop:
            if completesAfter { sendCompleted() }
            return false
        case .complete:
            sendCompleted()
            return false
        }
    }
}
