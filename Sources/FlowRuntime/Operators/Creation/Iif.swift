extension OperatorSpec {
    static let iif = source("iif",
        "on each subscription, subscribes to the first stream if the condition closure returns true, else to the second (or completes)",
        [arg("condition", .function), arg("whenTrue", .stream), optionalArg("whenFalse", .stream)],
        example: #"""
            let ready = behaviorSubject(true)
            marbles(iif({ ready.value }, cold("-a|"), cold("--b|")))
            """#,
        differences: "RxJS's `iif(condition, a, b)`, decided at each subscription; RxSwift and Combine write it with `deferred`.") { args in
        .iif(try args.function(0), then: try args.stream(1), else: args.has(2) ? try args.stream(2) : .empty())
    }
}

extension Observable {
    /// RxJS's `iif`: the condition is asked at each subscription.
    public static func iif(_ condition: Function, then whenTrue: Observable, else whenFalse: Observable) -> Observable {
        ClosureNode("iif", inputs: [whenTrue, whenFalse]) { observer, scheduler, inputs in
            let chosen: Observable
            do {
                chosen = try condition.call([]).asBool() ? inputs[0] : inputs[1]
            } catch {
                observer.onSubscribe(NopDisposable.shared)
                observer.onError(FlowError.wrap(error))
                return
            }
            chosen.subscribe(observer, on: scheduler)
        }
    }
}
