extension OperatorSpec {
    static let elementAt = method("elementAt", aliases: ["element(at:)", "output(at:)"], .filtering, "the value at an index, then completion", [arg("index", .int).nonNegative()],
        example: #"""
            let source = cold("-a-b-c|")
            marbles(source, source.elementAt(1), source.elementAt(5))
            """#,
        differences: "RxSwift `element(at:)`, Combine `output(at:)`, RxJS `elementAt(i)`. On a stream too short, flow fails with \"no elements\", RxSwift and RxJS with their argument-out-of-range errors; Combine's just completes.") {
        $0.elementAt(try $1.int(0), dialect: $1.context.dialect)
    }
}

extension Observable {
    /// The value at `index`, then completion; error "no elements" if the
    /// source completes first.
    public func elementAt(_ index: Int, dialect: Dialect = .flow) -> Observable {
        SinkNode("elementAt", self) { observer, _ in
            ElementSink(observer, mode: .at(Swift.max(0, index)), predicate: nil, dialect: dialect)
        }
    }
}

final class ElementSink: Sink {
    /// `find` is `first` that emits nil, not an error, when nothing matches;
    /// `atMostOne` is `single` that completes quietly when there is none.
    enum Mode { case first, find, last, single, atMostOne, at(Int) }
    /// What a stream without the element ends with.
    enum Missing {
        case fail(FlowError)
        /// RxSwift's `first()`, and `find`.
        case emitNil
        /// Combine's `first()`, `last()` and `output(at:)`.
        case complete
    }
    private let mode: Mode
    private let predicate: Function?
    private let missing: Missing
    private let moreThanOne: FlowError
    private let endsQuietlyOnSecond: Bool
    @exclusivity(unchecked) private var found: Value?
    @exclusivity(unchecked) private var index = 0

    init(_ downstream: Observer, mode: Mode, predicate: Function?, dialect: Dialect = .flow) {
        self.mode = mode
        self.predicate = predicate
        missing = Self.missing(mode, in: dialect)
        moreThanOne = dialect.moreThanOneElement
        // CwlSignal's `single()` ends quietly, without the value, on a second one.
        endsQuietlyOnSecond = dialect == .cwlSignal
        super.init(downstream)
    }

    /// Where the libraries disagree (docs/semantics.md has the table).
    private static func missing(_ mode: Mode, in dialect: Dialect) -> Missing {
        switch (mode, dialect) {
        case (.find, _), (.first, .rxSwift): .emitNil
        case (.atMostOne, _): .complete
        case (.first, .combine), (.last, .combine), (.at, .combine), (_, .cwlSignal): .complete
        case (.at, .rxSwift): .fail(FlowError("Argument out of range."))
        case (.at, .rxJS): .fail(FlowError("argument out of range"))
        default: .fail(dialect.noElements)
        }
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
        case .single, .atMostOne:
            if found != nil { return endsQuietlyOnSecond ? sendCompleted() : sendError(moreThanOne) }
            found = value
        }
    }

    override func onCompleted() {
        if let found {
            sendNext(found)
            return sendCompleted()
        }
        switch missing {
        case .fail(let error): sendError(error)
        case .emitNil:
            sendNext(.null)
            sendCompleted()
        case .complete: sendCompleted()
        }
    }
}
