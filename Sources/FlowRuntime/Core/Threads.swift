#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

// Threads of the runtime's own: a large stack for deep graphs, and readers
// that block. Plain pthreads, so that the runtime links nothing but the
// standard library.

/// Starts `body` on a new thread (with `stackSize` bytes of stack, if
/// given); nil when no thread could be made.
private func spawnThread(stackSize: Int?, _ body: @escaping () -> Void) -> pthread_t? {
    final class Box: @unchecked Sendable {
        // Handed to exactly one thread; the callers make sure the body is
        // either Sendable or joined before they return.
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let rc = pthread_create(&thread, &attributes, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    guard rc == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return nil
    }
    #if canImport(Glibc)
    return thread
    #else
    return thread!
    #endif
}

/// Runs `body` on a fresh thread with `stackSize` bytes of stack and waits for it.
public func runOnNewThread(stackSize: Int, _ body: @escaping () -> Void) {
    guard let thread = spawnThread(stackSize: stackSize, body) else { return body() }
    pthread_join(thread, nil)
}

/// Runs `body` on a thread of its own that nobody waits for: for loops that
/// block (reading standard input, waiting for a signal). Dispatch's global
/// queue would be the wrong place: it runs about one work item per core, so
/// two blocked readers can starve a third.
public func startBackgroundThread(_ body: @escaping @Sendable () -> Void) {
    guard let thread = spawnThread(stackSize: nil, body) else { return DispatchQueue.global().async(execute: body) }
    pthread_detach(thread)
}

/// Runs `body` on a thread with a large stack and returns its result.
/// Virtual-time runs of deep graphs use it the way live runs use `LiveScheduler.run`.
public func withLargeStack<T>(size: Int = 512 << 20, _ body: () throws -> T) rethrows -> T {
    try withoutActuallyEscaping(body) { escapable in
        let result = ResultSlot<T>()
        runOnNewThread(stackSize: size) {
            result.value = Swift.Result { try escapable() }
        }
        return try result.value!.get()
    }
}

/// Runs `background` on a thread of its own with `stackSize` bytes of stack
/// while `body` runs on the calling thread, and returns once both have
/// finished. Without a thread to spare, `background` runs first.
public func whileRunning<T>(
    _ background: @escaping @Sendable () -> Void, stackSize: Int = 512 << 20, _ body: () throws -> T
) rethrows -> T {
    guard let thread = spawnThread(stackSize: stackSize, background) else {
        background()
        return try body()
    }
    defer { pthread_join(thread, nil) }
    return try body()
}

/// Written by a worker thread before it is joined, read after: the join
/// orders the two accesses.
private final class ResultSlot<T>: @unchecked Sendable {
    var value: Swift.Result<T, Error>?
}
