extension OperatorSpec {
    static let isEmpty = method("isEmpty", .aggregation, "whether the stream completes without a value", [],
        example: #"""
            let source = cold("---|")
            marbles(source, source.isEmpty())
            """#,
        differences: "RxJS's `isEmpty()`.") { s, _ in s.isEmpty() }
}

extension Observable {
    /// `true` if the stream completes without a value, `false` at the first value.
    public func isEmpty() -> Observable {
        decide("isEmpty", whenFound: false) { _ in true }
    }

    /// Emits `whenFound` at the first value `matches`, else `!whenFound` at completion.
    func decide(_ name: String, whenFound: Bool, matches: @escaping (Value) throws -> Bool) -> Observable {
        SinkNode(name, self) { observer, _ in DecisionSink(observer, whenFound: whenFound, matches: matches) }
    }
}

final class DecisionSink: Sink {
    private let whenFound: Bool
    private let matches: (Value) throws -> Bool

    init(_ downstream: Observer, whenFound: Bool, matches: @escaping (Value) throws -> Bool) {
        self.whenFound = whenFound
        self.matches = matches
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            guard try matches(value) else { return }
        } catch {
            return sendError(FlowError.wrap(error))
        }
        sendNext(.bool(whenFound))
        sendCompleted()
    }

    override func onCompleted() {
        sendNext(.bool(!whenFound))
        sendCompleted()
    }
}
