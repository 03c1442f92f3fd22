extension OperatorSpec {
    static let replay = method("replay", .sharing, "a connectable stream that replays its latest values to late subscribers", [arg("bufferSize", .int).nonNegative()],
        example: #"""
            let replayed = cold("-a-b-c|").replay(1).refCount()
            marbles(replayed, replayed.delaySubscription(4ms))
            """#,
        differences: "RxSwift `replay(n)`, RxJS `publishReplay(n)` (replaced in RxJS 7 by `connectable` with a `ReplaySubject`); Combine has none.") {
        $0.replay(try $1.int(0))
    }
}

extension Observable {
    /// Like `publish`, replaying the latest `bufferSize` values to late subscribers.
    public func replay(_ bufferSize: Int) -> ConnectableObservable {
        ConnectableObservable(self, name: "replay", replay: Swift.max(0, bufferSize))
    }
}
