import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most memory one value a script builds may take: a string, an array
/// or a dictionary, or what an operator holds (`toArray`, `buffer`). A
/// script that doubles a string in a loop ends with a located error at the
/// step that would go over, instead of the allocator trapping the process
/// ("Fatal error: failed to allocate"). Sizes are estimated from counts:
/// a string's bytes, a collection's elements times the size of a `Value`.
///
/// One budget for the process, set by the command line (`--max-memory`)
/// before any script runs; where counting cannot reach (many values each
/// under the budget), a live run watches the whole process against the
/// same size (`processBytes`), and `flow grade` limits its children.
public enum MemoryBudget {
    private static let limit = Atomic(1 << 30)
    private static let processLimit = Atomic(0)

    /// The most the whole process may take (its resident set), which a live
    /// run watches: set by `--max-memory`; 0 when nothing was asked.
    public static var processBytes: Int { processLimit.load(ordering: .relaxed) }

    public static func set(processBytes: Int) { processLimit.store(processBytes, ordering: .relaxed) }

    /// The error that ends a live run whose process grew past `processBytes`:
    /// located at the stage holding the most values, if one holds many.
    public static func processExceeded(resident: Int, holder: ValueHolder?) -> FlowError {
        let head = "memory limit of \(describe(processBytes)) reached: the process holds \(describe(resident))"
        guard let holder else {
            return FlowError(head + ", and no stage of the run holds many values (flow --max-memory sets the limit)")
        }
        let (stage, what) = holder.heldValueDescription
        let count = holder.heldValueCount
        return FlowError(head + "; \(stage) holds \(count) \(what), more than its consumer takes "
                         + "(its source reads ahead of it; flow --max-memory sets the limit)", at: holder.heldValueLocation)
    }

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
        if count >= probedSize { try probe(count, doing()) }
    }

    /// A collection of `count` elements is about to be built.
    @inline(__always)
    public static func checkElements(_ count: Int, _ doing: @autoclosure () -> String) throws {
        let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Value>.stride)
        if overflow || size > bytes { throw exceeded(doing()) }
        if size >= probedSize { try probe(size, doing()) }
    }

    /// From this size on, a value is allocated once before it is built.
    static let probedSize = 1 << 20

    /// Within the budget, the system may still refuse the memory (an
    /// address-space limit, `ulimit -v`, and the large stack a run has):
    /// Swift's allocator then traps the process. A large value is asked of
    /// `malloc` first, which answers nil instead, and given back at once;
    /// nothing is touched, so it costs a mapping, not the memory.
    static func probe(_ size: Int, _ doing: @autoclosure () -> String) throws {
        guard let block = malloc(size) else {
            throw FlowError("out of memory: the system refused the \(describe(size)) needed while \(doing()), under the \(describe(bytes)) budget "
                            + "(is the address space limited, ulimit -v?)")
        }
        free(block)
    }
}

extension MemoryBudget {
    /// What a run's work asks now and then (every 1 024 loop iterations
    /// and objects made): whether the process may grow further. Many small
    /// values, each under the budget (a million subscriptions made in a
    /// loop), grew the process until the allocator trapped it ("Fatal
    /// error: failed to allocate", exit 134) under an address-space limit;
    /// now the work stops with an error while there is room to report it,
    /// when the system would refuse `headroom` more.
    public static func checkProcess(_ doing: @autoclosure () -> String) throws {
        let headroom = self.headroom
        guard let block = malloc(headroom) else {
            throw FlowError("out of memory while \(doing()): less than \(describe(headroom)) of the process's address space is left"
                            + (ResidentMemory.bytes().map { ", holding \(describe($0))" } ?? "") + " (is it limited, ulimit -v?)")
        }
        free(block)
    }

    /// What must be left for a run to stop, report it and let go of what it
    /// made (a list of a million subscriptions to cancel takes 32 MB): an
    /// eighth of a limited address space, at least 64 MB. Asked of `malloc`
    /// (large blocks are mapped, not touched), so it costs a mapping, not
    /// the memory.
    static let headroom: Int = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 64 << 20 }
        return Swift.max(64 << 20, Int(clamping: limit.rlim_cur / 8))
    }()
}

/// The process's resident set, as the kernel counts it.
public enum ResidentMemory {
    /// The second field of `/proc/self/statm`, in bytes; nil without /proc.
    public static func bytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let fields = buffer[0..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension MemoryBudget {
    /// The printed form of `value` (as `print` or an interpolation shows it)
    /// is about to be built: refused when it cannot fit. An array holding
    /// one string a thousand times is small, its text a thousand times
    /// larger, so the size is counted from the value, not from its memory.
    public static func checkPrinting(_ value: Value, _ doing: @autoclosure () -> String) throws {
        if value.printsBriefly { return }
        if value.printedBytesAtLeast(upTo: bytes) > bytes { throw exceeded(doing()) }
    }

    /// The printed forms of `values` joined with `separator` between them.
    public static func checkJoining(_ values: [Value], separator: Int, _ doing: @autoclosure () -> String) throws {
        var total = values.isEmpty ? 0 : (values.count - 1) * separator
        for value in values {
            if total > bytes { break }
            total += value.printedBytesAtLeast(upTo: bytes - total, asElement: false)
        }
        if total > bytes { throw exceeded(doing()) }
    }
}

extension Value {
    /// Whether the value prints in a few bytes: counting it is not worth it.
    public var printsBriefly: Bool {
        switch self {
        case .null, .bool, .int, .double, .duration, .function, .stream, .object, .event: true
        case .string, .array, .dictionary, .tuple: false
        }
    }

    /// At least how many bytes the value's printed form takes (strings
    /// quoted when inside a collection, as `literal` writes them), counted
    /// without building it, and not past `limit`: the walk stops there, so
    /// asking costs no more than the budget allows building. Nested values
    /// are walked with a list of the collections under way, not recursion.
    public func printedBytesAtLeast(upTo limit: Int, asElement: Bool = false) -> Int {
        var total = 0
        var open: [(items: [Value], next: Int)] = []
        func count(_ value: Value, quoted: Bool) {
            switch value {
            case .string(let s): total += s.utf8.count + (quoted ? 2 : 0)
            case .array(let items):
                total += 2 + Swift.max(0, items.count - 1) * 2
                open.append((items, 0))
            case .dictionary(let d):
                total += 2 + d.count * 4
                open.append((Array(d.keys), 0))
                open.append((Array(d.values), 0))
            case .tuple(let t):
                total += 2 + Swift.max(0, t.elements.count - 1) * 2
                open.append((t.elements, 0))
            case .int, .bool, .null, .double, .duration: total += 1
            case .function, .stream, .object, .event: total += 3
            }
        }
        count(self, quoted: asElement)
        while total <= limit, let last = open.indices.last {
            let (items, next) = open[last]
            guard next < items.count else {
                open.removeLast()
                continue
            }
            open[last].next = next + 1
            count(items[next], quoted: true)
        }
        return total
    }
}
