import FlowRuntime

/// The handlers a script gives `sink` or `subscribe`.
struct Handlers {
    var next: Function?
    var error: Function?
    var completed: Function?
    /// Combine's `receiveCompletion`: called with `completed` or `error(e)`.
    var completion: Function?
    /// RxSwift's `onDisposed`: called once the subscription has ended, by
    /// completion, error or cancellation.
    var disposed: Function?
    /// `subscribe { event in }`'s one closure: under import RxSwift it
    /// gets every event (`next(v)`, `error(e)`, `completed`), as RxSwift's
    /// `subscribe(_ on:)` does; in the other dialects each value, as
    /// RxJS's `subscribe(next)` does.
    var events: Function?

    /// RxSwift's `subscribe(with: owner, onNext: { owner, value in })`:
    /// every handler gets the owner first.
    var owner: Value?

    enum Role { case next, error, completed, completion, disposed, events, owner, ignored, valuesTo }

    mutating func set(_ role: Role, _ function: Function) {
        switch role {
        case .next: next = function
        case .error: error = function
        case .completed: completed = function
        case .completion: completion = function
        case .disposed: disposed = function
        case .events: events = function
        case .valuesTo: next = function
        case .owner, .ignored: break
        }
    }

    /// Sets a handler from an argument's value: a closure, the owner of
    /// `with:`, or a subject: RxSwift's `subscribe(subject)` passes it every
    /// event, RxCocoa's `drive(relay)` and `emit(to: relay)` the values
    /// alone, as a relay never ends.
    mutating func set(_ role: Role, value: Value) throws {
        switch role {
        case .owner: owner = value
        case .ignored: break
        case .next, .events, .valuesTo:
            guard case .stream(let stream) = value else { return set(role, try value.asFunction()) }
            guard let subject = stream as? Subject else {
                throw FlowError("a subscription takes a closure or a subject to pass events to, got \(value.typeName) \(value.literal)")
            }
            next = Function.unary(name: "subject") { subject.send($0); return .null }
            guard role != .valuesTo else { return }
            error = Function.unary(name: "subject") { subject.send(event: .error(FlowError($0))); return .null }
            completed = Function.variadic(name: "subject") { _ in subject.send(event: .completed); return .null }
        default: set(role, try value.asFunction())
        }
    }

    /// The handler of each argument of a subscribing call, by its label.
    static func roles(of labels: [String?], in call: String) -> [Role] {
        // `context:` (CwlSignal's) only says where to run: it does not count.
        let alone = labels.filter { $0 != "context" }.count == 1
        return labels.map { role(of: $0, in: call, alone: alone) }
    }

    /// The handler a label sets; `alone` says whether it is the call's only handler.
    private static func role(of label: String?, in call: String, alone: Bool) -> Role {
        switch label {
        case "onError", "onFailure": .error
        case "onCompleted": .completed
        case "receiveCompletion": .completion
        case "onDisposed": .disposed
        case "with": .owner
        case "context": .ignored
        case nil where call == "subscribe" && alone: .events
        case "to", nil where call == "drive" || call == "emit": .valuesTo
        default: .next
        }
    }

    /// Whether `resolved(for:)` has anything to do: most subscriptions
    /// have neither a closure of every event nor an owner.
    var needsResolving: Bool { events != nil || owner != nil }

    /// The handlers as the dialect reads them: `events` becomes handlers
    /// of values, errors and completion, and an owner is passed first.
    func resolved(for dialect: Dialect) -> Handlers {
        var handlers = self
        if let events {
            handlers.events = nil
            // What the closure is given for each event: RxSwift's Event, or
            // CwlSignal's Result (a value, or the end: an error or
            // `complete`); elsewhere it is a handler of values alone.
            let given: ((Event) -> Value)?
            switch dialect {
            case .rxSwift: given = { .event($0) }
            case .cwlSignal: given = { $0.asResult }
            default: given = nil
            }
            if let given {
                handlers.next = Function.unary(name: "subscribe") { try events.call(given(.next($0))) }
                handlers.error = Function.unary(name: "subscribe") { try events.call(given(.error(FlowError($0)))) }
                handlers.completed = Function.variadic(name: "subscribe") { _ in try events.call(given(.completed)) }
            } else {
                handlers.next = events
            }
        }
        if let owner {
            handlers.owner = nil
            func withOwner(_ handler: Function?) -> Function? {
                handler.map { f in Function.variadic(name: f.name) { try f.call([owner] + $0) } }
            }
            handlers.next = withOwner(handlers.next)
            handlers.error = withOwner(handlers.error)
            handlers.completed = withOwner(handlers.completed)
            handlers.disposed = withOwner(handlers.disposed)
        }
        return handlers
    }
}

