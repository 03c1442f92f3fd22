extension OperatorSpec {
    static let switchIfEmpty = method("switchIfEmpty", aliases: ["ifEmpty(switchTo:)"], .combining,
        "the source, or another stream if the source completes without values", [arg("other", .stream)],
        example: #"""
            let cached = cold("--|")
            let network = cold("-x-y|")
            marbles(cached, cached.switchIfEmpty(network))
            """#,
        differences: "RxSwift's `ifEmpty(switchTo:)`; RxJS writes `defaultIfEmpty` with a stream, or `isEmpty` and `switchMap`; Combine has none.") {
        $0.switchIfEmpty(try $1.stream(0))
    }
}

extension Observable {
    /// The source; if it completes without a value, `other` instead.
    public func switchIfEmpty(_ other: Observable) -> Observable {
        ClosureNode("switchIfEmpty", inputs: [self, other]) { observer, scheduler, inputs in
            SwitchIfEmptySink(observer, scheduler: scheduler, other: inputs[1]).start(inputs[0])
        }
    }
}

final class SwitchIfEmptySink: FallbackSink {
    private let other: Observable
    private var isEmpty = true

    init(_ downstream: Observer, scheduler: Scheduler, other: Observable) {
        self.other = other
        super.init(downstream, scheduler: scheduler)
    }

    func start(_ source: Observable) {
        announce()
        source.subscribe(self, on: scheduler)
    }

    override func onNext(_ value: Value) {
        isEmpty = false
        sendNext(value)
    }

    override func onCompleted() {
        isEmpty ? switchTo(other) : sendCompleted()
    }
}
