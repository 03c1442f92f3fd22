import Foundation

/// A PostgreSQL server for the database tests: `FLOW_TEST_DATABASE_URL`
/// (CI starts one with .ci/test-database), else a throwaway cluster this
/// test process starts with the same script and removes when it exits.
/// Nil, with the reason, where PostgreSQL's server is not installed: the
/// tests that need it are then skipped, saying why.
public enum TestDatabase {
    public static let url: String? = {
        if case .success(let url) = started { return url }
        return nil
    }()

    public static var reasonForSkipping: String {
        if case .failure(let reason) = started { return reason.message }
        return ""
    }

    private static let started: Result<String, DatabaseTestError> = {
        if let url = ProcessInfo.processInfo.environment["FLOW_TEST_DATABASE_URL"], !url.isEmpty { return .success(url) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-test-db-\(getpid())").path
        let result = runScript(["start", folder])
        guard result.status == 0 else {
            let why = result.status == 3
                ? "PostgreSQL is not installed here (apt-get install postgresql) and FLOW_TEST_DATABASE_URL is not set"
                : "the test database did not start: \(result.err)"
            return .failure(DatabaseTestError(message: why))
        }
        ownCluster = folder
        atexit { if let folder = TestDatabase.ownCluster { _ = TestDatabase.runScript(["stop", folder]) } }
        return .success(result.out.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    nonisolated(unsafe) private static var ownCluster: String?

    /// Runs the script with posix_spawn and waits for it, its output in
    /// files: it may be called while the test runner starts a suite, where
    /// Foundation's Process was seen to wait forever.
    static func runScript(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let script = projectDirectory.appendingPathComponent(".ci/test-database").path
        let stem = FileManager.default.temporaryDirectory.appendingPathComponent("flow-test-db-\(UUID().uuidString)").path
        defer { unlink(stem + ".out"); unlink(stem + ".err") }
        let quoted = ([script] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let command = "\(quoted) </dev/null >'\(stem).out' 2>'\(stem).err'"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return (1, "", "cannot run \(script)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let out = (try? String(contentsOfFile: stem + ".out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: stem + ".err", encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 1, out, err)
    }

    /// Runs SQL with psql and returns its unaligned, tuples-only output.
    @discardableResult
    public static func sql(_ text: String) throws -> String {
        guard let url else { throw DatabaseTestError(message: reasonForSkipping) }
        let result = try FlowProcess.run(["-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", text],
                                         binary: URL(fileURLWithPath: "/usr/bin/psql"), timeout: 120)
        guard result.status == 0 else { throw DatabaseTestError(message: "psql: \(result.err)") }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A name no other test uses, for a test's own tables and channels.
    public static func uniqueName(_ stem: String) -> String {
        "\(stem)_\(UUID().uuidString.prefix(8).lowercased())"
    }
}

public struct DatabaseTestError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// A PostgreSQL cluster of one test's own, for a test that stops and
/// starts its server (the shared one must stay up for the others): started
/// with .ci/test-database, halted and resumed on the same port, removed by
/// `remove()`.
public final class ThrowawayDatabase: Sendable {
    public let url: String
    private let folder: String

    /// Nil, with the reason, where PostgreSQL's server cannot be started.
    public static func start() -> Result<ThrowawayDatabase, DatabaseTestError> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-test-own-db-\(UUID().uuidString)").path
        let result = TestDatabase.runScript(["start", folder])
        guard result.status == 0 else {
            _ = TestDatabase.runScript(["stop", folder])
            return .failure(DatabaseTestError(message: "a database of the test's own did not start: \(result.err)"))
        }
        return .success(ThrowawayDatabase(url: result.out.trimmingCharacters(in: .whitespacesAndNewlines), folder: folder))
    }

    private init(url: String, folder: String) {
        self.url = url
        self.folder = folder
    }

    /// Stops the server at once, as a crash or `kill -9` would: every
    /// connection is cut.
    public func halt() throws { try script("halt") }

    /// Starts the halted server again, on the same port with the same data.
    public func resume() throws { try script("resume") }

    public func remove() { _ = TestDatabase.runScript(["stop", folder]) }

    private func script(_ command: String) throws {
        let result = TestDatabase.runScript([command, folder])
        guard result.status == 0 else { throw DatabaseTestError(message: ".ci/test-database \(command): \(result.err)") }
    }

    /// Runs SQL on this server with psql; its unaligned, tuples-only output.
    @discardableResult
    public func sql(_ text: String) throws -> String {
        let result = try FlowProcess.run(["-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", text],
                                         binary: URL(fileURLWithPath: "/usr/bin/psql"), timeout: 120)
        guard result.status == 0 else { throw DatabaseTestError(message: "psql: \(result.err)") }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
