/// Every operator of the runtime. Canonical names are RxSwift's; aliases
/// are the names Combine and RxJS give the same operator.
public let operatorTable = OperatorTable(
    creationOperators + subjectOperators + transformationOperators + filteringOperators
        + combiningOperators + higherOrderOperators + errorOperators + timeOperators
        + sharingOperators + utilityOperators + aggregationOperators)

/// A method on a stream whose builder only needs the source and the arguments.
private func method(
    _ name: String, aliases: [String] = [], _ family: OperatorSpec.Family, _ summary: String,
    _ parameters: [Parameter], _ build: @escaping @Sendable (Observable, Arguments) throws -> Observable
) -> OperatorSpec {
    OperatorSpec(name, aliases: aliases, family, .method, summary, [
        Signature(parameters) { args in .stream(try build(args.source(), args)) },
    ])
}

private func source(
    _ name: String, aliases: [String] = [], _ summary: String, _ parameters: [Parameter],
    _ build: @escaping @Sendable (Arguments) throws -> Observable
) -> OperatorSpec {
    OperatorSpec(name, aliases: aliases, .creation, .function, summary, [Signature(parameters) { .stream(try build($0)) }])
}

/// The receiver (in method form) followed by the listed streams.
private func allSources(_ args: Arguments, _ i: Int) throws -> [Observable] {
    (args.receiver == nil ? [] : [try args.source()]) + (try args.streams(i))
}

// MARK: - Creation

let creationOperators: [OperatorSpec] = [
    source("just", aliases: ["Just"], "emits one value, then completes", [arg("value", .value)]) { .just($0.value(0)!) },
    source("of", "emits each argument in order, then completes", [variadic("values", .value)]) { .from($0.all(0), name: "of") },
    source("from", "emits each element of an array, then completes", [arg("array", .value)]) { args in
        .from(try args.value(0)!.asArray())
    },
    source("range", "emits count consecutive integers from start, then completes",
           [arg("start", .int), arg("count", .int).nonNegative()]) { .range(start: try $0.int(0), count: try $0.int(1)) },
    source("empty", aliases: ["Empty"], "completes at once", []) { _ in .empty() },
    source("never", "never emits and never ends", []) { _ in .never() },
    source("error", aliases: ["throwError", "Fail"], "fails at once with the given error value",
           [optionalArg("error", .value)]) { args in
        .error(FlowError(args.value(0) ?? .string("error"), at: args.context.location))
    },
    source("deferred", aliases: ["defer", "Deferred"], "calls the closure on each subscription and subscribes to the stream it returns",
           [arg("factory", .function)]) { .deferred(try $0.function(0)) },
    source("interval", "emits 0, 1, 2, ... at period, 2·period, ...", [arg("period", .duration).positive()]) { .interval(try $0.duration(0)) },
    source("timer", "emits 0 after a delay, then completes (or keeps emitting every period)",
           [arg("delay", .duration).nonNegative(), labelled("period", .duration, optional: true).positive()]) {
        .timer(try $0.duration(0), period: try $0.optionalDuration(1))
    },
]

// MARK: - Subjects

let subjectOperators: [OperatorSpec] = [
    OperatorSpec("subject", aliases: ["publishSubject", "PassthroughSubject"], .subjects, .function,
                 "a stream you push values into with send, complete and fail", [
        Signature([]) { _ in .stream(PublishSubject()) },
    ]),
    OperatorSpec("behaviorSubject", aliases: ["CurrentValueSubject"], .subjects, .function,
                 "a subject holding a current value, replayed to each new subscriber", [
        Signature([arg("initial", .value)]) { .stream(BehaviorSubject($0.value(0)!)) },
    ]),
    OperatorSpec("replaySubject", .subjects, .function, "a subject replaying its latest values to new subscribers", [
        Signature([labelled("bufferSize", .int, optional: true).nonNegative()]) { .stream(ReplaySubject(bufferSize: try $0.optionalInt(0) ?? 1)) },
        Signature([arg("bufferSize", .int).nonNegative()]) { .stream(ReplaySubject(bufferSize: try $0.int(0))) },
    ]),
    subjectMethod("send", aliases: ["onNext"], "pushes a value into a subject", [arg("value", .value)]) { subject, args in
        subject.send(args.value(0)!)
    },
    subjectMethod("complete", aliases: ["onCompleted"], "completes a subject", []) { subject, _ in subject.complete() },
    subjectMethod("fail", aliases: ["onError"], "fails a subject with an error value", [arg("error", .value)]) { subject, args in
        subject.fail(FlowError(args.value(0)!, at: args.context.location))
    },
]