extension Value {
    var isSubscription: Bool {
        if case .function(let f) = self { f.subscription != nil } else { false }
    }
}

/// RxSwift's `DisposeBag()`: holds the subscriptions given to it with
/// `disposed(by:)`; `dispose()` ends them all.
final class DisposeBagValue: Function {
    private var held: [Disposable] = []

    init() { super.init(name: "DisposeBag", parameterCount: 0) }

    /// RxSwift's bag disposes what it holds when it goes: released, or
    /// replaced (`bag = DisposeBag()`).
    deinit { for subscription in held { subscription.dispose() } }

    func insert(_ subscription: Disposable) { held.append(subscription) }

    override func call(_ args: [Value]) throws -> Value {
        let all = held
        held = []
        for subscription in all { subscription.dispose() }
        return .null
    }
}

/// Combine's `AnyCancellable`, what `sink` and `assign(to:on:)` give.
/// Once a name, a property or a set holds it, it cancels its subscription
/// when released or replaced (`cancellable = nil`,
/// `cancellables.removeAll()`, the object holding it gone). One nobody
/// holds (`s.sink { }` as a statement, or in a closure whose result is
/// dropped) runs on, as flow's subscriptions do: Combine would end it at
/// once, which a script never means.
final class CancelOnRelease: Function {
    let subscriber: ScriptSubscriber
    private var isHeld = false

    init(_ subscriber: ScriptSubscriber) {
        self.subscriber = subscriber
        super.init(name: "AnyCancellable", parameterCount: 0)
    }

    /// Held by a name, a property or a collection: released, it cancels.
    func hold() { isHeld = true }

    override func call(_ args: [Value]) throws -> Value {
        subscriber.dispose()
        return .null
    }

    deinit { if isHeld { subscriber.dispose() } }
}

extension Value {
    /// The value, told that a name now holds it: an AnyCancellable then
    /// cancels when the name lets go of it.
    @inline(__always)
    func keptByAName() -> Value {
        if case .function(let f) = self, let cancellable = f as? CancelOnRelease { cancellable.hold() }
        return self
    }
}

extension Function {
    /// The subscription a subscribing call gave, however it is held.
    var subscription: ScriptSubscriber? {
        (self as? ScriptSubscriber) ?? (self as? CancelOnRelease)?.subscriber
    }
}

extension Environment {
    /// Subscribes a stream for its effects (`sink`, `subscribe`, a
    /// statement ending in `.print`). An error that reaches a subscriber
    /// without an error handler is reported and fails the run.
    @discardableResult
    func subscribe(_ stream: Observable, at location: SourceLocation, handlers: Handlers) -> ScriptSubscriber {
        if tracesEverything { run.scheduler.tracer?.trace(stream) }
        // Most subscriptions have nothing to resolve: they skip the copy.
        let subscriber = handlers.needsResolving
            ? ScriptSubscriber(handlers: handlers.resolved(for: dialect), location: location, environment: self)
            : ScriptSubscriber(handlers: handlers, location: location, environment: self)
        // A sink that writes after the fact (a database's) can end its stream.
        if let consumer = handlers.next?.streamConsumer {
            consumer.attach(to: subscriber)
            consumer.count(in: run.commits)
        }
        run.track(subscriber)
        stream.subscribe(subscriber, on: run.scheduler)
        return subscriber
    }
}

