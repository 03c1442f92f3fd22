import Foundation
import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// What the `pg` functions of one run share: its permissions, and how much
/// its database sinks have been given but not yet committed.
final class DatabaseRun: Sendable {
    let access: Access
    let pressure = WritePressure()

    init(access: Access) { self.access = access }

    /// The database a call names with `url:`, else the environment's.
    func address(_ url: String?) throws -> DatabaseAddress {
        if let url { return try DatabaseAddress.parse(url) }
        return try DatabaseAddress.fromEnvironment(ProcessInfo.processInfo.environment)
    }

    /// The pool for `address`, once the run may reach its host.
    func pool(for address: DatabaseAddress, by operation: String) throws -> DatabasePool {
        let checked = try access.checkNet(host: address.permissionHost, port: address.port, shown: "\(operation) \(address.shown)")
        var address = address
        address.judgedAddress = checked.address.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
        if let path = address.rootCertificate {
            address.rootCertificateBytes = try Self.readCertificate(path, access: access, by: operation)
        }
        return DatabasePool.shared(for: address)
    }

    /// The largest certificate file read: a bundle of roots is a few hundred KiB.
    static let largestCertificate = 4 << 20

    /// `sslrootcert`'s file, opened as a script's read is: judged on what is opened.
    static func readCertificate(_ path: String, access: Access, by operation: String) throws -> [UInt8] {
        let fd = try access.openForReading(path, by: "\(operation) sslrootcert")
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw FlowError("cannot read the certificate \(path) for sslmode=verify-full: it is not a regular file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Access.failure("read", path, errno) }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
            if bytes.count > largestCertificate {
                throw FlowError("cannot read the certificate \(path) for sslmode=verify-full: it is larger than 4 MiB")
            }
        }
    }

    /// A server cannot be waited for in virtual time: a diagram's instant
    /// would have to stop the clock for it.
    static func liveLoop(_ scheduler: Scheduler, for operation: String) throws -> any LiveLoop {
        guard let live = scheduler as? any LiveLoop else {
            throw FlowError("\(operation) reaches a database, which only a live run can wait for (not a marble diagram or flow run --virtual)")
        }
        return live
    }
}

/// Rows handed to a run's database sinks and not yet committed. While
/// there are many, the run's queries stop reading, so copying a table into
/// another goes at the pace of the writes instead of filling memory.
final class WritePressure: Sendable {
    static let limit = 10_000

    private struct State {
        var unwritten = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    func add(_ count: Int) { state.withLockedValue { $0.unwritten += count } }

    func remove(_ count: Int) {
        let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.unwritten = max(0, state.unwritten - count)
            guard state.unwritten < Self.limit else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once fewer than `limit` rows wait to be written.
    func roomToRead() async {
        if state.withLockedValue({ $0.unwritten < Self.limit }) { return }
        await withCheckedContinuation { continuation in
            let now = state.withLockedValue { state in
                if state.unwritten < Self.limit { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A stream that reaches a database: checks, at subscription, that the run
/// is live and may reach the host, then starts with the database's pool.
class DatabaseNode: Observable {
    let database: DatabaseRun
    let address: DatabaseAddress

    init(name: String, database: DatabaseRun, address: DatabaseAddress, location: SourceLocation?) {
        self.database = database
        self.address = address
        super.init(operatorName: name)
        self.location = location
    }

    final override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let live: any LiveLoop
        let pool: DatabasePool
        do {
            live = try DatabaseRun.liveLoop(scheduler, for: operatorName)
            pool = try database.pool(for: address, by: operatorName)
        } catch {
            observer.onSubscribe(NopDisposable.shared)
            return observer.onError(FlowError.wrap(error).located(at: location))
        }
        start(observer, live: live, pool: pool)
    }

    /// Subscribes `observer`, on the loop.
    func start(_ observer: Observer, live: any LiveLoop, pool: DatabasePool) {
        preconditionFailure("\(Self.self) starts its own streams")
    }
}

extension Optional where Wrapped == any Disposable {
    /// Disposes what is held, once: cleared first, since disposing may
    /// call back here.
    mutating func release() {
        let held = self
        self = nil
        held?.dispose()
    }
}
