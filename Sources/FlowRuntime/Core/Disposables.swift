/// Something that can be cancelled. Disposal is idempotent and safe to call
/// from inside any callback, including the one being delivered.
public protocol Disposable: AnyObject {
    func dispose()
}

/// Nothing to cancel.
public final class NopDisposable: Disposable, Sendable {
    public static let shared = NopDisposable()
    public func dispose() {}
}

/// Runs an action on the first disposal only.
public final class ActionDisposable: Disposable {
    private var action: (() -> Void)?
    public init(_ action: @escaping () -> Void) { self.action = action }
    public var isDisposed: Bool { action == nil }
    public func dispose() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

/// A flag a synchronous source polls between events, so a downstream
/// `take` can stop a loop that has not returned yet.
public final class BooleanDisposable: Disposable {
    /// Polled between a synchronous source's events.
    @exclusivity(unchecked) public private(set) var isDisposed = false
    public init() {}
    public func dispose() { isDisposed = true }
}

/// Holds one disposable at a time; setting a new one disposes the old one.
/// Once disposed, anything set is disposed at once.
public final class SerialDisposable: Disposable {
    private var current: Disposable?
    public private(set) var isDisposed = false
    public init() {}

    public var disposable: Disposable? {
        get { current }
        set {
            if isDisposed { newValue?.dispose(); return }
            let old = current
            current = newValue
            old?.dispose()
        }
    }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let old = current
        current = nil
        old?.dispose()
    }
}

/// Disposes a group together. Members added after disposal are disposed at once.
public final class CompositeDisposable: Disposable {
    private var members: [ObjectIdentifier: Disposable] = [:]
    public private(set) var isDisposed = false
    public init() {}

    public func insert(_ d: Disposable) {
        if isDisposed { d.dispose(); return }
        members[ObjectIdentifier(d)] = d
    }

    public func remove(_ d: Disposable) {
        members.removeValue(forKey: ObjectIdentifier(d))
    }

    public var count: Int { members.count }

    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        let all = members.values
        members = [:]
        for d in all { d.dispose() }
    }
}

/// How a synchronous source (`range`, `just`, `from`) learns, between events, that
/// it should stop. A sink or an inner observer downstream already knows
/// (it stops on disposal and on its own terminal event), so the source
/// polls it and allocates no subscription of its own; any other observer
/// gets a flag to dispose. (No sink cancels its source while it goes on
/// itself, except once the source has ended or from a later turn of the
/// loop, when a synchronous source is done.)
struct StopSignal {
    private enum Poll {
        case sink(Sink)
        case inner(InnerObserver)
        case flag(BooleanDisposable)
    }

    private let poll: Poll

    /// Subscribes `observer` and returns how to poll it.
    init(subscribing observer: Observer) {
        if let sink = observer as? Sink {
            poll = .sink(sink)
            sink.onSubscribe(NopDisposable.shared)
        } else if let inner = observer as? InnerObserver {
            poll = .inner(inner)
            inner.onSubscribe(NopDisposable.shared)
        } else {
            let flag = BooleanDisposable()
            poll = .flag(flag)
            observer.onSubscribe(flag)
        }
    }

    var isStopped: Bool {
        switch poll {
        case .sink(let sink): sink.isStopped
        case .inner(let inner): inner.isDone
        case .flag(let flag): flag.isDisposed
        }
    }
}
