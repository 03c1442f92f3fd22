extension OperatorSpec {
    static let asMaybe = method("asMaybe", .filtering, "at most one value: the value at completion, or completion alone; an error on a second value", [],
        example: #"""
            let one = cold("-a|")
            let none = cold("--|")
            let two = cold("-a-b|")
            marbles(one.asMaybe(), none.asMaybe(), two.asMaybe())
            """#,
        differences: "RxSwift's `asMaybe()` (a `Maybe` trait: success, completion or error); `asSingle()` is `single()`, which also fails when there is no value, and `asCompletable()` is `ignoreElements()`. Combine and RxJS have no traits.") { source, args in
        let dialect = args.context.dialect
        return SinkNode("asMaybe", source) { observer, _ in ElementSink(observer, mode: .atMostOne, predicate: nil, dialect: dialect) }
    }
}
