extension OperatorSpec {
    static let `do` = OperatorSpec("do", aliases: [
        "tap", Spelling("handleEvents", renames: [
            "receiveOutput": "onNext", "receiveCompletion": "onCompletion", "receiveCancel": "onDispose", "receiveSubscription": "onSubscribe",
        ], ignored: ["receiveRequest"]),
    ], .utility, .method, "runs side effects on events, leaving the stream unchanged; onCompletion (Combine's receiveCompletion) gets the completion, printed `completed` or `error(e)` (`finished` or `failure(e)` under import Combine)", [
        Signature([arg("onNext", .function)]) { .stream(try $0.source().do(onNext: $0.function(0))) },
        Signature(["onNext", "onError", "onCompleted", "onSubscribe", "onDispose", "onCompletion"].map {
            labelled($0, .function, optional: true)
        }) {
            .stream(try $0.source().do(
                onNext: $0.optionalFunction(0), onError: $0.optionalFunction(1), onCompleted: $0.optionalFunction(2),
                onSubscribe: $0.optionalFunction(3), onDispose: $0.optionalFunction(4), onCompletion: $0.optionalFunction(5),
                completionSpelling: $0.context.dialect.completionSpelling))
        },
    ], example: #"""
            let source = cold("-a-b|")
            marbles(source.do(onNext: { print("saw \($0)") }))
            """#,
        differences: "RxSwift `do(onNext:onError:onCompleted:onSubscribe:onDispose:)`, Combine `handleEvents(receiveOutput:receiveCompletion:receiveCancel:...)`, RxJS `tap({ next, error, complete })`.")
}

extension Observable {
    /// Side-effect hooks; the stream itself is unchanged. A hook that throws
    /// ends the stream with its error.
    public func `do`(
        onNext: Function? = nil, onError: Function? = nil, onCompleted: Function? = nil,
        onSubscribe: Function? = nil, onDispose: Function? = nil, onCompletion: Function? = nil,
        completionSpelling: Event.Spelling = .reactiveX
    ) -> Observable {
        let error: ((FlowError) throws -> Void)? = onError == nil && onCompletion == nil ? nil : { e in
            _ = try onError?.call(e.value)
            _ = try onCompletion?.call(.event(.error(e), completionSpelling))
        }
        let completed: (() throws -> Void)? = onCompleted == nil && onCompletion == nil ? nil : {
            _ = try onCompleted?.call([])
            _ = try onCompletion?.call(.event(.completed, completionSpelling))
        }
        let hooks = SideEffectHooks(
            next: onNext.map { f in { v in _ = try f.call(v) } },
            error: error,
            completed: completed,
            subscribe: onSubscribe.map { f in { _ = try f.call([]) } },
            dispose: onDispose.map { f in { _ = try f.call([]) } })
        return sideEffects("do", hooks)
    }

    func sideEffects(_ name: String, _ hooks: SideEffectHooks) -> Observable {
        SinkNode(name, self) { observer, _ in
            do { try hooks.subscribe?() } catch {
                return FailingObserver(observer, error: FlowError.wrap(error))
            }
            return SideEffectSink(observer, hooks: hooks)
        }
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
