import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Writes to standard output and error, one system call per message, so
/// lines of a live run appear as they happen even when piped.
public enum StandardStreams {
    public static func out(_ text: String) { write(1, text + "\n") }
    public static func err(_ text: String) { write(2, text + "\n") }

    public static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                if fd == 1 { outputFailed(n < 0 ? String(cString: strerror(errno)) : "nothing could be written") }
                return
            }
            offset += n
        }
    }

    /// Why standard output could not be written (a full disk, a closed
    /// pipe or descriptor), once it has failed: output was lost, so the
    /// command must not report success.
    public static var outputFailure: String? { failure.withLockedValue { $0 } }

    /// Called once, on the writing thread, when standard output first fails
    /// (a live run stops then, as there is nowhere left for its output).
    nonisolated(unsafe) public static var onOutputFailure: (@Sendable () -> Void)?

    private static let failure = NIOLockedValueBox<String?>(nil)

    private static func outputFailed(_ reason: String) {
        let first = failure.withLockedValue { current -> Bool in
            defer { if current == nil { current = reason } }
            return current == nil
        }
        if first { onOutputFailure?() }
    }

    /// Bytes are waiting on standard input: reading now would not block.
    public static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Colour on a terminal, never when piped or with NO_COLOR set.
    public static func wantsColor(_ fd: Int32) -> Bool { isatty(fd) == 1 && getenv("NO_COLOR") == nil }

    /// The width of the terminal `fd` writes to, if it is one (else
    /// `COLUMNS`, if set): lanes are drawn to fit it.
    public static func terminalWidth(_ fd: Int32) -> Int? {
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return getenv("COLUMNS").flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
    }
}
