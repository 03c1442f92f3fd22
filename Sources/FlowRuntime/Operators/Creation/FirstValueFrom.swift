extension OperatorSpec {
    static let firstValueFrom = source("firstValueFrom", "the first value of a stream, as a stream of one value; an error if there is none",
        [arg("source", .stream)],
        example: #"""
            let source = cold("--a-b|")
            marbles(source, firstValueFrom(source))
            """#,
        differences: "RxJS's `firstValueFrom(source)` returns a promise, which a stream of one value stands for here: it emits the first value and completes, or fails (RxJS's EmptyError) when the source completes empty. Its `{ defaultValue }` option is `source.first().catchAndReturn(d)`.") { args in
        try args.stream(0).first(dialect: args.context.dialect.orRxJS)
    }
}
