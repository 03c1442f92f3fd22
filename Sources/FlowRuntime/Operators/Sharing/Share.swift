extension OperatorSpec {
    static let share = method("share", aliases: [
        Spelling("shareReplay", positional: ["replay"], implied: [("scope", .string("forever"))]),
    ], .sharing,
        "one upstream subscription for all subscribers while any remain; replay: n replays the latest n to late subscribers; scope: .forever keeps them (and the ending) for later subscribers",
        [labelled("replay", .int, optional: true).nonNegative(), labelled("scope", .string, optional: true)],
        example: #"""
            let source = cold("-a-b-c|")
            let shared = source.share()
            let later = shared.delaySubscription(8ms)
            marbles(shared, shared.map { $0 + "'" }, later)
            """#,
        differences: "flow's `share()` is RxSwift's and RxJS's `share()`: the connection ends when the last subscriber leaves or the source ends, and the next subscriber reconnects. Combine's `share()` connects once: after the source has finished, a later subscriber gets the ending alone, which is `share(scope: .forever)` and what `share()` does under `import Combine`. RxJS's `shareReplay(n)` keeps the source subscribed and its values for later subscribers: that is `share(replay: n, scope: .forever)`, which the `shareReplay` spelling means.") { source, args in
        let scope = try args.string(1, default: args.context.dialect == .combine ? "forever" : "whileConnected")
        guard scope == "whileConnected" || scope == "forever" else {
            throw FlowError("share's scope is .whileConnected or .forever, got \(scope)", at: args.context.location)
        }
        return source.share(replay: try args.optionalInt(0) ?? 0, forever: scope == "forever")
    }
}

extension Observable {
    /// One upstream subscription while there are subscribers, replaying the
    /// latest `replay` values to late subscribers. When the count drops to
    /// zero, or the source ends, the connection (and its replay buffer) is
    /// dropped and the next subscriber reconnects (RxSwift's `.whileConnected`).
    /// With `forever` (RxSwift's `.forever`, RxJS's `shareReplay`), one
    /// subject serves the whole run: a later connection keeps its replay
    /// buffer, and once the source has ended, later subscribers get the
    /// replay and the ending without a new subscription to the source.
    public func share(replay: Int = 0, forever: Bool = false) -> Observable {
        ShareNode(self, replay: Swift.max(0, replay), forever: forever)
    }
}

func makeSubject(replay: Int) -> Subject {
    replay > 0 ? ReplaySubject(bufferSize: replay) : PublishSubject()
}

final class ShareNode: Observable {
    private let replay: Int
    private let forever: Bool

    init(_ source: Observable, replay: Int, forever: Bool) {
        self.replay = replay
        self.forever = forever
        super.init(operatorName: "share", input: source)
    }

    override var sharesItsInput: Bool { true }

    /// The live connection of one scheduler run, if any, and the subject
    /// kept for the whole run with `forever`.
    final class State {
        var connection: ShareConnection?
        var subject: Subject?
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let state = scheduler.runState(for: self) { State() }
        let connection: ShareConnection
        var isNew = false
        if let existing = state.connection {
            connection = existing
        } else {
            let subject = forever ? state.subject ?? makeSubject(replay: replay) : makeSubject(replay: replay)
            if forever { state.subject = subject }
            connection = ShareConnection(subject: subject) { [weak state] ended in
                if state?.connection === ended { state?.connection = nil }
            }
            state.connection = connection
            isNew = true
        }
        connection.join(observer, on: scheduler)
        if isNew, connection.subject.terminal == nil { connection.connect(to: input, on: scheduler) }
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
        // The source reads as far as the slowest subscriber asks.
        subject.onDemandChange = { [weak self] wantsMore in self?.upstream?.passDemand(wantsMore) }
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
        if isEnded { return subscription.dispose() }
        upstream = subscription
        if !subject.subscribersWantMore { subscription.passDemand(false) }
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
