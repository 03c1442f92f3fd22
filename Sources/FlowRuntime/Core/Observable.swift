/// A stream: a description of events that runs when something subscribes.
///
/// Streams are immutable nodes of an operator graph. Each holds the streams
/// it reads from in `inputs`, which gives the graph a uniform shape for
/// tools (`:graph`, tracing) and lets teardown of a very deep graph run as
/// a loop instead of a recursion that would overflow the stack.
open class Observable {
    /// The operator that made this node, by its canonical name (`map`).
    public let operatorName: String
    /// What the language knows of the node (how and where it was written),
    /// in one reference shared by every node made at the same place in a
    /// script: nodes are made per event in some scripts (`flatMap {
    /// range(0, 10) }`), and a node that is smaller, and needs nothing more
    /// allocated, is a cheaper one.
    /// Set once, where the node is made; read at every subscription, so
    /// without Swift's dynamic exclusivity check (see architecture.md).
    @exclusivity(unchecked) public var origin: NodeOrigin?

    /// How the node was written, when the language knows (`map { $0 * 2 }`).
    public var label: String? {
        get { origin?.label }
        set { origin = NodeOrigin(label: newValue, location: origin?.location, name: origin?.name) }
    }

    /// Where the node was written, when the language knows: an error the
    /// node raises itself (a timeout, "no elements", a marble's `#`) is
    /// given this location, so it points at the operator, not at the
    /// statement that subscribed.
    public var location: SourceLocation? {
        get { origin?.location }
        set { origin = NodeOrigin(label: origin?.label, location: newValue, name: origin?.name) }
    }

    /// The streams this node reads from, in order.
    public var inputs: [Observable] { onlyInput.map { [$0] } ?? severalInputs }

    /// The first input, for nodes that read one stream: read at every
    /// subscription, without building `inputs`.
    public final var input: Observable { onlyInput ?? severalInputs[0] }

    // A node of one input (most operators) keeps it without an array, so
    // building the node, which scripts do per event, allocates only the
    // node. Read at every subscription and in every node's deinit: without
    // the dynamic exclusivity check.
    @exclusivity(unchecked) private var onlyInput: Observable?
    @exclusivity(unchecked) private var severalInputs: [Observable]

    /// Whether this node is a fused stage (a `PipelineNode`): a stored flag,
    /// which walking a chain of fused nodes reads for each, costs less than
    /// a cast to the non-final `PipelineNode`.
    @exclusivity(unchecked) final var isFusedStage = false

    /// Whether the node was built with a function that may have side
    /// effects (`map { print($0) }`, a Swift closure, a script's `func`):
    /// such a node is never subscribed only to be drawn. A flag beside
    /// `isFusedStage`, so that a node takes no more memory for it.
    @exclusivity(unchecked) public final var callsCodeWithSideEffects = false

    /// Whether the node can raise errors of its own (as opposed to passing
    /// on its inputs' errors and those of script closures, which carry
    /// their own locations). Nodes that cannot are not wrapped to locate
    /// errors, and cost nothing per event for it.
    open var raisesOwnErrors: Bool { true }

    public init(operatorName: String, inputs: [Observable] = []) {
        self.operatorName = operatorName
        onlyInput = nil
        severalInputs = inputs
    }

    /// A node of one input.
    public init(operatorName: String, input: Observable) {
        self.operatorName = operatorName
        onlyInput = input
        severalInputs = []
    }

    /// Subscribes `observer`, scheduling any timed work on `scheduler`.
    ///
    /// Recursion through nested subscriptions is checked against the
    /// thread's stack: a graph too deep to subscribe fails with a stream
    /// error rather than overflowing.
    public final func subscribe(_ observer: Observer, on scheduler: Scheduler) {
        guard StackGuard.hasRoom() else {
            // Fail from the scheduler, where the stack is shallow again: the
            // failure has to travel back through every level above this one.
            let failure = scheduler.schedule(after: .zero) {
                observer.onSubscribe(NopDisposable.shared)
                observer.onError(StackGuard.tooDeepError)
            }
            _ = failure
            return
        }
        var observer = observer
        if let origin, let location = origin.location, raisesOwnErrors { observer = ErrorLocator(observer, location: location) }
        if let tracer = scheduler.tracer {
            tracer.subscribe(self, observer, on: scheduler) { subscribeCore($0, on: scheduler) }
            return
        }
        subscribeCore(observer, on: scheduler)
    }

    /// Subclasses implement subscription here; callers use `subscribe`.
    open func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        preconditionFailure("\(type(of: self)) must override subscribeCore")
    }

    /// Subscribes with closures; the result cancels the subscription.
    @discardableResult
    public final func subscribe(
        on scheduler: Scheduler,
        onNext: ((Value) -> Void)? = nil,
        onError: ((FlowError) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil
    ) -> CallbackObserver {
        let observer = CallbackObserver(onNext: onNext, onError: onError, onCompleted: onCompleted)
        subscribe(observer, on: scheduler)
        return observer
    }

    /// A source that produces whether or not anyone listens, one sequence
    /// shared by every subscriber (subjects, `hot(...)`, standard input);
    /// a cold source starts afresh for each subscriber.
    open var isHotSource: Bool { false }

    /// One subscription of its input shared by all its subscribers (`share`):
    /// a diagram draws that input once, with each subscriber marked.
    open var sharesItsInput: Bool { false }

    /// How a node prints in graphs and traces: its label, else its operator name.
    public var displayName: String { label ?? operatorName }

    /// How a script writes this stream, when it can be written: a group
    /// or window recorded for a lane prints as `cold("1---3|")`, which an
    /// expectation's value may be. nil for the rest.
    open var writtenAs: String? { nil }

    /// The name a script bound the node to (`let prices = ...`): its lane's
    /// label. Set once, where the script binds it.
    public var name: String? {
        get { origin?.name }
        set { origin = NodeOrigin(label: origin?.label, location: origin?.location, name: newValue) }
    }

    deinit {
        // Release a long chain iteratively: each uniquely held input gives up
        // its own inputs before it is freed, so no deinit recurses.
        // A chain of one-input nodes goes through `next`, allocating nothing.
        guard onlyInput != nil || !severalInputs.isEmpty else { return }
        var next = onlyInput
        var pending = severalInputs
        onlyInput = nil
        severalInputs = []
        while var node = next ?? pending.popLast() {
            next = nil
            if isKnownUniquelyReferenced(&node) {
                next = node.onlyInput
                if !node.severalInputs.isEmpty { pending.append(contentsOf: node.severalInputs) }
                node.onlyInput = nil
                node.severalInputs = []
            }
        }
    }
}

/// Gives an error without a location the location of the node it leaves:
/// the first node an error leaves is the one that raised it.
final class ErrorLocator: Observer {
    let downstream: Observer
    private let location: SourceLocation

    init(_ downstream: Observer, location: SourceLocation) {
        self.downstream = downstream
        self.location = location
    }

    func onSubscribe(_ subscription: Disposable) { downstream.onSubscribe(subscription) }
    func onNext(_ value: Value) { downstream.onNext(value) }
    func onError(_ error: FlowError) { downstream.onError(error.located(at: location)) }
    func onCompleted() { downstream.onCompleted() }
}

/// How and where a node was written in a script.
public final class NodeOrigin: Sendable {
    public let label: String?
    public let location: SourceLocation?
    /// The name a script's `let` gave the node, if one did.
    public let name: String?

    public init(label: String?, location: SourceLocation?, name: String? = nil) {
        self.label = label
        self.location = location
        self.name = name
    }
}
