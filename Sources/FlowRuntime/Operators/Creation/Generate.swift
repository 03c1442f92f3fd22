extension OperatorSpec {
    static let generate = source("generate", "emits a state, then the next state made from it, while a condition holds",
        [labelled("initialState", .value), labelled("condition", .function), labelled("iterate", .function)],
        example: #"""
            marbles(generate(initialState: 1, condition: { $0 < 100 }, iterate: { $0 * 3 }))
            """#,
        differences: "RxSwift's `Observable.generate(initialState:condition:iterate:)`; RxJS's `generate(initial, condition, iterate)` (its options-object form is not supported). Combine has none.") { args in
        .generate(initialState: args.value(0)!, condition: try args.function(1), iterate: try args.function(2))
    }
}

extension Observable {
    /// `initialState`, then `iterate` of it, and so on, while `condition`
    /// holds; then completion. Synchronous, like `range`.
    public static func generate(initialState: Value, condition: Function, iterate: Function) -> Observable {
        ClosureNode("generate") { observer, scheduler, _ in
            var state = initialState
            var first = true
            emitSynchronously("generate", to: observer, on: scheduler) { () throws -> Value? in
                if !first { state = try iterate.call(state) }
                first = false
                guard try condition.test(state) else { return Optional<Value>.none }
                return state
            }
        }
    }
}
