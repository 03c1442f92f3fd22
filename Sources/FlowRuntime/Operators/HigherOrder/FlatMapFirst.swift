extension OperatorSpec {
    static let flatMapFirst = method("flatMapFirst", aliases: ["exhaustMap"], .higherOrder, "maps each value to a stream, ignoring values while one runs",
        [arg("transform", .function)],
        example: #"""
            let source = cold("-a-b---c|")
            marbles(source, source.flatMapFirst { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#) { $0.flatMapFirst(try $1.function(0)) }
}

extension Observable {
    /// Maps each value to a stream, ignoring values while an inner is running.
    public func flatMapFirst(_ transform: Function) -> Observable {
        flatten(name: "flatMapFirst", strategy: .first, transform: transform)
    }
}
