import DequeModule

extension OperatorSpec {
    static let takeLast = method("takeLast", aliases: ["suffix"], .filtering, "the last n values, emitted at completion", [arg("count", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.takeLast(2))
            """#,
        differences: "RxSwift `takeLast(n)` and RxJS `takeLast(n)`; Combine has `last()` for one value.") {
        $0.takeLast(try $1.int(0))
    }
}

extension Observable {
    /// The last `count` values, emitted when the source completes.
    public func takeLast(_ count: Int) -> Observable {
        SinkNode("takeLast", self) { observer, _ in TakeLastSink(observer, count: Swift.max(0, count)) }
    }
}

final class TakeLastSink: Sink {
    private let count: Int
    private var buffer = Deque<Value>()

    init(_ downstream: Observer, count: Int) {
        self.count = count
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        guard count > 0 else { return }
        buffer.append(value)
        if buffer.count > count { buffer.removeFirst() }
    }

    override func onCompleted() {
        for value in buffer where !isStopped { sendNext(value) }
        sendCompleted()
    }

    override func disposeResources() { buffer = [] }
}
