extension OperatorSpec {
    static let share = method("share", .sharing, "one upstream subscription for all subscribers while any remain",
        [labelled("replay", .int, optional: true).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            let shared = source.share()
            marbles(shared, shared.map { $0 + "'" })
            """#) { $0.share(replay: try $1.optionalInt(0) ?? 0) }
}

extension Observable {
    /// One upstream subscription while there are subscribers, replaying the
    /// latest `replay` values to late subscribers. When the count drops to
    /// zero, or the source ends, the connection (and its replay buffer) is
    /// dropped and the next subscriber reconnects (RxSwift's `.whileConnected`).
    public func share(replay: Int = 0) -> Observable {
        ShareNode(self, replay: Swift.max(0, replay))
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
