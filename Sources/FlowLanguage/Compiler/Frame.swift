import FlowRuntime

/// The storage of one scope at run time: the script's top level, a test
/// block, or one call of a closure. Slots are fixed when the script is
/// compiled, so reading a variable is an index into this buffer.
final class Frame {
    let parent: Frame?
    let slots: UnsafeMutablePointer<Value>
    let count: Int
    /// A closure that creates no closures can reuse its frame between
    /// calls; this marks the frame as taken by a call in progress.
    @exclusivity(unchecked) var inUse = false

    init(count: Int, parent: Frame?) {
        self.parent = parent
        self.count = count
        slots = .allocate(capacity: Swift.max(count, 1))
        slots.initialize(repeating: .null, count: Swift.max(count, 1))
    }

    deinit {
        slots.deinitialize(count: Swift.max(count, 1))
        slots.deallocate()
    }

    @inline(__always)
    func ancestor(_ depth: Int) -> Frame {
        var frame = self
        for _ in 0..<depth { frame = frame.parent! }
        return frame
    }
}

/// Compiled code: evaluates to a value in a frame.
typealias Code = (Frame) throws -> Value

/// Thrown by `return` inside a closure, caught by the closure's call on the
/// same thread (hence the unchecked Sendable that Error requires).
struct ReturnSignal: Error, @unchecked Sendable {
    let value: Value
}
