/// Receives a stream's events.
///
/// The protocol follows the Rx contract with one addition taken from
/// Combine and Reactive Streams: `onSubscribe` hands the observer its
/// subscription *before* any other event. That lets a downstream `take(3)`
/// cancel a synchronous source (`range(0, 1_000_000)`) while its loop is
/// still running, so such a source can be a plain loop.
///
/// Every stream calls `onSubscribe` exactly once, first, then
/// `onNext* (onError | onCompleted)?`, and nothing after a terminal event.
public protocol Observer: AnyObject {
    func onSubscribe(_ subscription: Disposable)
    func onNext(_ value: Value)
    func onError(_ error: FlowError)
    func onCompleted()
}

extension Observer {
    public func on(_ event: Event) {
        switch event {
        case .next(let v): onNext(v)
        case .error(let e): onError(e)
        case .completed: onCompleted()
        }
    }
}

/// The end of a chain: closures for each event, and the disposable that
/// cancels the whole subscription.
public final class CallbackObserver: Observer, Disposable {
    @exclusivity(unchecked) private var next: ((Value) -> Void)?
    @exclusivity(unchecked) private var error: ((FlowError) -> Void)?
    @exclusivity(unchecked) private var completed: (() -> Void)?
    @exclusivity(unchecked) private var upstream: Disposable?
    @exclusivity(unchecked) public private(set) var isDisposed = false
    /// True once a terminal event arrived.
    @exclusivity(unchecked) public private(set) var isTerminated = false

    public init(onNext: ((Value) -> Void)? = nil, onError: ((FlowError) -> Void)? = nil, onCompleted: (() -> Void)? = nil) {
        self.next = onNext
        self.error = onError
        self.completed = onCompleted
    }

    public func onSubscribe(_ subscription: Disposable) {
        if isDisposed { subscription.dispose(); return }
        upstream = subscription
    }

    public func onNext(_ value: Value) {
        guard !isDisposed else { return }
        next?(value)
    }

    public func onError(_ e: FlowError) {
        guard !isDisposed else { return }
        let handler = error
        finish()
        handler?(e)
    }

    public func onCompleted() {
        guard !isDisposed else { return }
        let handler = completed
        finish()
        handler?()
    }

    private func finish() {
        isTerminated = true
        dispose()
    }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let up = upstream
        upstream = nil
        next = nil
        error = nil
        completed = nil
        up?.dispose()
    }
}