private func subjectMethod(
    _ name: String, aliases: [String], _ summary: String, _ parameters: [Parameter],
    _ act: @escaping @Sendable (Subject, Arguments) throws -> Void
) -> OperatorSpec {
    OperatorSpec(name, aliases: aliases, .subjects, .method, summary, [
        Signature(parameters) { args in
            guard case .stream(let s)? = args.receiver, let subject = s as? Subject else {
                throw FlowError("\(name) needs a subject, such as one made by subject()", at: args.context.location)
            }
            try act(subject, args)
            return .null
        },
    ])
}

// MARK: - Transformation

let transformationOperators: [OperatorSpec] = [
    method("map", .transformation, "transforms each value", [arg("transform", .function)]) { $0.map(try $1.function(0)) },
    method("compactMap", .transformation, "transforms each value, dropping nil results", [arg("transform", .function)]) {
        $0.compactMap(try $1.function(0))
    },
    OperatorSpec("scan", .transformation, .method, "emits each step of a running accumulation (a reducer)", [
        Signature([arg("seed", .value), arg("accumulator", .function)]) { .stream(try $0.source().scan($0.value(0), $0.function(1))) },
        Signature([labelled("into", .value), arg("accumulator", .function)]) { .stream(try $0.source().scan($0.value(0), $0.function(1))) },
        Signature([arg("accumulator", .function)]) { .stream(try $0.source().scan(nil, $0.function(0))) },
    ]),
    OperatorSpec("buffer", aliases: ["bufferCount", "bufferTime"], .transformation, .method,
                 "collects values into arrays by count or by time span", [
        Signature([labelled("count", .int).positive(), labelled("skip", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(count: $0.int(0), skip: $0.optionalInt(1)))
        },
        Signature([labelled("timeSpan", .duration).positive(), labelled("count", .int, optional: true).positive()]) {
            .stream(try $0.source().buffer(timeSpan: $0.duration(0), count: $0.optionalInt(1)))
        },
    ]),
    OperatorSpec("window", aliases: ["windowCount", "windowTime"], .transformation, .method,
                 "splits values into a stream of window streams, by count or by time span", [
        Signature([labelled("count", .int).positive()]) { .stream(try $0.source().window(count: $0.int(0))) },
        Signature([labelled("timeSpan", .duration).positive(), labelled("count", .int, optional: true).positive()]) {
            .stream(try $0.source().window(timeSpan: $0.duration(0), count: $0.optionalInt(1)))
        },
    ]),
    method("groupBy", .transformation, "splits values into one stream per key", [arg("key", .function)]) { $0.groupBy(try $1.function(0)) },
    method("pairwise", .transformation, "emits each value with the previous one", [optionalArg("combine", .function)]) {
        $0.pairwise(try $1.optionalFunction(0))
    },
    method("enumerated", .transformation, "pairs each value with its index: (index:, element:)", []) { s, _ in s.enumerated() },
    method("timestamp", .transformation, "pairs each value with the time it arrived: (value:, time:)", []) { s, _ in s.timestamp() },
    method("timeInterval", .transformation, "pairs each value with the time since the previous: (value:, interval:)", []) { s, _ in
        s.timeInterval()
    },
]

// MARK: - Filtering

let filteringOperators: [OperatorSpec] = [
    method("filter", .filtering, "passes the values for which the predicate is true", [arg("predicate", .function)]) {
        $0.filter(try $1.function(0))
    },
    method("distinctUntilChanged", aliases: ["removeDuplicates"], .filtering, "drops a value equal to the previous one",
           [optionalArg("key", .function)]) { $0.distinctUntilChanged(key: try $1.optionalFunction(0)) },
    method("distinct", .filtering, "drops values seen before", [optionalArg("key", .function)]) { $0.distinct(key: try $1.optionalFunction(0)) },
    method("take", aliases: ["prefix"], .filtering, "the first n values, then completion", [arg("count", .int).nonNegative()]) { $0.take(try $1.int(0)) },
    method("takeLast", aliases: ["suffix"], .filtering, "the last n values, emitted at completion", [arg("count", .int).nonNegative()]) {
        $0.takeLast(try $1.int(0))
    },
    OperatorSpec("takeWhile", aliases: ["prefixWhile"], .filtering, .method, "values while the predicate holds, then completion", [
        Signature([arg("predicate", .function), labelled("inclusive", .bool, optional: true)]) {
            .stream(try $0.source().takeWhile($0.function(0), inclusive: $0.bool(1, default: false)))
        },
        Signature([labelled("while", .function)]) { .stream(try $0.source().takeWhile($0.function(0))) },
    ]),
    method("takeUntil", aliases: ["prefixUntilOutputFrom"], .filtering, "values until another stream emits, then completion",
           [arg("other", .stream)]) { $0.takeUntil(try $1.stream(0)) },
    method("skip", aliases: ["dropFirst"], .filtering, "drops the first n values", [arg("count", .int).nonNegative()]) { $0.skip(try $1.int(0)) },
    OperatorSpec("skipWhile", aliases: ["dropWhile"], .filtering, .method, "drops values while the predicate holds", [
        Signature([arg("predicate", .function)]) { .stream(try $0.source().skipWhile($0.function(0))) },
        Signature([labelled("while", .function)]) { .stream(try $0.source().skipWhile($0.function(0))) },
    ]),
    method("skipUntil", aliases: ["dropUntilOutputFrom"], .filtering, "drops values until another stream emits",
           [arg("other", .stream)]) { $0.skipUntil(try $1.stream(0)) },
    method("elementAt", aliases: ["element", "outputAt"], .filtering, "the value at an index, then completion", [arg("index", .int).nonNegative()]) {
        $0.elementAt(try $1.int(0))
    },
    method("first", .filtering, "the first value (matching the predicate), then completion", [optionalArg("predicate", .function)]) {
        $0.first(try $1.optionalFunction(0))
    },
    method("last", .filtering, "the last value (matching the predicate), at completion", [optionalArg("predicate", .function)]) {
        $0.last(try $1.optionalFunction(0))
    },
    method("single", .filtering, "the only value; an error if there are none or several", [optionalArg("predicate", .function)]) {
        $0.single(try $1.optionalFunction(0))
    },
    method("ignoreElements", .filtering, "drops every value, keeps completion or error", []) { s, _ in s.ignoreElements() },
    method("sample", .filtering, "the latest value each time a trigger stream emits", [arg("trigger", .stream)]) {
        $0.sample(try $1.stream(0))
    },
    method("debounce", aliases: ["debounceTime"], .filtering, "emits a value after a quiet period with no newer value",
           [arg("dueTime", .duration).nonNegative()]) { $0.debounce(try $1.duration(0)) },
    method("throttle", aliases: ["throttleTime"], .filtering, "at most one value per window (the latest at its end, with latest: true)",
           [arg("duration", .duration).nonNegative(), labelled("latest", .bool, optional: true)]) {
        $0.throttle(try $1.duration(0), latest: try $1.bool(1, default: true))
    },
]

// MARK: - Combining

let combiningOperators: [OperatorSpec] = [
    OperatorSpec("merge", aliases: ["mergeAll"], .combining, .both,
                 "all values of several streams as they arrive; on a stream of streams, merges its inner streams", [
        Signature([variadic("sources", .stream), labelled("maxConcurrent", .int, optional: true).positive()]) { args in
            let others = try args.streams(0)
            if args.receiver != nil && others.isEmpty {
                return .stream(try args.source().merge(maxConcurrent: args.optionalInt(1)))
            }
            return .stream(.merge(try allSources(args, 0), maxConcurrent: try args.optionalInt(1)))
        },
    ]),
    OperatorSpec("concat", aliases: ["concatAll", "append"], .combining, .both,
                 "streams one after another; on a stream of streams, its inner streams one after another", [
        Signature([variadic("sources", .stream)]) { args in
            if try args.receiver != nil && args.streams(0).isEmpty { return .stream(try args.source().concat()) }
            return .stream(.concat(try allSources(args, 0)))
        },
    ]),
    OperatorSpec("zip", .combining, .both, "tuples of the n-th values of each stream", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            .stream(.zip(try allSources($0, 0), combine: try $0.optionalFunction(1)))
        },
    ]),
    OperatorSpec("combineLatest", .combining, .both, "the latest value of each stream, whenever any emits", [
        Signature([variadic("sources", .stream), optionalArg("combine", .function)]) {
            .stream(.combineLatest(try allSources($0, 0), combine: try $0.optionalFunction(1)))
        },
    ]),
    OperatorSpec("amb", aliases: ["race"], .combining, .both, "mirrors the first stream to send an event", [
        Signature([variadic("sources", .stream)]) { .stream(.amb(try allSources($0, 0))) },
    ]),
    method("withLatestFrom", .combining, "each value with the latest values of other streams",
           [variadic("others", .stream), optionalArg("combine", .function)]) {
        $0.withLatestFrom(try $1.streams(0), combine: try $1.optionalFunction(1))
    },
    method("startWith", aliases: ["prepend"], .combining, "emits the given values first", [variadic("values", .value)]) {
        $0.startWith($1.all(0))
    },
    method("endWith", .combining, "emits the given values after the source completes", [variadic("values", .value)]) {
        $0.endWith($1.all(0))
    },
]

