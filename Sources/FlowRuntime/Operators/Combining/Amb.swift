extension OperatorSpec {
    static let amb = OperatorSpec("amb", aliases: ["race", "raceWith"], .combining, .both, "mirrors the first stream to send an event", [
        Signature([variadic("sources", .stream)]) { .stream(.amb(try $0.allSources(0))) },
    ], example: #"""
            let a = cold("---a|")
            let b = cold("-b-c|")
            marbles(a, b, amb(a, b))
            """#,
        differences: "RxSwift `amb`, RxJS `race` and `raceWith`; Combine has none.")
}

extension Observable {
    /// Mirrors whichever source sends the first event, cancelling the others.
    public static func amb(_ sources: [Observable]) -> Observable {
        CombiningNode("amb", sources) { observer, scheduler, _ in
            AmbSink(observer, scheduler: scheduler)
        }
    }
}

final class AmbSink: CombiningSink {
    private var winner: Int?

    init(_ downstream: Observer, scheduler: Scheduler) {
        super.init(downstream, scheduler: scheduler, combine: nil)
    }

    /// The first input to speak wins; the rest are cancelled.
    private func claim(_ inner: InnerObserver) -> Bool {
        if let winner { return winner == inner.index }
        winner = inner.index
        for other in inners where other !== inner { other.dispose() }
        return true
    }

    override func innerNext(_ inner: InnerObserver, _ value: Value) {
        if claim(inner) { sendNext(value) }
    }

    override func innerError(_ inner: InnerObserver, _ error: FlowError) {
        if claim(inner) { sendError(error) }
    }

    override func innerCompleted(_ inner: InnerObserver) {
        if claim(inner) { sendCompleted() }
    }
}
