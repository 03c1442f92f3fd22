extension OperatorSpec {
    static let merge = OperatorSpec("merge", aliases: ["mergeAll", "mergeWith", "merge(with:)", "Merge", "Merge3", "Merge4", "MergeMany"], .combining, .both,
        "all values of several streams as they arrive; on a stream of streams, merges its inner streams", [
        Signature([variadic("sources", .stream), labelled("maxConcurrent", .int, optional: true).positive()]) { args in
            let others = try args.streams(0)
            if args.receiver != nil && others.isEmpty {
                return .stream(try args.source().merge(maxConcurrent: args.optionalInt(1)))
            }
            return .stream(.merge(try args.allSources(0), maxConcurrent: try args.optionalInt(1)))
        },
    ], example: #"""
            let a = cold("-a---b|")
            let b = cold("--c-d---|")
            marbles(a, b, merge(a, b))
            """#,
        differences: "RxSwift `Observable.merge`, Combine `Publishers.Merge` and `merge(with:)` (with more streams after the first: `merge(with: b, c)`), RxJS `merge`, `mergeWith` and `mergeAll`: an error of any input ends the merged stream in all three.")
}

extension Observable {
    /// All values of all `sources`, as they arrive. Nested static merges
    /// are flattened when subscribed.
    public static func merge(_ sources: [Observable], maxConcurrent: Int? = nil) -> Observable {
        StaticFlattenNode("merge", sources, strategy: .merge(maxConcurrent: maxConcurrent))
    }

    /// Merges the inner streams of a stream of streams, `maxConcurrent` at a time.
    public func merge(maxConcurrent: Int? = nil) -> Observable {
        flatten(name: "merge", strategy: .merge(maxConcurrent: maxConcurrent), transform: nil)
    }
}
