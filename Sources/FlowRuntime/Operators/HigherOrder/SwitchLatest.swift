extension OperatorSpec {
    static let switchLatest = method("switchLatest", aliases: ["switchToLatest", "switchAll"], .higherOrder, "follows the latest inner stream of a stream of streams",
        [],
        example: #"""
            let streams = cold("-a--b---|", a: cold("-1-2-3|"), b: cold("-4|"))
            marbles(streams.switchLatest())
            """#,
        differences: "RxSwift `switchLatest`, Combine `switchToLatest`, RxJS `switchAll`.") { s, _ in s.switchLatest() }
}

extension Observable {
    /// Follows the latest inner stream, cancelling the previous one.
    public func switchLatest() -> Observable {
        flatten(name: "switchLatest", strategy: .latest, transform: nil)
    }
}