// MARK: - Higher-order

let higherOrderOperators: [OperatorSpec] = [
    method("flatMap", aliases: ["mergeMap"], .higherOrder, "maps each value to a stream and merges them",
           [labelled("maxConcurrent", .int, optional: true).positive(), arg("transform", .function)]) {
        $0.flatMap(maxConcurrent: try $1.optionalInt(0), try $1.function(1))
    },
    method("concatMap", .higherOrder, "maps each value to a stream and runs them one after another", [arg("transform", .function)]) {
        $0.concatMap(try $1.function(0))
    },
    method("flatMapLatest", aliases: ["switchMap"], .higherOrder, "maps each value to a stream, cancelling the previous one",
           [arg("transform", .function)]) { $0.flatMapLatest(try $1.function(0)) },
    method("flatMapFirst", aliases: ["exhaustMap"], .higherOrder, "maps each value to a stream, ignoring values while one runs",
           [arg("transform", .function)]) { $0.flatMapFirst(try $1.function(0)) },
    method("switchLatest", aliases: ["switchToLatest", "switchAll"], .higherOrder, "follows the latest inner stream of a stream of streams",
           []) { s, _ in s.switchLatest() },
]

// MARK: - Errors

let errorOperators: [OperatorSpec] = [
    method("catch", aliases: ["catchError"], .errors, "on error, continues with the stream the closure returns",
           [arg("handler", .function)]) { $0.catch(try $1.function(0)) },
    method("catchAndReturn", aliases: ["replaceError", "catchErrorJustReturn"], .errors, "on error, emits a value and completes",
           [arg("value", .value)]) { $0.catchAndReturn($1.value(0)!) },
    method("retry", .errors, "on error, subscribes again, at most n times", [arg("count", .int).nonNegative()]) { $0.retry(try $1.int(0)) },
    method("timeout", .errors, "fails with \"timeout\" (or switches to other) if no value comes in time",
           [arg("dueTime", .duration).nonNegative(), labelled("resetOnValue", .bool, optional: true), labelled("other", .stream, optional: true)]) {
        $0.timeout(try $1.duration(0), resetOnValue: try $1.bool(1, default: true), other: $1.has(2) ? try $1.stream(2) : nil)
    },
]

