extension OperatorSpec {
    static let lastValueFrom = source("lastValueFrom", "the last value of a stream, at its completion, as a stream of one value; an error if there is none",
        [arg("source", .stream)],
        example: #"""
            let source = cold("--a-b|")
            marbles(source, lastValueFrom(source))
            """#,
        differences: "RxJS's `lastValueFrom(source)` returns a promise, which a stream of one value stands for here: it emits the last value when the source completes, or fails (RxJS's EmptyError) when it completes empty.") { args in
        try args.stream(0).last(dialect: args.context.dialect.orRxJS)
    }
}
