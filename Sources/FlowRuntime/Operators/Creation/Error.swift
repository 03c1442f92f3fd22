extension OperatorSpec {
    static let error = source("error", aliases: ["throwError", "Fail", "Fail(error:)"], "fails at once with the given error value",
        [optionalArg("error", .value)],
        example: #"""
            marbles(error("boom"))
            """#,
        differences: "RxSwift `Observable.error(e)`, Combine `Fail(error: e)`, RxJS `throwError(() => e)` (a factory since RxJS 7).") { args in
        .error(FlowError(args.value(0) ?? .string("error"), at: args.context.location))
    }
}

extension Observable {
    /// Fails at once with `error`.
    public static func error(_ error: FlowError) -> Observable {
        ClosureNode("error") { observer, _, _ in
            observer.onSubscribe(NopDisposable.shared)
            observer.onError(error)
        }
    }
}