// MARK: - Time

let timeOperators: [OperatorSpec] = [
    method("delay", .time, "shifts values and completion later by a duration", [arg("dueTime", .duration).nonNegative()]) { $0.delay(try $1.duration(0)) },
    method("delaySubscription", .time, "subscribes to the source after a duration", [arg("dueTime", .duration).nonNegative()]) {
        $0.delaySubscription(try $1.duration(0))
    },
]

// MARK: - Sharing

let sharingOperators: [OperatorSpec] = [
    method("share", .sharing, "one upstream subscription for all subscribers while any remain",
           [labelled("replay", .int, optional: true).nonNegative()]) { $0.share(replay: try $1.optionalInt(0) ?? 0) },
    method("publish", aliases: ["multicast"], .sharing, "a connectable stream: the source runs once connect() is called", []) { s, _ in
        s.publish()
    },
    method("replay", .sharing, "a connectable stream that replays its latest values to late subscribers", [arg("bufferSize", .int).nonNegative()]) {
        $0.replay(try $1.int(0))
    },
    method("refCount", aliases: ["autoconnect"], .sharing, "connects a connectable stream with its first subscriber", []) { s, _ in
        guard let connectable = s as? ConnectableObservable else {
            throw FlowError("refCount needs a connectable stream, such as one made by publish()")
        }
        return connectable.refCount()
    },
    OperatorSpec("connect", .sharing, .method, "starts a connectable stream's source", [
        Signature([]) { args in
            guard let connectable = try args.source() as? ConnectableObservable else {
                throw FlowError("connect needs a connectable stream, such as one made by publish()", at: args.context.location)
            }
            guard let scheduler = args.context.scheduler else {
                throw FlowError("connect can only be called while a script runs", at: args.context.location)
            }
            connectable.connect(on: scheduler)
            return .null
        },
    ]),
]

