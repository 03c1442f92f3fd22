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
        // A closed terminal (or `systemctl reload` without an ExecReload)
        // and Ctrl-\ end a run as Ctrl-C does: cleanly, files being written
        // left whole, not killed where they stand; unless the script
        // watches that signal itself (`signals("HUP")`).
        let signals = [(SIGINT, Interrupt.interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp), (SIGQUIT, .quit)]
        let routes = signals.compactMap { signal, kind in
            SignalRoutes.shared.route(signal, takesOver: false) { handler(kind) }
        }
        return routes.isEmpty ? nil : SignalWatches(routes: routes)
    }
}

private struct SignalWatches: InterruptWatch {
    let routes: [SignalRoute]

    func cancel() { for route in routes { route.cancel() } }
}
