/// Utility: side effects (`do`, `print`) and events as values
/// (`materialize`, `dematerialize`).
extension Observable {
    /// Side-effect hooks; the stream itself is unchanged. A hook that throws
    /// ends the stream with its error.
    public func `do`(
        onNext: Function? = nil, onError: Function? = nil, onCompleted: Function? = nil,
        onSubscribe: Function? = nil, onDispose: Function? = nil
    ) -> Observable {
        let hooks = SideEffectHooks(
            next: onNext.map { f in { v in _ = try f.call(v) } },
            error: onError.map { f in { e in _ = try f.call(e.value) } },
            completed: onCompleted.map { f in { _ = try f.call([]) } },
            subscribe: onSubscribe.map { f in { _ = try f.call([]) } },
            dispose: onDispose.map { f in { _ = try f.call([]) } })
        return sideEffects("do", hooks)
    }

    /// Logs every event in Combine's `print` format, one line each, to `output`.
    public func print(_ label: String = "", to output: @escaping (String) -> Void) -> Observable {
        let prefix = label.isEmpty ? "" : "\(label): "
        let upstreamName = operatorName
        let say: (String) -> Void = { output(prefix + $0) }
        let hooks = SideEffectHooks(
            next: { say("receive value: (\($0.description))") },
            error: { say("receive error: (\($0.value.description))") },
            completed: { say("receive finished") },
            subscribe: {
                say("receive subscription: (\(upstreamName))")
                say("request unlimited")
            },
            cancel: { say("receive cancel") })
        return sideEffects("print", hooks)
    }

    func sideEffects(_ name: String, _ hooks: SideEffectHooks) -> Observable {
        SinkNode(name, self) { observer, _ in
            do { try hooks.subscribe?() } catch {
                return FailingObserver(observer, error: FlowError.wrap(error))
            }
            return SideEffectSink(observer, hooks: hooks)
        }
    }

    /// The same stream; asks the run to record every stage of the chain
    /// ending here, for a per-stage marble diagram (see `Tracer`).
    public func trace() -> Observable {
        ClosureNode("trace", inputs: [self]) { observer, scheduler, inputs in
            let tracer = scheduler.tracer ?? Tracer()
            scheduler.tracer = tracer
            tracer.trace(inputs[0])
            inputs[0].subscribe(observer, on: scheduler)
        }
    }

    /// Each event as a value (`next(v)`, `error(e)`, `completed`, with members
    /// `kind`, `value`, `error`); completes after the source's terminal event.
    public func materialize() -> Observable {
        SinkNode("materialize", self) { observer, _ in MaterializeSink(observer) }
    }

    /// The inverse of `materialize`: event values become events again. A
    /// value that is not an event is an error.
    public func dematerialize() -> Observable {
        SinkNode("dematerialize", self) { observer, _ in DematerializeSink(observer) }
    }
}

struct SideEffectHooks {
    var next: ((Value) throws -> Void)?
    var error: ((FlowError) throws -> Void)?
    var completed: (() throws -> Void)?
    var subscribe: (() throws -> Void)?
    /// After the subscription ends for any reason.
    var dispose: (() throws -> Void)?
    /// Only when downstream cancels before a terminal event (print's "receive cancel").
    var cancel: (() -> Void)?
}

final class SideEffectSink: Sink {
    private var hooks: SideEffectHooks
    private var terminated = false

    init(_ downstream: Observer, hooks: SideEffectHooks) {
        self.hooks = hooks
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do { try hooks.next?(value) } catch { return sendError(FlowError.wrap(error)) }
        sendNext(value)
    }

    override func onError(_ error: FlowError) {
        terminated = true
        do { try hooks.error?(error) } catch { return sendError(FlowError.wrap(error)) }
        sendError(error)
    }

    override func onCompleted() {
        terminated = true
        do { try hooks.completed?() } catch { return sendError(FlowError.wrap(error)) }
        sendCompleted()
    }

    override func disposeResources() {
        if !terminated { hooks.cancel?() }
        // A dispose hook has no stream left to report an error to.
        try? hooks.dispose?()
        hooks = SideEffectHooks()
    }
}

/// Stands in for a sink whose setup failed: fails as soon as subscribed.
final class FailingObserver: Sink {
    private let error: FlowError
    init(_ downstream: Observer, error: FlowError) {
        self.error = error
        super.init(downstream)
    }
    override func onSubscribe(_ subscription: Disposable) {
        super.onSubscribe(subscription)
        sendError(error)
    }
}

final class MaterializeSink: Sink {
    override func onNext(_ value: Value) { sendNext(.event(.next(value))) }

    override func onError(_ error: FlowError) {
        sendNext(.event(.error(error)))
        sendCompleted()
    }

    override func onCompleted() {
        sendNext(.event(.completed))
        sendCompleted()
    }
}

final class DematerializeSink: Sink {
    override func onNext(_ value: Value) {
        guard case .event(let event) = value else {
            return sendError(FlowError("dematerialize expects events, got \(value.typeName) \(value.literal)"))
        }
        switch event {
        case .next(let v): sendNext(v)
        case .error(let e): sendError(e)
        case .completed: sendCompleted()
        }
    }
}
