extension OperatorSpec {
    static let distinct = method("distinct", .filtering, "drops values seen before", [optionalArg("key", .function)],
        example: #"""
            let source = cold("-a-a-b-a|")
            marbles(source, source.distinct())
            """#,
        differences: "RxJS's `distinct(keySelector)`; RxSwift's core and Combine have none.") { $0.distinct(key: try $1.optionalFunction(0)) }
}

extension Observable {
    /// Values never seen before in this subscription (compared by `key` when given).
    public func distinct(key: Function? = nil) -> Observable {
        SinkNode("distinct", self) { observer, _ in DistinctSink(observer, key: key) }
    }
}

final class DistinctSink: Sink {
    private let key: Function?
    private var seen = Set<Value>()

    init(_ downstream: Observer, key: Function?) {
        self.key = key
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            if seen.insert(try key?.call(value) ?? value).inserted { sendNext(value) }
        } catch {
            sendError(FlowError.wrap(error))
        }
    }

    override func disposeResources() { seen = [] }
}
