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
            if n <= 0 { return }
            offset += n
        }
    }

    /// Bytes are waiting on standard input: reading now would not block.
    public static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Colour on a terminal, never when piped or with NO_COLOR set.
    public static func wantsColor(_ fd: Int32) -> Bool { isatty(fd) == 1 && getenv("NO_COLOR") == nil }
}
