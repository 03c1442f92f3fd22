extension OperatorSpec {
    static let sample = method("sample", .filtering, "the latest value each time a trigger stream emits", [arg("trigger", .stream)],
        example: #"""
            let source = cold("-a-b---c-|")
            let trigger = cold("--x---x-x-x|")
            marbles(source, trigger, source.sample(trigger))
            """#,
        differences: "A value is sampled at most once in all of them. flow and RxJS complete with the source, dropping a value not yet sampled; RxSwift waits for the trigger's next value or its end, emits that value, then completes (`import RxSwift`). Combine has no `sample`. RxJS's `sampleTime(d)` is `sample(interval(d))`.") {
        $0.sample(try $1.stream(0), ending: SampleEnding($1.context.dialect))
    }
}

extension Observable {
    /// On each value of `trigger`, emits the latest source value if a new
    /// one arrived since the last sample. When it completes, `ending` says.
    public func sample(_ trigger: Observable, ending: SampleEnding = .withSource) -> Observable {
        ClosureNode("sample", inputs: [self, trigger]) { observer, scheduler, inputs in
            SampleSink(observer, scheduler: scheduler, ending: ending).start(source: inputs[0], trigger: inputs[1])
        }
    }
}

/// When `sample` completes.
public enum SampleEnding: Sendable {
    /// flow and RxJS: when the source completes.
    case withSource
    /// RxSwift: at the trigger's first value or end after the source
    /// completed, with a last sample.
    case atTriggerAfterSource
    /// CwlSignal: when either the source or the trigger ends.
    case withEither

    init(_ dialect: Dialect) {
        switch dialect {
        case .rxSwift: self = .atTriggerAfterSource
        case .cwlSignal: self = .withEither
        default: self = .withSource
        }
    }
}

final class SampleSink: Sink, InnerHost {
    private let scheduler: Scheduler
    private var trigger: InnerObserver?
    private var latest: Value?
    private let ending: SampleEnding
    private var sourceEnded = false

    init(_ downstream: Observer, scheduler: Scheduler, ending: SampleEnding) {
        self.scheduler = scheduler
        self.ending = ending
        super.init(downstream)
    }

    func start(source: Observable, trigger triggerStream: Observable) {
        announce()
        source.subscribe(self, on: scheduler)
        guard !isStopped else { return }
        let inner = InnerObserver(host: self, index: 1)
        trigger = inner
        triggerStream.subscribe(inner, on: scheduler)
    }

    override func onNext(_ value: Value) { latest = value }

    override func onCompleted() {
        guard ending == .atTriggerAfterSource else { return sendCompleted() }
        sourceEnded = true
        cancelUpstream()
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) { sampleAndMaybeEnd() }

    private func sampleAndMaybeEnd() {
        if let value = latest {
            latest = nil
            sendNext(value)
        }
        if sourceEnded { sendCompleted() }
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) { sendError(error) }
    func innerCompleted(_ inner: InnerObserver) {
        switch ending {
        case .withSource: break
        case .atTriggerAfterSource: sampleAndMaybeEnd()
        case .withEither: sendCompleted()
        }
    }

    override func disposeResources() {
        trigger?.dispose()
        trigger = nil
    }
}
