/// Which streams may be subscribed only to be drawn.
///
/// A stream of streams that nothing flattens (`map { n in timer(5ms) }`)
/// emits streams that no one subscribes: to draw what each would send, a
/// diagram has to subscribe it itself. That second subscription must be
/// invisible to the script: it may not run the script's code that prints,
/// writes, sends into a subject or changes a variable, nor add a
/// subscription that a subscription log, a `share()`'s count or a subject
/// could see. So only a stream made wholly of side-effect-free parts is
/// subscribed to be drawn, on a clock of its own (its subscription logs
/// and shared state are that clock's, not the run's), and every node is
/// checked as it is subscribed there, also the ones a `flatMap` makes
/// while it plays: the first that is not free of side effects stops the
/// drawing before it does anything.
///
/// Free of side effects: the marble and value sources (`cold`, `just`,
/// `of`, `from`, `range`, `timer`, `interval`, `empty`, `never`, `error`,
/// ...), the streams an operator makes (a `groupBy`'s groups, a
/// `window`'s windows), and the operators in `operators`, each built only
/// with closures the language read and found free of side effects
/// (`Function.sideEffect` is nil). Not: `hot` streams and subjects (shared
/// with the run), `share` and the other sharing operators, `do`, `print`,
/// `debug`, `finalize` and the other operators that exist for their side
/// effects, `create`, `deferred` and `Future`, and every source that reads
/// or writes outside the script (files, requests, the database, standard
/// input, signals, the environment).
public enum DrawingOnly {
    /// Operators (by their node's name) that do nothing but pass on,
    /// transform and time what they read.
    public static let operators: Set<String> = [
        // Sources of values and time.
        "cold", "just", "of", "from", "range", "timer", "interval", "empty", "never", "error", "repeatElement", "generate",
        // Transforming.
        "map", "mapTo", "compactMap", "scan", "reduce", "buffer", "window", "groupBy", "pairwise", "enumerated",
        "timestamp", "timeInterval", "measureInterval", "replaceNil", "materialize", "dematerialize", "toArray",
        "count", "contains", "allSatisfy", "isEmpty", "min", "max", "sum", "defaultIfEmpty",
        // Filtering.
        "filter", "take", "takeLast", "takeWhile", "takeUntil", "takeFor", "skip", "skipLast", "skipWhile", "skipUntil",
        "first", "last", "elementAt", "single", "find", "distinct", "distinctUntilChanged", "ignoreElements",
        "debounce", "throttle", "audit", "sample", "sampleTime", "asMaybe",
        // Time.
        "delay", "delaySubscription", "timeout",
        // Combining and flattening.
        "merge", "concat", "zip", "combineLatest", "withLatestFrom", "amb", "startWith", "endWith", "switchIfEmpty", "forkJoin",
        "flatMap", "concatMap", "flatMapLatest", "flatMapFirst", "exhaustAll", "switchLatest",
        // Errors and repetition.
        "catch", "catchAndReturn", "retry", "mapError", "repeat", "asObservable",
    ]

    /// Why subscribing `node` could be seen by the script, in a few words;
    /// nil when it cannot. Fused stages upstream of it (subscribed through
    /// it, without a subscription of their own) are checked with it.
    public static func sideEffect(of node: Observable) -> String? {
        var current = node
        while true {
            if let effect = ownSideEffect(of: current) { return effect }
            guard current.isFusedStage else { return nil }
            current = current.input
        }
    }

    private static func ownSideEffect(of node: Observable) -> String? {
        let name = node.displayName
        if node.callsCodeWithSideEffects { return "\(name) runs a closure that may have side effects" }
        if isMadeByAnOperator(node) { return nil }
        if node.isHotSource { return "\(name) is shared with the run" }
        if node.sharesItsInput { return "\(name) shares its subscription with the run" }
        return operators.contains(node.operatorName) ? nil : "\(name) is not known to be free of side effects"
    }

    /// A stream an operator made (a group, a window): no script wrote it,
    /// so it has a label but no location, and reads no stream.
    public static func isMadeByAnOperator(_ node: Observable) -> Bool {
        node.location == nil && node.label != nil && node.inputs.isEmpty
    }

    /// A tracer for a drawing-only clock: it traces nothing and refuses
    /// every subscription `sideEffect(of:)` finds a side effect in, telling
    /// `refused` why (also when the stream would catch the error it fails
    /// with: a drawing refused anywhere is not drawn).
    public static func guardTracer(refused: @escaping (String) -> Void) -> Tracer {
        let tracer = Tracer()
        tracer.admits = { node in
            guard let effect = sideEffect(of: node) else { return nil }
            refused(effect)
            return FlowError("not drawn: " + effect)
        }
        return tracer
    }
}