/// The end of a script's chain: calls its handlers, and reports an error
/// nobody handles (a handler that throws ends the subscription with it).
///
/// It is also the subscription as a value, which `sink`, `subscribe` and
/// `bind` return (a function: calling it, `cancel()` or `dispose()` ends
/// it), so subscribing allocates nothing more. `store(in:)` and
/// `disposed(by:)` keep it, as the libraries require; in flow a
/// subscription lives until it ends or the run does, kept or not.
final class ScriptSubscriber: Function, Observer, RunningSubscription, DemandControl {
    private let handlers: Handlers
    /// Where the script subscribes, for errors nobody handles.
    let subscribedAt: SourceLocation
    private let environment: Environment
    private let run: RunState
    // Per-subscription state, on the run's one thread: without Swift's
    // dynamic exclusivity checks, as in the runtime's sinks.
    @exclusivity(unchecked) private var upstream: Disposable?
    @exclusivity(unchecked) private var isDone = false
    @exclusivity(unchecked) var runningSlot = -1

    init(handlers: Handlers, location: SourceLocation, environment: Environment) {
        self.handlers = handlers
        subscribedAt = location
        self.environment = environment
        self.run = environment.run
        super.init(name: "subscription", parameterCount: 0)
    }

    override func call(_ args: [Value]) throws -> Value {
        dispose()
        return .null
    }

    func onSubscribe(_ subscription: Disposable) {
        if isDone { subscription.dispose() } else { upstream = subscription }
    }

    /// A sink slower than its source (a database's) says when it has
    /// enough and when it wants more again: passed up the chain.
    func demand(_ wantsMore: Bool) { upstream?.passDemand(wantsMore) }

    func onNext(_ value: Value) {
        guard !isDone, let next = handlers.next else { return }
        do { _ = try next.call(value) } catch {
            dispose()
            report(FlowError.wrap(error))
        }
    }

    func onError(_ error: FlowError) {
        guard !isDone else { return }
        defer { callDisposed() }
        let notes = releaseConsumers(.failed)
        _ = finish()
        do {
            if let handler = handlers.error {
                for note in notes { environment.note(note) }
                _ = try handler.call(error.value)
            } else if let completion = handlers.completion {
                for note in notes { environment.note(note) }
                _ = try completion.call(.event(.error(error), environment.dialect.completionSpelling))
            } else {
                report(notes.isEmpty ? error : FlowError(([error.message] + notes).joined(separator: "; "), at: error.location))
            }
        } catch {
            report(FlowError.wrap(error))
        }
    }

    func onCompleted() {
        if isDone { return }
        for note in releaseConsumers(.completed) { environment.note(note) }
        guard finish() else { return }
        defer { callDisposed() }
        do {
            _ = try handlers.completed?.call([])
            _ = try handlers.completion?.call(.event(.completed, environment.dialect.completionSpelling))
        } catch {
            report(FlowError.wrap(error))
        }
    }

    /// Marks the end; false if it had already ended.
    private func finish() -> Bool {
        guard !isDone else { return false }
        isDone = true
        upstream = nil
        run.untrack(self)
        return true
    }

    private var disposedCalled = false

    private func callDisposed() {
        guard !disposedCalled, let disposed = handlers.disposed else { return }
        disposedCalled = true
        do { _ = try disposed.call([]) } catch { report(FlowError.wrap(error)) }
    }

    func dispose() {
        let wasDone = isDone
        isDone = true
        let up = upstream
        upstream = nil
        up?.dispose()
        if !wasDone {
            run.untrack(self)
            for note in releaseConsumers(.cancelled) { environment.note(note) }
            callDisposed()
        }
    }

    /// A handler that holds something (a file writer) is told how the
    /// stream ended; it may have something to say about its output. Called
    /// once, by whichever of the three endings comes first.
    private func releaseConsumers(_ ending: StreamEnding) -> [String] {
        // One by one, not through an array: a subscription ends per event
        // in scripts that subscribe inside closures.
        var notes: [String] = []
        func release(_ handler: Function?) {
            if let note = handler?.streamConsumer?.finish(ending) { notes.append(note) }
        }
        release(handlers.next)
        release(handlers.error)
        release(handlers.completed)
        release(handlers.completion)
        return notes
    }

    private func report(_ error: FlowError) {
        let located = error.located(at: subscribedAt)
        run.failed(located, report: environment.reportStreamError)
    }
}
