import CSignalPipe
import Dispatch
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler, on a thread of its own, each time a signal arrives
/// (Ctrl-C, a terminal resize). The handler typically hops onto the loop
/// with a callback from `LiveScheduler.makeCallback`.
///
/// A C signal handler writes a byte to a pipe that a thread reads: unlike a
/// dispatch signal source, no delivery is lost to a thread that happens not
/// to block the signal.
public final class SignalWatcher: Sendable {
    private let signal: Int32
    private let writeEnd: Int32

    /// Nil when no pipe or handler could be set up.
    public init?(signal: Int32, _ handler: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        guard flow_signal_forward(signal, writeEnd) == 0 else {
            close(readEnd)
            close(writeEnd)
            return nil
        }
        self.signal = signal
        self.writeEnd = writeEnd
        startBackgroundThread {
            var byte: UInt8 = 0
            // A 1 is a signal; a 0 (or the end of the pipe) is `cancel`.
            while read(readEnd, &byte, 1) == 1, byte == 1 { handler() }
            close(readEnd)
        }
    }

    /// Restores the signal's default action and ends the watching thread.
    public func cancel() {
        flow_signal_restore(signal)
        var stop: UInt8 = 0
        _ = write(writeEnd, &stop, 1)
        close(writeEnd)
    }
}
