extension OperatorSpec {
    static let count = method("count", .aggregation, "how many values (matching the predicate) there were", [optionalArg("predicate", .function)],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.count())
            """#,
        differences: "Combine `count()` and RxJS `count(predicate)`.") {
        $0.count(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// How many values (matching `predicate`, when given) the stream had.
    public func count(_ predicate: Function? = nil) -> Observable {
        SinkNode("count", self) { observer, _ in CountSink(observer, predicate: predicate) }
    }
}

/// Counts in a plain integer: `count` ends many pipelines, and folding
/// through `reduce`'s dynamic state cost more than the counting.
final class CountSink: Sink {
    private let predicate: Function?
    @exclusivity(unchecked) private var count = 0

    init(_ downstream: Observer, predicate: Function?) {
        self.predicate = predicate
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        if let predicate {
            do { guard try predicate.test(value) else { return } } catch { return sendError(FlowError.wrap(error)) }
        }
        count += 1
    }

    override func onCompleted() {
        sendNext(.int(count))
        sendCompleted()
    }
}
