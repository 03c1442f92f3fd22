extension OperatorSpec {
    static let toArray = method("toArray", aliases: ["collect"], .aggregation, "all values in one array, at completion", [],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.toArray())
            """#,
        differences: "RxSwift `toArray()`, Combine `collect()`, RxJS `toArray()`: one array at completion, an empty one for an empty stream.") { s, _ in s.toArray() }
}

extension Observable {
    /// All values in one array.
    public func toArray() -> Observable {
        SinkNode("toArray", self) { observer, _ in ToArraySink(observer) }
    }
}

final class ToArraySink: Sink {
    private var values: [Value] = []
    override func onNext(_ value: Value) {
        do { try MemoryBudget.checkElements(values.count + 1, "collecting values with toArray") } catch {
            return onError(FlowError.wrap(error))
        }
        values.append(value)
    }
    override func onCompleted() {
        sendNext(.array(values))
        sendCompleted()
    }
}
