import Synchronization

/// The request the server is computing, and which requests the client has
/// cancelled: `$/cancelRequest` is read on the transport's reading thread
/// while the server computes on another, so a hover whose marble run is
/// long stops within a few thousand steps of it (`Program.stopRequested`),
/// not when the run ends.
public final class RequestCancellation: Sendable {
    private struct State {
        var running: String?
        var runningIsCancelled = false
        /// Cancelled before they began (or after they ended): kept so a
        /// request read but not yet begun is not computed.
        var cancelledEarly: [String] = []
    }

    private let state = Mutex(State())
    /// Cancellations of requests not running are kept at most this many
    /// (those of requests already answered are never asked about).
    static let earlyCancellationsKept = 64

    public init() {}

    /// The client cancels request `id`: the one running stops, one to come
    /// is answered as cancelled when it begins. Safe from any thread.
    public func cancel(_ id: Any) {
        let key = Self.key(id)
        state.withLock { state in
            if state.running == key {
                state.runningIsCancelled = true
            } else {
                state.cancelledEarly.append(key)
                if state.cancelledEarly.count > Self.earlyCancellationsKept { state.cancelledEarly.removeFirst() }
            }
        }
    }

    /// Request `id` starts being computed; false when it was cancelled already.
    func begin(_ id: Any) -> Bool {
        let key = Self.key(id)
        return state.withLock { state in
            if let early = state.cancelledEarly.firstIndex(of: key) {
                state.cancelledEarly.remove(at: early)
                return false
            }
            state.running = key
            state.runningIsCancelled = false
            return true
        }
    }

    /// The running request is done; whether it was cancelled meanwhile.
    func end() -> Bool {
        state.withLock { state in
            defer { (state.running, state.runningIsCancelled) = (nil, false) }
            return state.runningIsCancelled
        }
    }

    /// Whether the running request is cancelled: what a long computation asks.
    public var isCancelled: Bool { state.withLock { $0.runningIsCancelled } }

    /// Whether a request is being computed (a test waits for it).
    public var isRunning: Bool { state.withLock { $0.running != nil } }

    static func key(_ id: Any) -> String { "\(id)" }
}
