import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Where each signal the process hears goes. A run's stop (SIGINT,
/// SIGTERM, SIGHUP) listens by default; a script that watches a signal
/// itself (`signals("HUP")`) takes it over for as long as it watches, so a
/// HUP reloads instead of stopping. One `SignalWatcher` per signal is
/// shared by every listener (a signal has one handler per process).
public final class SignalRoutes: @unchecked Sendable {
    public static let shared = SignalRoutes()

    private struct Route {
        let id: Int
        let takesOver: Bool
        let handler: @Sendable () -> Void
    }

    private let lock = NIOLock()
    private var watchers: [Int32: SignalWatcher] = [:]
    private var routes: [Int32: [Route]] = [:]
    private var nextID = 0

    /// The signals a script may name, by their names without `SIG`.
    public static let names: [String: Int32] = ["HUP": SIGHUP, "INT": SIGINT, "TERM": SIGTERM, "QUIT": SIGQUIT, "USR1": SIGUSR1, "USR2": SIGUSR2]

    /// Calls `handler` on a thread of its own at each `signal`, until the
    /// result is cancelled; nil if the signal cannot be watched. A route
    /// that `takesOver` silences the others while it lasts.
    public func route(_ signal: Int32, takesOver: Bool, _ handler: @escaping @Sendable () -> Void) -> SignalRoute? {
        lock.withLock { () -> SignalRoute? in
            if watchers[signal] == nil {
                guard let watcher = SignalWatcher(signal: signal, { [weak self] in self?.deliver(signal) }) else { return nil }
                watchers[signal] = watcher
            }
            nextID += 1
            routes[signal, default: []].append(Route(id: nextID, takesOver: takesOver, handler: handler))
            return SignalRoute(routes: self, signal: signal, id: nextID)
        }
    }

    /// Whether a script watches `signal` now.
    public func isTakenOver(_ signal: Int32) -> Bool {
        lock.withLock { routes[signal]?.contains { $0.takesOver } ?? false }
    }

    private func deliver(_ signal: Int32) {
        let all = lock.withLock { routes[signal] ?? [] }
        let chosen = all.contains { $0.takesOver } ? all.filter(\.takesOver) : all
        for route in chosen { route.handler() }
    }

    fileprivate func remove(_ signal: Int32, _ id: Int) {
        let finished: SignalWatcher? = lock.withLock {
            routes[signal]?.removeAll { $0.id == id }
            guard routes[signal]?.isEmpty ?? true else { return nil }
            routes[signal] = nil
            return watchers.removeValue(forKey: signal)
        }
        // The last listener gone: the signal's default action again.
        finished?.cancel()
    }
}

/// One listener of a signal, ended by `cancel` (once).
public final class SignalRoute: Disposable, @unchecked Sendable {
    private let routes: SignalRoutes
    private let signal: Int32
    private let id: Int
    private let cancelled = NIOLockedValueBox(false)

    fileprivate init(routes: SignalRoutes, signal: Int32, id: Int) {
        self.routes = routes
        self.signal = signal
        self.id = id
    }

    public func cancel() {
        guard cancelled.withLockedValue({ was in defer { was = true }; return !was }) else { return }
        routes.remove(signal, id)
    }

    public func dispose() { cancel() }
}
