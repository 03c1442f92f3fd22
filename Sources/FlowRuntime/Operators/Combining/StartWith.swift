extension OperatorSpec {
    static let startWith = method("startWith", aliases: ["prepend"], .combining,
        "emits the given values first (given streams, Combine's prepend: their values first, one stream after another)",
        [variadic("values", .value)],
        example: #"""
            let source = cold("--a|")
            marbles(source, source.startWith(0))
            """#,
        differences: "RxSwift `startWith`, Combine `prepend`, RxJS `startWith`.") {
        $0.startWith($1.all(0))
    }
}

extension Observable {
    /// `values` first, then the source; when every value is a stream, the
    /// streams' values first. A concat by another name: a chain of
    /// `startWith`s built in a loop is flattened into one, as nested concats
    /// are, instead of passing each value through every level.
    public func startWith(_ values: [Value]) -> Observable {
        let first = Observable.streams(in: values) ?? [.from(values, name: "of")]
        return StaticFlattenNode("startWith", first + [self], strategy: .merge(maxConcurrent: 1))
    }
}

extension Observable {
    /// The streams among `values` when every one is a stream: Combine's
    /// `prepend` and `append` take values or publishers alike.
    static func streams(in values: [Value]) -> [Observable]? {
        guard !values.isEmpty else { return nil }
        var streams: [Observable] = []
        for value in values {
            guard case .stream(let stream) = value else { return nil }
            streams.append(stream)
        }
        return streams
    }
}
