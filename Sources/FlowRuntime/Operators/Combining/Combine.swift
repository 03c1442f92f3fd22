extension OperatorSpec {
    static let combine = OperatorSpec("combine", .combining, .method,
        "CwlSignal's combine: a closure gets every event of each stream, as `.result1(.success(v))`, `.result2(.failure(e))`, …, and decides what to emit", [
        Signature([labelled("second", .stream), labelled("third", .stream, optional: true), labelled("fourth", .stream, optional: true),
                   labelled("fifth", .stream, optional: true), arg("handler", .function)]) { args in
            let others = try (0..<4).filter(args.has).map { try args.stream($0) }
            return .stream(try args.source().combine(others, handler: args.function(4)))
        },
        Signature([variadic("others", .stream), arg("handler", .function)]) { args in
            .stream(try args.source().combine(args.streams(0), handler: args.function(1)))
        },
    ], example: #"""
            let ints = cold("---1|")
            let doubles = cold("-a|", a: 0.5)
            let first = ints.combine(second: doubles) { either, next in
              switch either {
              case .result1(.success(let v)): next.send(value: "int \(v)")
              case .result2(.success(let v)): next.send(value: "double \(v)")
              default: break
              }
              next.close()
            }
            marbles(ints, doubles, first)
            """#,
        differences: "CwlSignal's `combine(second:)` and `combine(_:)`. A closure of two parameters gets the event and `next`, an output to `send(value:)`, `send(error:)` and `close()`; a closure of one returns the value to emit, or nil for none. An end reaches the closure as `.failure(e)`, a completion's `e` being `\"complete\"`. flow also ends the output once every input has ended, where CwlSignal would leave it open. RxSwift, Combine and RxJS have no such operator: their combining operators are built on the same idea.")
}

extension Observable {
    /// Each event of the receiver and `others`, as an either-result, passed
    /// to `handler`, which emits through its `next` output or its return value.
    public func combine(_ others: [Observable], handler: Function) -> Observable {
        ClosureNode("combine", inputs: [self] + others) { observer, scheduler, inputs in
            CombineSink(observer, scheduler: scheduler, handler: handler, arity: inputs.count).start(inputs)
        }
    }
}

final class CombineSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private let handler: Function
    private let arity: Int
    private let passesNext: Bool
    private var inputs: [InnerObserver] = []
    /// What a two-parameter handler sends to: its events are this sink's.
    private let next = PublishSubject()
    private var output: InnerObserver?
    private var ended = 0

    init(_ downstream: Observer, scheduler: Scheduler, handler: Function, arity: Int) {
        self.scheduler = scheduler
        self.handler = handler
        self.arity = arity
        passesNext = (handler.parameterCount ?? 1) >= 2
        super.init(downstream)
    }

    func start(_ sources: [Observable]) {
        announce()
        let forwarded = InnerObserver(host: self, index: arity)
        output = forwarded
        next.subscribe(forwarded, on: scheduler)
        inputs = sources.indices.map { InnerObserver(host: self, index: $0) }
        for (source, inner) in zip(sources, inputs) where !isStopped {
            source.subscribe(inner, on: scheduler)
        }
    }

    private func deliver(_ result: Value, from index: Int) {
        let either = Value.tuple(Tuple([result], nominal: Nominal(type: "EitherResult\(arity)", caseName: "result\(index + 1)")))
        do {
            if passesNext {
                _ = try handler.call(either, .stream(next))
            } else {
                let emitted = try handler.call(either)
                if emitted != .null { sendNext(emitted) }
            }
        } catch {
            sendError(FlowError.wrap(error))
        }
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        guard inner.index < arity else { return sendNext(value) }
        deliver(Event.next(value).asResult, from: inner.index)
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) {
        guard inner.index < arity else { return sendError(error) }
        deliver(Event.error(error).asResult, from: inner.index)
        inputEnded()
    }

    func innerCompleted(_ inner: InnerObserver) {
        guard inner.index < arity else { return sendCompleted() }
        deliver(Event.completed.asResult, from: inner.index)
        inputEnded()
    }

    private func inputEnded() {
        ended += 1
        if ended == arity, !isStopped { sendCompleted() }
    }

    override func disposeResources() {
        let all = inputs + (output.map { [$0] } ?? [])
        inputs = []
        output = nil
        for inner in all { inner.dispose() }
    }
}
