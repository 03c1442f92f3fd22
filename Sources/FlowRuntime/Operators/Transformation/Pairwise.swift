extension OperatorSpec {
    static let pairwise = method("pairwise", .transformation, "emits each value with the previous one", [optionalArg("combine", .function)],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.pairwise { $0 + $1 })
            """#,
        differences: "RxJS's `pairwise()`; RxSwift's core and Combine have none (`zip(s, s.skip(1))` or `scan`).") {
        $0.pairwise(try $1.optionalFunction(0))
    }
}

extension Observable {
    /// Each value with the one before it, as a tuple `(previous, current)`,
    /// or combined by `combine` when given. The first value emits nothing.
    public func pairwise(_ combine: Function? = nil) -> Observable {
        SinkNode("pairwise", self) { observer, _ in PairwiseSink(observer, combine: combine) }
    }
}

final class PairwiseSink: Sink {
    private let combine: Function?
    private var previous: Value?

    init(_ downstream: Observer, combine: Function?) {
        self.combine = combine
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        defer { previous = value }
        guard let previous else { return }
        if let combine {
            do { sendNext(try combine.call(previous, value)) } catch { sendError(FlowError.wrap(error)) }
        } else {
            sendNext(.tuple([previous, value]))
        }
    }
}