// MARK: - Utility

let utilityOperators: [OperatorSpec] = [
    OperatorSpec("do", aliases: ["handleEvents", "tap"], .utility, .method, "runs side effects on events, leaving the stream unchanged", [
        Signature([arg("onNext", .function)]) { .stream(try $0.source().do(onNext: $0.function(0))) },
        Signature(["onNext", "onError", "onCompleted", "onSubscribe", "onDispose"].map { labelled($0, .function, optional: true) }) {
            .stream(try $0.source().do(
                onNext: $0.optionalFunction(0), onError: $0.optionalFunction(1), onCompleted: $0.optionalFunction(2),
                onSubscribe: $0.optionalFunction(3), onDispose: $0.optionalFunction(4)))
        },
    ]),
    method("materialize", .utility, "emits each event as a value: next(v), error(e), completed", []) { s, _ in s.materialize() },
    method("dematerialize", .utility, "turns event values back into events", []) { s, _ in s.dematerialize() },
    method("trace", .utility, "draws every stage of the chain ending here as a marble lane when the run ends", []) { s, _ in s.trace() },
    method("print", aliases: ["debug"], .utility, "logs every event in Combine's format", [optionalArg("label", .string)]) { s, args in
        s.print(try args.string(0, default: ""), to: args.context.output)
    },
]

// MARK: - Aggregation

let aggregationOperators: [OperatorSpec] = [
    OperatorSpec("reduce", .aggregation, .method, "folds all values into one, emitted at completion", [
        Signature([arg("seed", .value), arg("accumulator", .function)]) { .stream(try $0.source().reduce($0.value(0), $0.function(1))) },
        Signature([labelled("into", .value), arg("accumulator", .function)]) { .stream(try $0.source().reduce($0.value(0), $0.function(1))) },
        Signature([arg("accumulator", .function)]) { .stream(try $0.source().reduce(nil, $0.function(0))) },
    ]),
    method("count", .aggregation, "how many values (matching the predicate) there were", [optionalArg("predicate", .function)]) {
        $0.count(try $1.optionalFunction(0))
    },
    method("toArray", aliases: ["collect"], .aggregation, "all values in one array, at completion", []) { s, _ in s.toArray() },
    method("min", .aggregation, "the smallest value, at completion", []) { s, _ in s.min() },
    method("max", .aggregation, "the largest value, at completion", []) { s, _ in s.max() },
    method("sum", .aggregation, "the sum of the values, at completion", []) { s, _ in s.sum() },
    method("isEmpty", .aggregation, "whether the stream completes without a value", []) { s, _ in s.isEmpty() },
    method("contains", .aggregation, "whether some value equals the given one", [arg("element", .value)]) { $0.contains($1.value(0)!) },
    method("allSatisfy", aliases: ["every"], .aggregation, "whether every value satisfies the predicate", [arg("predicate", .function)]) {
        $0.allSatisfy(try $1.function(0))
    },
    method("defaultIfEmpty", aliases: ["replaceEmpty"], .aggregation, "emits a value if the stream completes empty", [arg("value", .value)]) {
        $0.defaultIfEmpty($1.value(0)!)
    },
]
