/// A scheduler on the wall clock whose one thread other threads hand work
/// to. The runtime and the language are written against this protocol;
/// FlowLive's `LiveScheduler` implements it on a swift-nio event loop, so
/// nothing below FlowLive links NIO or touches the operating system's
/// clocks and signals.
public protocol LiveLoop: Scheduler {
    /// Runs `action` on the loop, from any thread. Work offered after the
    /// run has ended is dropped.
    func post(_ action: @escaping @Sendable () -> Void)
    /// Wraps a loop-bound handler into one any thread may call: the call
    /// hops onto the loop before the handler runs.
    func makeCallback<Payload: Sendable>(_ handler: @escaping (Payload) -> Void) -> @Sendable (Payload) -> Void
    /// Keeps the run alive until the returned disposable is disposed: taken
    /// by I/O for as long as it may still deliver events.
    func hold() -> Disposable
    /// Calls `handler` on the loop at each delivery of the named signal
    /// (`HUP`, `INT`, `TERM`, `USR1`, `USR2`) until the result is disposed;
    /// while it lasts the script, not the run's stop, hears that signal.
    /// nil where signals cannot be watched.
    func watchSignal(_ name: String, _ handler: @escaping () -> Void) -> Disposable?
}

extension LiveLoop {
    public func watchSignal(_ name: String, _ handler: @escaping () -> Void) -> Disposable? { nil }
}

/// Starts live runs and hears the user's interrupt: what a program needs
/// from the world to run on the wall clock. FlowLive's `LiveWorld` is the
/// one implementation; a caller that runs scripts live hands it down.
public protocol LiveHost: Sendable {
    /// Runs `body` on a new loop with a large stack and returns when the
    /// loop has stopped: when it goes idle, or when `stop` is called (from
    /// any thread, any number of times).
    func run(_ body: @escaping (_ loop: any LiveLoop, _ stop: @escaping @Sendable () -> Void) -> Void)
    /// Calls `handler` on a thread of its own at each interrupt until
    /// `cancel` is called on the result; nil when interrupts cannot be
    /// watched. Ctrl-C and a termination request (SIGTERM) both end a run
    /// the same way, cleanly; the handler is told which arrived.
    func watchInterrupts(_ handler: @escaping @Sendable (Interrupt) -> Void) -> InterruptWatch?
    /// Calls `handler` once, on a thread of its own, with the process's
    /// resident size when it first exceeds `limit` bytes, until `cancel` is
    /// called on the result; nil when the process cannot be measured.
    func watchMemory(limit: Int, _ handler: @escaping @Sendable (Int) -> Void) -> InterruptWatch?
}

extension LiveHost {
    public func watchMemory(limit: Int, _ handler: @escaping @Sendable (Int) -> Void) -> InterruptWatch? { nil }
}

/// A watch of interrupts, ended by `cancel`.
public protocol InterruptWatch: Sendable {
    func cancel()
}

/// What asked a run to stop from outside the process.
public enum Interrupt: Sendable, CaseIterable {
    /// Ctrl-C (SIGINT): the conventional exit status is 130.
    case interrupt
    /// A termination request (SIGTERM): 143.
    case terminate
    /// The terminal went away (SIGHUP): 129.
    case hangUp
    /// Ctrl-\ (SIGQUIT): 131. A stop like the others, not a core dump:
    /// files being written are left whole.
    case quit

    /// As a message names it: "loop stopped by SIGTERM".
    public var name: String {
        switch self {
        case .interrupt: "Ctrl-C"
        case .terminate: "SIGTERM"
        case .hangUp: "SIGHUP"
        case .quit: "SIGQUIT"
        }
    }

    public var exitStatus: Int32 {
        switch self {
        case .interrupt: return 130
        case .terminate: return 143
        case .hangUp: return 129
        case .quit: return 131
        }
    }
}
