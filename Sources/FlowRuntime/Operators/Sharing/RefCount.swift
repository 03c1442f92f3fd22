extension OperatorSpec {
    static let refCount = method("refCount", aliases: ["autoconnect"], .sharing, "connects a connectable stream with its first subscriber", [],
        example: #"""
            let counted = cold("-a-b-c|").publish().refCount()
            marbles(counted, counted.take(1))
            """#) { s, _ in
        guard let connectable = s as? ConnectableObservable else {
            throw FlowError("refCount needs a connectable stream, such as one made by publish()")
        }
        return connectable.refCount()
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
