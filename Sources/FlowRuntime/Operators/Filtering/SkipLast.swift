import DequeModule

extension OperatorSpec {
    static let skipLast = method("skipLast", aliases: ["dropLast"], .filtering,
        "drops the last n values: each value is emitted once n newer ones have arrived", [arg("count", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c-d|")
            marbles(source, source.skipLast(2))
            """#,
        differences: "RxJS's `skipLast(n)`: each value waits until n newer ones have arrived.") { source, args in
        let count = try args.int(0)
        return SinkNode("skipLast", source) { observer, _ in SkipLastSink(observer, count: count) }
    }
}

final class SkipLastSink: Sink {
    private let count: Int
    private var held = Deque<Value>()

    init(_ downstream: Observer, count: Int) {
        self.count = count
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        held.append(value)
        if held.count > count { sendNext(held.removeFirst()) }
    }

    override func disposeResources() { held = [] }
}
