#if canImport(Glibc)
import Glibc
#endif

/// A `flow` started by `flow grade` for one student's file: its own
/// process (in a process group of its own, so the terminal's Ctrl-C
/// reaches the grader alone), with standard input from /dev/null and its
/// output in files. The grader watches its resident memory and its time,
/// and kills it when it goes over either.
final class ChildProcess {
    let pid: pid_t
    private let started: Double
    private(set) var peakResidentBytes = 0

    enum Ending {
        case exited(Int32)
        case signalled(Int32)
    }

    /// The running executable, to start again as a child.
    static var ownExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    init(arguments: [String], standardOutput: String, standardError: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let executable = Self.ownExecutable
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw ChildProblem(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        pid = child
        started = Self.monotonicSeconds()
    }

    struct ChildProblem: Error, CustomStringConvertible {
        let description: String
    }

    var elapsedSeconds: Double { Self.monotonicSeconds() - started }

    /// Resident memory now, from /proc/PID/statm's second field (pages);
    /// 0 once it has gone.
    var residentBytes: Int {
        guard let handle = fopen("/proc/\(pid)/statm", "r") else { return 0 }
        defer { fclose(handle) }
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), handle) != nil else { return 0 }
        let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        let bytes = pages * sysconf(Int32(_SC_PAGESIZE))
        peakResidentBytes = max(peakResidentBytes, bytes)
        return bytes
    }

    /// How it ended, if it has; never waits.
    func ended() -> Ending? {
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, WNOHANG, &usage) == pid else { return nil }
        peakResidentBytes = max(peakResidentBytes, Int(usage.ru_maxrss) * 1024)
        return Self.ending(status)
    }

    /// Kills it (and anything it started) and waits for it.
    func kill() -> Ending {
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return Self.ending(status)
    }

    private static func ending(_ status: Int32) -> Ending {
        // WIFEXITED / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
