import CThreadStack
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Knows how much of the current thread's stack is left.
///
/// Subscribing to a graph recurses once per nested operator. Chains of
/// simple stages are fused and `concat` is flattened, so common deep graphs
/// recurse little; anything else is checked here, and a graph deeper than
/// the stack allows fails with a clear stream error instead of a segfault.
enum StackGuard {
    /// Bytes of stack left below the current frame on this thread. The
    /// parser and compiler ask at every level: the thread's stack bounds
    /// (which glibc finds with system calls) are looked up once per thread.
    static func remaining() -> Int {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        var low = UInt(bitPattern: pthread_getspecific(lowKey))
        if low == 0 {
            var bottom: UnsafeMutableRawPointer?
            var size = 0
            guard flow_thread_stack_bounds(&bottom, &size) == 0, let bottom else { return .max }
            low = UInt(bitPattern: bottom)
            pthread_setspecific(lowKey, UnsafeRawPointer(bitPattern: low))
        }
        return Int(here) - Int(low)
    }

    /// Per thread, the lowest address of its stack.
    private static let lowKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static let tooDeepError = FlowError(
        "stream graph too deep to subscribe on this thread's stack; build it flatter (for example concat(a, b, c) instead of nesting)")

    /// Per thread, the lowest stack address subscription may reach.
    private static let limitKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    @inline(__always)
    static func hasRoom() -> Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        var limit = UInt(bitPattern: pthread_getspecific(limitKey))
        if limit == 0 {
            limit = computeLimit()
            pthread_setspecific(limitKey, UnsafeRawPointer(bitPattern: limit))
        }
        return here > limit
    }

    /// An eighth of the way up the stack. Subscribing may use that eighth:
    /// the events that follow (`onSubscribe`, a synchronous source's values,
    /// an error turned into a value and back) travel through the same levels
    /// from the deepest one, and in debug builds take about three times the
    /// stack per level that subscribing did. Live runs use a 512 MiB stack,
    /// so an eighth still holds hundreds of thousands of nested operators.
    private static func computeLimit() -> UInt {
        var low: UnsafeMutableRawPointer?
        var size = 0
        guard flow_thread_stack_bounds(&low, &size) == 0, let low else { return 1 }
        let reserve = size - size / 8
        return UInt(bitPattern: low) + UInt(reserve)
    }
}

/// How much stack the current thread has left, for recursive algorithms
/// outside the runtime (the language's parser and compiler) that must stop
/// with an error instead of overflowing.
public enum StackSpace {
    public static func remaining() -> Int { StackGuard.remaining() }

    /// Whether a call may go one level deeper: the same bound as
    /// subscribing, so a script's own recursion (a closure that calls
    /// itself through an argument) ends in a stream error, not a segfault.
    @inline(__always)
    public static func hasRoom() -> Bool { StackGuard.hasRoom() }

    public static let recursionTooDeep = FlowError(
        "recursion too deep: a closure called itself (directly or through others) more times than the stack holds")
}
