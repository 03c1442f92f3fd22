import FlowMarbles
import FlowRuntime
import NIOConcurrencyHelpers

/// Follows and stops a program's live run from another thread (`flow
/// serve`'s page). Both hop onto the run's event loop, as I/O does, so the
/// run's state is only ever read where it is written.
///
/// Calls before the run has started wait for it (a stop asked for first
/// stops it as soon as it starts); calls after it has ended do nothing.
public final class LiveRunRemote: Sendable {
    public typealias Snapshot = @Sendable (_ diagrams: [LaneDiagram], _ errors: [FlowError], _ commits: CommitLedger) -> Void

    /// A snapshot asked for, on its way to the loop.
    struct Request: Sendable {
        let receive: Snapshot
    }

    private struct Hooks {
        var stop: (@Sendable (Bool) -> Void)?
        var snapshot: (@Sendable (Request) -> Void)?
        var stopAsked = false
    }

    private let hooks = NIOLockedValueBox(Hooks())

    public init() {}

    /// Ends the run: every subscription is cancelled, then the loop stops.
    public func stop() {
        let stop = hooks.withLockedValue { hooks in
            hooks.stopAsked = true
            return hooks.stop
        }
        stop?(true)
    }

    /// Calls `receive` on the run's loop with the diagrams as they are now
    /// (the lanes of `marbles(...)` and each traced chain), the stream
    /// errors so far and what the run's sinks have committed. Not called if the run has ended. False when the run
    /// has not started yet, so nothing was asked.
    @discardableResult
    public func snapshot(_ receive: @escaping Snapshot) -> Bool {
        guard let snapshot = hooks.withLockedValue({ $0.snapshot }) else { return false }
        snapshot(Request(receive: receive))
        return true
    }

    /// Called by the run on its loop once it can be stopped and drawn.
    func attach(stop: @escaping @Sendable (Bool) -> Void, snapshot: @escaping @Sendable (Request) -> Void) {
        let stopAsked = hooks.withLockedValue { hooks in
            hooks.stop = stop
            hooks.snapshot = snapshot
            return hooks.stopAsked
        }
        if stopAsked { stop(true) }
    }
}
