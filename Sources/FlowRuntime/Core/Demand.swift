/// Demand: how a consumer slower than its source (a database sink, an HTTP
/// request per value) keeps the source from reading ahead of it.
///
/// Reactive Streams' `request(n)` and Combine's `Subscribers.Demand` count
/// what a consumer asks for. flow keeps the two states that bound memory,
/// *wants more* and *has enough for now*, and passes a change of state up
/// the chain: a count would have every operator that drops values
/// (`filter`, `compactMap`, `skip`) ask again for each one it drops, on
/// every event of every script; a change of state costs nothing per event
/// and cannot strand a consumer that is owed values. A source that honours
/// demand stops reading once it is told its consumer has enough, after the
/// chunk it has in hand (a file's 64 KiB, a query's rows handed over), and
/// reads on when told it wants more; everything between holds at most that
/// chunk. A subscriber that never says anything wants everything, as in
/// the Rx contract, so virtual time and marbles are unchanged.
///
/// Who passes demand on and who holds values instead is listed in
/// docs/semantics.md ("Demand").
public protocol DemandControl: AnyObject {
    /// `false`: the consumer has enough for now; `true`: it wants more again.
    func demand(_ wantsMore: Bool)
}

extension Disposable {
    /// Tells the subscription a change of its consumer's demand, if it
    /// passes demand on (a subscription that does not reads as fast as it
    /// can, as every subscription did before demand).
    /// Out of line: it is called at a change of demand only, and its cast,
    /// inlined, made the operators that call it dearer on every event.
    @inline(never)
    public func passDemand(_ wantsMore: Bool) {
        (self as? DemandControl)?.demand(wantsMore)
    }
}

/// A source's side of demand: whether its consumer wants more, and what to
/// do when it does again. Sources read on the loop, so no locking.
public final class DemandGate: DemandControl {
    @exclusivity(unchecked) public private(set) var wantsMore = true
    /// Called on the loop when demand comes back after a pause.
    @exclusivity(unchecked) public var onResume: (() -> Void)?

    public init() {}

    public func demand(_ wantsMore: Bool) {
        let wasPaused = !self.wantsMore
        self.wantsMore = wantsMore
        if wantsMore && wasPaused { onResume?() }
    }
}

/// A stage that holds values for later (a sink's rows not yet written, a
/// `concatMap`'s queued streams): a run over `--max-memory` names the one
/// holding the most. Stages register once they hold `registrationThreshold`
/// values, so a stage that holds few costs nothing for it.
public protocol ValueHolder: AnyObject {
    /// How many values it holds now.
    var heldValueCount: Int { get }
    /// How a message names it (`pg.insert("events")`, `concatMap`) and what
    /// it holds (`rows not yet written`).
    var heldValueDescription: (stage: String, what: String) { get }
    /// Where the script wrote it.
    var heldValueLocation: SourceLocation? { get }
}

/// The value holders of one run.
public final class HeldValues {
    private struct WeakHolder { weak var holder: ValueHolder? }
    private var holders: [WeakHolder] = []

    /// Stages register once they hold this many values.
    public static let registrationThreshold = 1024

    private final class Key: Sendable {}
    private static let key = Key()

    public init() {}

    /// The holders of the run `scheduler` drives.
    public static func of(_ scheduler: Scheduler) -> HeldValues {
        scheduler.runState(for: key) { HeldValues() }
    }

    public func register(_ holder: ValueHolder) {
        holders.removeAll { $0.holder == nil }
        guard !holders.contains(where: { $0.holder === holder }) else { return }
        holders.append(WeakHolder(holder: holder))
    }

    /// The holder holding the most values now, if any holds some.
    public var largest: ValueHolder? {
        holders.compactMap(\.holder).filter { $0.heldValueCount > 0 }.max { $0.heldValueCount < $1.heldValueCount }
    }
}
