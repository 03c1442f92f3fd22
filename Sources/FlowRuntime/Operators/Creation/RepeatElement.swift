extension OperatorSpec {
    static let repeatElement = source("repeatElement", "emits one value over and over, without end", [arg("element", .value)],
        example: #"""
            marbles(repeatElement("a").take(3))
            """#,
        differences: "RxSwift's `Observable.repeatElement(x)`; RxJS writes `of(x).pipe(repeat())`, Combine `Just(x).repeat`-less: `Publishers.Sequence` of a repeated collection.") { args in
        .repeatElement(args.value(0)!)
    }
}

extension Observable {
    /// `element` again and again, synchronously, until the subscriber stops
    /// (`take(n)`).
    public static func repeatElement(_ element: Value) -> Observable {
        ClosureNode("repeatElement") { observer, scheduler, _ in
            emitSynchronously("repeatElement", to: observer, on: scheduler) { element }
        }
    }
}
