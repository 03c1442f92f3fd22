extension OperatorSpec {
    static let finalize = method("finalize", aliases: ["finally"], .utility,
        "runs the closure once the subscription ends: on completion, error or cancellation (RxJS)", [arg("action", .function)],
        example: #"""
            let source = cold("-a-b|")
            marbles(source.finalize { print("done") })
            """#,
        differences: "RxJS's `finalize`; RxSwift writes `do(onDispose:)`, Combine `handleEvents(receiveCompletion:receiveCancel:)`.") { source, args in
        let action = try args.function(0)
        return source.sideEffects("finalize", SideEffectHooks(dispose: { _ = try action.call([]) }))
    }
}
