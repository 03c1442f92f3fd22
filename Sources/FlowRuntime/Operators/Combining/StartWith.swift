extension OperatorSpec {
    static let startWith = method("startWith", aliases: ["prepend"], .combining, "emits the given values first", [variadic("values", .value)],
        example: #"""
            let source = cold("--a|")
            marbles(source, source.startWith(0))
            """#) {
        $0.startWith($1.all(0))
    }
}

extension Observable {
    /// `values` first, then the source.
    public func startWith(_ values: [Value]) -> Observable {
        let node = Observable.concat([.from(values, name: "of"), self])
        return ClosureNode("startWith", inputs: [node]) { o, s, inputs in inputs[0].subscribe(o, on: s) }
    }
}
