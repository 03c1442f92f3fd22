import DequeModule

extension OperatorSpec {
    /// A method on a subject, run at once (not a stream operator).
    static func subjectMethod(
        _ name: String, aliases: [Spelling], _ summary: String, _ parameters: [Parameter], example: String? = nil,
        differences: String? = nil, _ act: @escaping @Sendable (Subject, Arguments) throws -> Void
    ) -> OperatorSpec {
        OperatorSpec(name, aliases: aliases, .subjects, .method, summary, [
            Signature(parameters) { args in
                try act(try args.subject(), args)
                return .null
            },
        ], example: example, differences: differences)
    }

    static let subject = OperatorSpec("subject", aliases: ["PublishSubject", "publishSubject", "PassthroughSubject", "PublishRelay", "Subject"], .subjects, .function,
        "a stream you push values into with send, complete and fail", [
        Signature([]) { _ in .stream(PublishSubject()) },
    ], example: #"""
            let s = subject()
            timer(1ms).sink { _ in s.send("a") }
            timer(3ms).sink { _ in s.send("b") }
            timer(4ms).sink { _ in s.complete() }
            marbles(s)
            """#,
        differences: "RxSwift `PublishSubject` (and `PublishRelay`, which never ends), Combine `PassthroughSubject`, RxJS `Subject`: a subscriber gets what is sent after it subscribed; once the subject has ended, only the end.")
}

/// Subjects: streams that scripts push values into (`send`, `complete`,
/// `fail`) and many observers share.
///
/// Delivery is never re-entrant: a value sent from inside an observer's
/// callback is queued and delivered once the current delivery has reached
/// every observer, so all observers see the same order.
///
/// Demand: a subject holds nothing for a subscriber that has enough (it
/// delivers each value at once, to every subscriber). Its subscribers' joint
/// demand is the least of theirs, as Reactive Streams has a multicast
/// processor ask its source: it wants more only while every subscriber
/// does. A subject fed by a source (`share`, `publish`, `replay`) passes
/// that on to the source; one fed by `send` cannot stop its sender, and a
/// slow subscriber's own stage (a `pg.insert`'s rows) holds what it is sent.
public class Subject: Observable {
    @exclusivity(unchecked) private var observers: [(id: Int, observer: Observer)] = []
    /// The subscribers that have enough for now.
    @exclusivity(unchecked) private var satisfied: Set<Int> = []
    /// Told when the subscribers' joint demand changes: the source feeding
    /// the subject, if one does.
    @exclusivity(unchecked) var onDemandChange: ((Bool) -> Void)?
    /// Whether every subscriber wants more (none has said it has enough).
    var subscribersWantMore: Bool { satisfied.isEmpty }
    private var nextID = 0
    @exclusivity(unchecked) private var pending = Deque<Event>()
    @exclusivity(unchecked) private var isDelivering = false
    /// The terminal event, once sent; later subscribers receive it at once.
    @exclusivity(unchecked) public private(set) var terminal: Event?

    init(name: String) { super.init(operatorName: name) }

    /// A subject fails only when told to, with an error the script located.
    override public var raisesOwnErrors: Bool { false }

    public var hasObservers: Bool { !observers.isEmpty }

    override public var isHotSource: Bool { true }

    /// What a value sent becomes: a subject declared with an element type
    /// (`CurrentValueSubject<Double, Never>`) takes an Int as a Double, as
    /// Swift's literal would be. Nil for an untyped subject.
    @exclusivity(unchecked) public private(set) var elementConversion: ((Value) -> Value)?
    /// Whether `elementConversion` is set: one byte to test on the path of
    /// every value, where loading the optional closure costs more.
    @exclusivity(unchecked) private var convertsElements = false

    /// Sets what values sent become, and converts what the subject holds.
    public func convertElements(with convert: @escaping (Value) -> Value) {
        elementConversion = convert
        convertsElements = true
        convertHeldValues(with: convert)
    }

    func convertHeldValues(with convert: (Value) -> Value) {}

    /// Sends a value; the path every event of a subject-driven script
    /// takes, without building an `Event` when nothing is queued.
    public func send(_ value: Value) {
        guard terminal == nil else { return }
        // Apart from the path of untyped subjects, which must not copy the value.
        if _slowPath(convertsElements) { return post(.next(elementConversion!(value))) }
        if isDelivering {
            pending.append(.next(value))
            return
        }
        isDelivering = true
        deliverNext(value)
        while let next = pending.popFirst() { deliver(next) }
        isDelivering = false
    }
    public func complete() { post(.completed) }
    public func fail(_ error: FlowError) { post(.error(error)) }
    /// Delivers an event.
    public func send(event: Event) {
        if let elementConversion, case .next(let value) = event { return post(.next(elementConversion(value))) }
        post(event)
    }

    private func post(_ event: Event) {
        guard terminal == nil else { return }
        if event.isTerminal { terminal = event }
        if isDelivering {
            pending.append(event)
            return
        }
        isDelivering = true
        deliver(event)
        while let next = pending.popFirst() { deliver(next) }
        isDelivering = false
    }

    private func deliver(_ event: Event) {
        if case .next(let value) = event { return deliverNext(value) }
        for (_, observer) in observers { observer.on(event) }
        observers = []
        satisfied = []
    }

    /// Inlined into `send`, the path of every value: left to the
    /// optimiser, it was called there once the subject kept its
    /// subscribers' demand (14 instructions a value more).
    @inline(__always)
    private func deliverNext(_ value: Value) {
        recordNext(value)
        for entry in observers { entry.observer.onNext(value) }
    }

    fileprivate func remove(_ id: Int) {
        if let index = observers.firstIndex(where: { $0.id == id }) { observers.remove(at: index) }
        // The subscriber that held the others back left: they set the pace.
        if satisfied.remove(id) != nil, satisfied.isEmpty { onDemandChange?(true) }
    }

    /// A subscriber's change of demand; the joint demand changes when the
    /// first says it has enough and when the last of those wants more.
    fileprivate func demand(_ wantsMore: Bool, from id: Int) {
        // From a subscriber being replayed to too, before it joins the observers.
        guard terminal == nil else { return }
        let before = satisfied.isEmpty
        if wantsMore { satisfied.remove(id) } else { satisfied.insert(id) }
        if satisfied.isEmpty != before { onDemandChange?(satisfied.isEmpty) }
    }

    /// Remember a value later subscribers must be replayed.
    func recordNext(_ value: Value) {}
    /// Replay to a new subscriber before it joins.
    func replay(to observer: Observer) {}

    override public func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let id = nextID
        nextID += 1
        observer.onSubscribe(SubjectSubscription(subject: self, id: id))
        replay(to: observer)
        if let terminal {
            observer.on(terminal)
            return
        }
        observers.append((id, observer))
    }
}

/// One observer's place in a subject. It holds the subject strongly (no
/// weak reference: those make every retain of the subject take a slow
/// path); the cycle through the observer ends when either is done.
final class SubjectSubscription: Disposable, DemandControl {
    private var subject: Subject?
    private let id: Int

    init(subject: Subject, id: Int) {
        self.subject = subject
        self.id = id
    }

    func dispose() {
        let s = subject
        subject = nil
        s?.remove(id)
    }

    func demand(_ wantsMore: Bool) { subject?.demand(wantsMore, from: id) }
}

/// Forwards to its current observers only (RxSwift's PublishSubject).
public final class PublishSubject: Subject {
    public init() { super.init(name: "subject") }
}
