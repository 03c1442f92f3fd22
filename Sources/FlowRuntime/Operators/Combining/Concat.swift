extension OperatorSpec {
    static let concat = OperatorSpec("concat", aliases: ["concatAll", "concatWith", Spelling("Concatenate", renames: ["prefix": nil, "suffix": nil])], .combining, .both,
        "streams one after another; on a stream of streams, its inner streams one after another", [
        Signature([variadic("sources", .stream)]) { args in
            if try args.receiver != nil && args.streams(0).isEmpty { return .stream(try args.source().concat()) }
            return .stream(.concat(try args.allSources(0)))
        },
    ], example: #"""
            let a = cold("-a|")
            let b = cold("-b|")
            marbles(a, b, concat(a, b))
            """#,
        differences: "RxSwift `concat`, Combine `append` and `Publishers.Concatenate`, RxJS `concat`, `concatWith` and `concatAll`.")
}

extension Observable {
    /// Each source after the previous completes. Nested concats are
    /// flattened when subscribed, so a chain built by nesting 100 000
    /// concats subscribes without deep recursion.
    public static func concat(_ sources: [Observable]) -> Observable {
        StaticFlattenNode("concat", sources, strategy: .merge(maxConcurrent: 1))
    }

    /// The inner streams one after another, each subscribed when the previous completes.
    public func concat() -> Observable {
        flatten(name: "concat", strategy: .merge(maxConcurrent: 1), transform: nil)
    }
}
