extension OperatorSpec {
    static let find = method("find", .filtering,
        "the first value matching the predicate, then completion; nil at completion if none does (RxJS; first fails instead)",
        [arg("predicate", .function)],
        example: #"""
            let source = cold("-1-2-3|")
            marbles(source, source.find { $0 > 1 }, source.find { $0 > 5 })
            """#,
        differences: "RxJS's `find` emits nil (undefined) when nothing matches, where `first(where:)` fails; RxSwift has no find, Combine's `first(where:)` completes without a value (write `filter(p).take(1)` for that).") { source, args in
        let predicate = try args.function(0)
        return SinkNode("find", source) { observer, _ in ElementSink(observer, mode: .find, predicate: predicate) }
    }
}
