import FlowRuntime
import Synchronization
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

    public func watchMemory(limit: Int, _ handler: @escaping @Sendable (Int) -> Void) -> InterruptWatch? {
        guard ResidentMemory.bytes() != nil else { return nil }
        let watch = MemoryWatch()
        startBackgroundThread {
            while !watch.isCancelled {
                if let resident = ResidentMemory.bytes(), resident > limit {
                    return handler(resident)
                }
                var pause = timespec(tv_sec: 0, tv_nsec: MemoryWatch.period)
                nanosleep(&pause, nil)
            }
        }
        return watch
    }
}

/// A memory watch's thread looks every `period` nanoseconds until cancelled:
/// a source reading a few MB a second is caught within a few MB.
private final class MemoryWatch: InterruptWatch {
    static let period = 20_000_000
    private let cancelled = Atomic(false)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }
}

private struct SignalWatches: InterruptWatch {
    let routes: [SignalRoute]

    func cancel() { for route in routes { route.cancel() } }
}
