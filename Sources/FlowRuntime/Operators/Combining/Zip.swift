import DequeModule

extension OperatorSpec {
    static let zip = OperatorSpec("zip", aliases: ["zipWith", "Zip", "Zip3", "Zip4", "zipAll"], .combining, .both, "tuples of the n-th values of each stream", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            if $0.receiver != nil, try $0.streams(0).isEmpty {
                return .stream(try $0.source().combiningInnerStreams(name: "zipAll", combine: $0.combineOfInnerStreams(1)) { .zip($0, combine: $1) })
            }
            if $0.receiver == nil, let arrays = swiftZip($0.all(0)), $0.value(1) == nil { return arrays }
            return .stream(.zip(try $0.allSources(0), combine: try $0.combine(1, sources: 0)))
        },
    ], example: #"""
            let a = cold("-a-b-c|")
            let b = cold("--1---2|")
            marbles(a, b, zip(a, b) { "\($0)\($1)" }, zip([a, b]))
            """#,
        differences: "Tuples without a closure, as in Combine and in RxSwift for sources listed one by one; arrays in RxJS, and in RxSwift for an array of sources (`import RxJS`, `import RxSwift`). Completes as soon as a completed source has nothing buffered, as all of them do. Given arrays of values rather than streams, it is Swift's `zip`: `zip([1, 2], [\"a\", \"b\"])` is the array `[(1, \"a\"), (2, \"b\")]`, as long as the shortest.")

    /// Swift's `zip(xs, ys)` of two or more arrays whose elements are not
    /// streams: their elements paired by position; nil when that is not
    /// what the call is (`zip([a, b])` of streams).
    private static func swiftZip(_ arguments: [Value]) -> Value? {
        guard arguments.count >= 2 else { return nil }
        var arrays: [[Value]] = []
        for argument in arguments {
            guard case .array(let elements) = argument, !elements.contains(where: { if case .stream = $0 { true } else { false } }) else { return nil }
            arrays.append(elements)
        }
        let length = arrays.map(\.count).min() ?? 0
        return .array((0..<length).map { i in .tuple(arrays.map { $0[i] }) })
    }
}

extension Observable {
    /// Tuples of the n-th values of every source (or `combine` applied to
    /// them). Completes as soon as a completed source has nothing buffered.
    public static func zip(_ sources: [Observable], combine: Function? = nil) -> Observable {
        CombiningNode("zip", sources) { observer, scheduler, arity in
            ZipSink(observer, scheduler: scheduler, arity: arity, combine: combine)
        }
    }
}

final class ZipSink: CombiningSink {
    @exclusivity(unchecked) private var buffers: [Deque<Value>]
    private var completed: [Bool]
    /// Demand: whether the consumer wants more, and which sources were
    /// asked to stop, because it has enough or because they ran
    /// `bufferBound` values ahead of a slower source.
    @exclusivity(unchecked) private var consumerWantsMore = true
    @exclusivity(unchecked) private var paused: [Bool]
    @exclusivity(unchecked) private var pausedCount = 0

    /// How far a source that honours demand runs ahead of the others
    /// before it is asked to stop; it reads on at half of that. (A source
    /// that cannot stop, a timer, is buffered as before.)
    static var bufferBound: Int { 256 }

    init(_ downstream: Observer, scheduler: Scheduler, arity: Int, combine: Function?) {
        buffers = Array(repeating: [], count: arity)
        completed = Array(repeating: false, count: arity)
        paused = Array(repeating: false, count: arity)
        super.init(downstream, scheduler: scheduler, combine: combine)
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        let i = inner.index
        buffers[i].append(value)
        if buffers.allSatisfy({ !$0.isEmpty }) {
            let row = buffers.indices.map { buffers[$0].removeFirst() }
            emit(row)
            if pausedCount > 0 { for j in buffers.indices where paused[j] { settleDemand(j) } }
        } else if buffers[i].count >= Self.bufferBound && !paused[i] {
            settleDemand(i)
        }
        completeIfExhausted()
    }

    override func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        for i in buffers.indices { settleDemand(i) }
    }

    /// Asks source `i` to stop or read on: it wants more while the
    /// consumer does and its buffer is below the bound (half of it, once
    /// stopped).
    private func settleDemand(_ i: Int) {
        let full = buffers[i].count >= (paused[i] ? Self.bufferBound / 2 + 1 : Self.bufferBound)
        let wantsMore = consumerWantsMore && !full
        guard wantsMore == paused[i], inners.indices.contains(i) else { return }
        paused[i] = !wantsMore
        pausedCount += wantsMore ? -1 : 1
        inners[i].demand(wantsMore)
    }

    override func innerCompleted(_ inner: InnerObserver) {
        completed[inner.index] = true
        completeIfExhausted()
    }

    private func completeIfExhausted() {
        for i in buffers.indices where completed[i] && buffers[i].isEmpty {
            return sendCompleted()
        }
    }
}
