extension OperatorSpec {
    static let elementAt = method("elementAt", aliases: ["element(at:)", "output(at:)"], .filtering, "the value at an index, then completion", [arg("index", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.elementAt(1))
            """#,
        differences: "RxSwift `element(at:)`, Combine `output(at:)`, RxJS `elementAt(i)`.") {
        $0.elementAt(try $1.int(0))
    }
}

extension Observable {
    /// The value at `index`, then completion; error "no elements" if the
    /// source completes first.
    public func elementAt(_ index: Int) -> Observable {
        SinkNode("elementAt", self) { observer, _ in
            ElementSink(observer, mode: .at(Swift.max(0, index)), predicate: nil)
        }
    }
}

final class ElementSink: Sink {
    /// `find` is `first` that emits nil, not an error, when nothing matches.
    enum Mode { case first, find, last, single, at(Int) }
    private let mode: Mode
    private let predicate: Function?
    @exclusivity(unchecked) private var found: Value?
    @exclusivity(unchecked) private var index = 0

    init(_ downstream: Observer, mode: Mode, predicate: Function?) {
        self.mode = mode
        self.predicate = predicate
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        do {
            if let predicate, try !predicate.test(value) { return }
        } catch {
            return sendError(FlowError.wrap(error))
        }
        switch mode {
        case .first, .find:
            sendNext(value)
            sendCompleted()
        case .at(let target):
            if index == target {
                sendNext(value)
                sendCompleted()
            }
            index += 1
        case .last:
            found = value
        case .single:
            if found != nil { return sendError(.moreThanOneElement) }
            found = value
        }
    }

    override func onCompleted() {
        if case .find = mode, found == nil { found = .null }
        guard let found else { return sendError(.noElements) }
        sendNext(found)
        sendCompleted()
    }
}
