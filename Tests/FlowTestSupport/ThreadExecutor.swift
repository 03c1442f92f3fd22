import Foundation

/// A task executor with a thread of its own. Swift Testing runs every test,
/// synchronous ones too, on Swift's cooperative pool, which has as many
/// threads as the machine has cores; a synchronous test that waits for a
/// subprocess (`FlowProcess.run`) holds one of them while it waits. With
/// a few such tests at once, an async test's work waits too, however
/// little it is. For a WebSocket client that is fatal rather than slow:
/// it answers the server's pings only while its task runs, and a server
/// closes a connection whose pings go unanswered (`flow serve` after 60 s),
/// so a test waiting for a live run received nothing at all. Work run with
/// `withTaskExecutorPreference(ThreadExecutor.shared)` runs here instead.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// One thread for the tests' network clients: they mostly wait, so
    /// sharing it costs them little.
    public static let shared = ThreadExecutor(name: "test network clients")

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
