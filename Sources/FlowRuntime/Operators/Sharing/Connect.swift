extension OperatorSpec {
    static let connect = OperatorSpec("connect", .sharing, .method, "starts a connectable stream's source", [
        Signature([]) { args in
            guard let connectable = try args.source() as? ConnectableObservable else {
                throw FlowError("connect needs a connectable stream, such as one made by publish()", at: args.context.location)
            }
            guard let scheduler = args.context.scheduler else {
                throw FlowError("connect can only be called while a script runs", at: args.context.location)
            }
            connectable.connect(on: scheduler)
            return .null
        },
    ], example: #"""
            let published = cold("-a-b|").publish()
            timer(3ms).sink { _ in published.connect() }
            marbles(published)
            """#,
        differences: "RxSwift, Combine and RxJS all call it `connect()`; cancelling what it returns stops the shared source.")
}
