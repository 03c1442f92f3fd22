extension OperatorSpec {
    static let publish = method("publish", aliases: ["multicast", "makeConnectable"], .sharing, "a connectable stream: the source runs once connect() is called", [],
        example: #"""
            let published = cold("-a-b|").publish()
            timer(2ms).sink { _ in published.connect() }
            marbles(published)
            """#,
        differences: "RxSwift `publish()`, Combine `makeConnectable()`, RxJS `publish()` (replaced in RxJS 7 by `connectable`).") { s, _ in
        s.publish()
    }
}

extension Observable {
    /// A connectable stream: subscribers wait until `connect` subscribes the
    /// source once for all of them.
    public func publish() -> ConnectableObservable {
        ConnectableObservable(self, name: "publish", replay: 0)
    }
}

/// A stream whose source runs once `connect` is called, for all subscribers.
public final class ConnectableObservable: Observable {
    private let replay: Int

    init(_ source: Observable, name: String, replay: Int) {
        self.replay = replay
        super.init(operatorName: name, input: source)
    }

    final class State {
        let subject: Subject
        var connection: Disposable?
        init(subject: Subject) { self.subject = subject }
    }

    private func state(on scheduler: Scheduler) -> State {
        scheduler.runState(for: self) { State(subject: makeSubject(replay: replay)) }
    }

    override public func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        state(on: scheduler).subject.subscribe(observer, on: scheduler)
    }

    /// Subscribes the source (once per run); disposing the result disconnects.
    @discardableResult
    public func connect(on scheduler: Scheduler) -> Disposable {
        let state = state(on: scheduler)
        if let existing = state.connection { return existing }
        let feed = SubjectFeed(state.subject)
        state.connection = feed
        input.subscribe(feed, on: scheduler)
        return feed
    }

    /// Connects with the first subscriber and disconnects when the last leaves.
    public func refCount() -> Observable {
        ClosureNode("refCount", inputs: [self]) { observer, scheduler, inputs in
            guard let connectable = inputs[0] as? ConnectableObservable else { return }
            let counter = scheduler.runState(for: connectable) { RefCount() }
            counter.count += 1
            let sink = RefCountSink(observer) {
                counter.count -= 1
                if counter.count == 0 {
                    connectable.state(on: scheduler).connection?.dispose()
                    connectable.state(on: scheduler).connection = nil
                }
            }
            connectable.subscribe(sink, on: scheduler)
            if counter.count == 1 { connectable.connect(on: scheduler) }
        }
    }

    final class RefCount { var count = 0 }
}

/// A connectable stream's connection: passes its source's events to the
/// subject, and the subject's subscribers' joint demand to the source.
final class SubjectFeed: Observer, Disposable {
    private let subject: Subject
    private var upstream: Disposable?
    private var isDisposed = false

    init(_ subject: Subject) {
        self.subject = subject
        subject.onDemandChange = { [weak self] wantsMore in self?.upstream?.passDemand(wantsMore) }
    }

    func onSubscribe(_ subscription: Disposable) {
        if isDisposed { return subscription.dispose() }
        upstream = subscription
        if !subject.subscribersWantMore { subscription.passDemand(false) }
    }

    func onNext(_ value: Value) { if !isDisposed { subject.send(value) } }

    func onError(_ error: FlowError) {
        guard !isDisposed else { return }
        dispose()
        subject.fail(error)
    }

    func onCompleted() {
        guard !isDisposed else { return }
        dispose()
        subject.complete()
    }

    func dispose() {
        isDisposed = true
        let up = upstream
        upstream = nil
        up?.dispose()
    }
}
