extension OperatorSpec {
    static let defaultIfEmpty = method("defaultIfEmpty", aliases: ["replaceEmpty(with:)", "ifEmpty(default:)"], .aggregation, "emits a value if the stream completes empty", [arg("value", .value)],
        example: #"""
            let source = cold("--|")
            marbles(source, source.defaultIfEmpty(0))
            """#,
        differences: "RxSwift `ifEmpty(default:)`, Combine `replaceEmpty(with:)`, RxJS `defaultIfEmpty`.") {
        $0.defaultIfEmpty($1.value(0)!)
    }
}

extension Observable {
    /// The source, or `value` alone if it completes without values.
    public func defaultIfEmpty(_ value: Value) -> Observable {
        SinkNode("defaultIfEmpty", self) { observer, _ in DefaultIfEmptySink(observer, fallback: value) }
    }
}

final class DefaultIfEmptySink: Sink {
    private let fallback: Value
    private var isEmpty = true

    init(_ downstream: Observer, fallback: Value) {
        self.fallback = fallback
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        isEmpty = false
        sendNext(value)
    }

    override func onCompleted() {
        if isEmpty { sendNext(fallback) }
        sendCompleted()
    }
}
