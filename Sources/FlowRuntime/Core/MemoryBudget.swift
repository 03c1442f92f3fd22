import Synchronization

/// The most memory one value a script builds may take: a string, an array
/// or a dictionary, or what an operator holds (`toArray`, `buffer`). A
/// script that doubles a string in a loop ends with a located error at the
/// step that would go over, instead of the allocator trapping the process
/// ("Fatal error: failed to allocate"). Sizes are estimated from counts:
/// a string's bytes, a collection's elements times the size of a `Value`.
///
/// One budget for the process, set by the command line (`--max-memory`)
/// before any script runs; where counting cannot reach (many values each
/// under the budget), `flow grade` limits the process itself.
public enum MemoryBudget {
    private static let limit = Atomic(1 << 30)

    public static var bytes: Int { limit.load(ordering: .relaxed) }

    public static func set(bytes: Int) { limit.store(bytes, ordering: .relaxed) }

    /// A size as messages say it: `1 GB`, `512 MB`.
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : "\(Swift.max(1, bytes >> 20)) MB"
    }

    static func exceeded(_ doing: String) -> FlowError {
        FlowError("memory limit of \(describe(bytes)) reached while \(doing) (flow --max-memory sets the limit)")
    }

    /// A string of `count` bytes is about to be built.
    @inline(__always)
    public static func checkString(bytes count: Int, _ doing: @autoclosure () -> String) throws {
        if count > bytes { throw exceeded(doing()) }
    }

    /// A collection of `count` elements is about to be built.
    @inline(__always)
    public static func checkElements(_ count: Int, _ doing: @autoclosure () -> String) throws {
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Value>.stride)
        if overflow || size > bytes { throw exceeded(doing()) }
    }
}
