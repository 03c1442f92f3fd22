/// Sharing one upstream subscription among many subscribers: `share`,
/// `publish`/`replay` with `connect`, and `refCount`.
///
/// A stream is a description that may run on several schedulers (each
/// test block has its own clock), so connection state is kept per
/// scheduler run, never on the node itself.
///
/// The source's error or completion reaches every current subscriber and
/// ends the connection; a subscriber that disposes only leaves it (the
/// source is cancelled when the last one leaves, or on `connect`'s
/// disposable for `publish`/`replay`).
extension Observable {
    /// One upstream subscription while there are subscribers, replaying the
    /// latest `replay` values to late subscribers. When the count drops to
    /// zero, or the source ends, the connection (and its replay buffer) is
    /// dropped and the next subscriber reconnects (RxSwift's `.whileConnected`).
    public func share(replay: Int = 0) -> Observable {
        ShareNode(self, replay: Swift.max(0, replay))
    }

    /// A connectable stream: subscribers wait until `connect` subscribes the
    /// source once for all of them.
    public func publish() -> ConnectableObservable {
        ConnectableObservable(self, name: "publish", replay: 0)
    }

    /// Like `publish`, replaying the latest `bufferSize` values to late subscribers.
    public func replay(_ bufferSize: Int) -> ConnectableObservable {
        ConnectableObservable(self, name: "replay", replay: Swift.max(0, bufferSize))
    }
}

func makeSubject(replay: Int) -> Subject {
    replay > 0 ? ReplaySubject(bufferSize: replay) : PublishSubject()
}

final class ShareNode: Observable {
    private let replay: Int

    init(_ source: Observable, replay: Int) {
        self.replay = replay
        super.init(operatorName: "share", inputs: [source])
    }

    /// The live connection of one scheduler run, if any.
    final class State {
        var connection: ShareConnection?
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let state = scheduler.runState(for: self) { State() }
        let connection: ShareConnection
        var isNew = false
        if let existing = state.connection {
            connection = existing
        } else {
            connection = ShareConnection(subject: makeSubject(replay: replay)) { [weak state] ended in
                if state?.connection === ended { state?.connection = nil }
            }
            state.connection = connection
            isNew = true
        }
        connection.join(observer, on: scheduler)
        if isNew { connection.connect(to: inputs[0], on: scheduler) }
    }
}

/// One upstream subscription multicast through a subject, counting its
/// subscribers and ending itself when there are none.
final class ShareConnection: Observer {
    let subject: Subject
    private var upstream: Disposable?
    private var subscribers = 0
    private var isEnded = false
    private let onEnd: (ShareConnection) -> Void

    init(subject: Subject, onEnd: @escaping (ShareConnection) -> Void) {
        self.subject = subject
        self.onEnd = onEnd
    }

    func join(_ observer: Observer, on scheduler: Scheduler) {
        subscribers += 1
        subject.subscribe(ShareSubscriber(observer, connection: self), on: scheduler)
    }

    func connect(to source: Observable, on scheduler: Scheduler) {
        guard !isEnded else { return }
        source.subscribe(self, on: scheduler)
    }

    func leave() {
        subscribers -= 1
        if subscribers <= 0 { end() }
    }

    private func end() {
        guard !isEnded else { return }
        isEnded = true
        onEnd(self)
        let up = upstream
        upstream = nil
        up?.dispose()
    }

    func onSubscribe(_ subscription: Disposable) {
        if isEnded { subscription.dispose() } else { upstream = subscription }
    }

    func onNext(_ value: Value) { subject.send(value) }

    func onError(_ error: FlowError) {
        end()
        subject.fail(error)
    }

    func onCompleted() {
        end()
        subject.complete()
    }
}

/// A subscriber of a shared connection; disposing it leaves the connection.
final class ShareSubscriber: Sink {
    private var connection: ShareConnection?

    init(_ downstream: Observer, connection: ShareConnection) {
        self.connection = connection
        super.init(downstream)
    }

    override func disposeResources() {
        let c = connection
        connection = nil
        c?.leave()
    }
}

/// A stream whose source runs once `connect` is called, for all subscribers.
public final class ConnectableObservable: Observable {
    private let replay: Int

    init(_ source: Observable, name: String, replay: Int) {
        self.replay = replay
        super.init(operatorName: name, inputs: [source])
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
        let subject = state.subject
        let observer = CallbackObserver(
            onNext: { subject.send($0) }, onError: { subject.fail($0) }, onCompleted: { subject.complete() })
        state.connection = observer
        inputs[0].subscribe(observer, on: scheduler)
        return observer
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

final class RefCountSink: Sink {
    private var onLeave: (() -> Void)?
    init(_ downstream: Observer, onLeave: @escaping () -> Void) {
        self.onLeave = onLeave
        super.init(downstream)
    }
    override func disposeResources() {
        let leave = onLeave
        onLeave = nil
        leave?()
    }
}
