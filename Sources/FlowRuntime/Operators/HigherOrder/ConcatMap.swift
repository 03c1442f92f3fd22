extension OperatorSpec {
    static let concatMap = method("concatMap", .higherOrder, "maps each value to a stream and runs them one after another", [arg("transform", .function)],
        example: #"""
            let source = cold("-a--b---|")
            marbles(source, source.concatMap { v in cold("-x-y|", x: v + "1", y: v + "2") })
            """#,
        differences: "RxSwift's and RxJS's `concatMap`; Combine writes `flatMap(maxPublishers: .max(1))`.") {
        $0.concatMap(try $1.function(0))
    }
}

extension Observable {
    /// Maps each value to a stream and runs them one after another.
    public func concatMap(_ transform: Function) -> Observable {
        flatten(name: "concatMap", strategy: .merge(maxConcurrent: 1), transform: transform)
    }
}
