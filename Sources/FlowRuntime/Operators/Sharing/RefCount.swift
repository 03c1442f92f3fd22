extension OperatorSpec {
    static let refCount = method("refCount", aliases: ["autoconnect"], .sharing,
        "connects a connectable stream with its first subscriber (on another stream, such as Combine's Timer.publish, shares it the same way)", [],
        example: #"""
            let counted = cold("-a-b-c|").publish().refCount()
            marbles(counted, counted.take(1))
            """#,
        differences: "RxSwift `refCount()`, Combine `autoconnect()`, RxJS `refCount()` (replaced in RxJS 7 by `share`).") { s, _ in
        // Combine's `Timer.publish(...)` is connectable; flow's interval is
        // not, so `autoconnect()` on it publishes it first.
        (s as? ConnectableObservable ?? s.publish()).refCount()
    }
}

final class RefCountSink: Sink {
    private var onLeave: (() -> Void)?
    init(_ downstream: Observer, onLeave: @escaping () -> Void) {
        self.onLeave = onLeave
        super.init(downstream)
    }
    override func disposeResources() {
        let leave = onLeave
        onLeave = nil
        leave?()
    }
}
