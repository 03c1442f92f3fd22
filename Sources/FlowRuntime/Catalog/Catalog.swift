/// Every operator of the runtime, family by family. Each operator lives in
/// its own file under `Operators/<Family>/`, which holds its spec (names,
/// labels, summary, example) beside its implementation; this list is the
/// one place that gathers them, in the order `flow doc` shows them.
public let operatorTable = OperatorTable(OperatorSpec.Family.allCases.flatMap(\.operators))

extension OperatorSpec.Family {
    /// The family's operators; each one's `family` is this family, and its
    /// file is in the folder of the same name (a test checks both).
    public var operators: [OperatorSpec] {
        switch self {
        case .creation:
            [.just, .of, .from, .range, .generate, .repeatElement, .empty, .never, .error, .deferred, .create, .using, .future, .iif,
             .interval, .timer, .record, .firstValueFrom, .lastValueFrom]
        case .subjects: [.subject, .behaviorSubject, .replaySubject, .send, .on, .complete, .fail]
        case .transformation:
            [.map, .mapTo, .compactMap, .replaceNil, .scan, .buffer, .window, .groupBy, .pairwise, .enumerated, .withUnretained, .timestamp,
             .timeInterval, .measureInterval]
        case .filtering:
            [.filter, .partition, .distinctUntilChanged, .distinct, .take, .takeLast, .takeWhile, .takeUntil, .takeFor, .skip, .skipLast,
             .skipWhile, .skipUntil, .elementAt, .output, .first, .find, .last, .single, .asMaybe, .ignoreElements, .sample, .sampleTime,
             .debounce, .throttle, .audit]
        case .combining: [.merge, .concat, .zip, .combineLatest, .forkJoin, .amb, .withLatestFrom, .startWith, .endWith, .switchIfEmpty, .combine]
        case .higherOrder: [.flatMap, .concatMap, .flatMapLatest, .flatMapFirst, .switchLatest]
        case .errors: [.catch, .catchAndReturn, .mapError, .setFailureType, .retry, .retryWhen, .timeout]
        case .time: [.delay, .delaySubscription]
        case .sharing: [.share, .continuous, .publish, .replay, .refCount, .connect, .asDriver]
        case .utility:
            [.do, .finalize, .materialize, .dematerialize, .observeOn, .subscribeOn, .asObservable, .repeat, .trace, .print, .debug,
             .breakpoint, .breakpointOnError]
        case .aggregation: [.reduce, .count, .toArray, .min, .max, .sum, .isEmpty, .contains, .allSatisfy, .defaultIfEmpty]
        }
    }

    /// The folder under `Sources/FlowRuntime/Operators` holding the family.
    public var folder: String {
        switch self {
        case .higherOrder: "HigherOrder"
        default: title
        }
    }

    /// The family's name as a heading: "Higher-order".
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// What the family's operators have in common, for the documentation.
    public var summary: String {
        switch self {
        case .creation:
            "Sources: streams made from values, ranges and the clock. Synchronous sources are plain loops that check "
                + "their subscription between values, so a downstream `take` stops them early."
        case .subjects:
            "Streams that a script pushes values into (`send`, `complete`, `fail`) and that many observers share. "
                + "Delivery is never re-entrant: a value sent from inside an observer is delivered once the current "
                + "value has reached every observer, so all observers see the same order."
        case .transformation:
            "Operators that change each value (`map`, `scan`, ...) or regroup values (`buffer`, `window`, `groupBy`, `pairwise`)."
        case .filtering:
            "Operators that pass on some values and drop the rest, by content, by position or by time."
        case .combining:
            "Operators that combine several streams into one."
        case .higherOrder:
            "Operators on streams of streams: each value becomes a stream, and the inner streams are merged, "
                + "queued, switched or exhausted."
        case .errors:
            "Recovering from errors: replacing, retrying, or failing when a stream is too slow."
        case .time:
            "Shifting events or subscriptions later in time."
        case .sharing:
            "Sharing one upstream subscription among many subscribers. The source's error or completion reaches every "
                + "current subscriber and ends the connection; a subscriber that disposes only leaves it."
        case .utility:
            "Side effects (`do`, `print`), events as values (`materialize`), and tracing."
        case .aggregation:
            "Operators that reduce a whole stream to one value, emitted when the source completes "
                + "(or earlier, once the answer is known). An error from the source is passed on and nothing is emitted."
        }
    }

    /// What holds for every operator unless its own documentation says otherwise.
    public static let commonRules = """
        Unless an operator's documentation says otherwise: an error from a source is passed on at once and ends the \
        result; completion is passed on after what the operator still owes (a final buffer, a pending value); \
        disposing the result cancels every source, timer and inner subscription it holds, and nothing is delivered \
        after a terminal event or disposal.
        """
}

extension OperatorSpec {
    /// A method on a stream whose builder only needs the source and the arguments.
    static func method(
        _ name: String, aliases: [Spelling] = [], _ family: Family, _ summary: String, _ parameters: [Parameter],
        example: String? = nil, differences: String? = nil, traits: Traits = [],
        _ build: @escaping @Sendable (Observable, Arguments) throws -> Observable
    ) -> OperatorSpec {
        OperatorSpec(name, aliases: aliases, family, .method, summary, [
            Signature(parameters) { args in .stream(try build(args.source(), args)) },
        ], example: example, differences: differences, traits: traits)
    }

    /// A free function that makes a stream.
    static func source(
        _ name: String, aliases: [Spelling] = [], _ summary: String, _ parameters: [Parameter],
        example: String? = nil, differences: String? = nil, traits: Traits = [], _ build: @escaping @Sendable (Arguments) throws -> Observable
    ) -> OperatorSpec {
        OperatorSpec(name, aliases: aliases, .creation, .function, summary, [Signature(parameters) { .stream(try build($0)) }],
                     example: example, differences: differences, traits: traits)
    }
}

extension Arguments {
    /// The receiver (in method form) followed by the streams of parameter `i`.
    func allSources(_ i: Int) throws -> [Observable] {
        (receiver == nil ? [] : [try source()]) + (try streams(i))
    }
}
