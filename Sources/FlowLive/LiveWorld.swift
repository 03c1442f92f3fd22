import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The wall clock and the process's signals, as a program sees them: each
/// run gets a swift-nio loop of its own (`LiveScheduler.run`), and Ctrl-C
/// SIGTERM, SIGHUP and SIGQUIT are heard through `SignalWatcher`s.
public struct LiveWorld: LiveHost {
    public init() {}

    public func run(_ body: @escaping (any LiveLoop, @escaping @Sendable () -> Void) -> Void) {
        LiveScheduler.run { scheduler, handle in body(scheduler, { handle.stop() }) }
    }

    public func watchInterrupts(_ handler: @escaping @Sendable (Interrupt) -> Void) -> InterruptWatch? {
        // A closed terminal and Ctrl-\ end a run as Ctrl-C does: cleanly,
        // files being written left whole, not killed where they stand.
        let signals = [(SIGINT, Interrupt.interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp), (SIGQUIT, .quit)]
        let watchers = signals.compactMap { signal, kind in
            SignalWatcher(signal: signal) { handler(kind) }
        }
        return watchers.isEmpty ? nil : SignalWatches(watchers: watchers)
    }
}

private struct SignalWatches: InterruptWatch {
    let watchers: [SignalWatcher]

    func cancel() { for watcher in watchers { watcher.cancel() } }
}
