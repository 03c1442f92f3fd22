/// A short example per operator, as a flow script that draws its lanes with
/// `marbles(...)`. The runtime only keeps them: `flow doc` runs them, so
/// every diagram in the documentation is computed by the engine.
public let operatorExamples: [String: String] = [
    // Creation
    "just": #"marbles(just(1))"#,
    "of": #"marbles(of(1, 2, 3))"#,
    "from": #"marbles(from([1, 2, 3]))"#,
    "range": #"marbles(range(5, 3))"#,
    "empty": #"marbles(empty())"#,
    "never": #"marbles(never())"#,
    "error": #"marbles(error("boom"))"#,
    "deferred": #"marbles(deferred { just(42) })"#,
    "interval": #"marbles(interval(2ms).take(4))"#,
    "timer": #"marbles(timer(3ms), timer(2ms, period: 3ms).take(3))"#,
    // Subjects
    "subject": #"""
        let s = subject()
        timer(1ms).sink { _ in s.send("a") }
        timer(3ms).sink { _ in s.send("b") }
        timer(4ms).sink { _ in s.complete() }
        marbles(s)
        """#,
    "behaviorSubject": #"""
        let s = behaviorSubject(0)
        timer(2ms).sink { _ in s.send(1) }
        marbles(s.take(2))
        """#,
    "replaySubject": #"""
        let s = replaySubject(bufferSize: 2)
        s.send(1)
        s.send(2)
        s.send(3)
        marbles(s.take(2))
        """#,
    "send": #"""
        let s = subject()
        timer(2ms).sink { _ in s.send(7) }
        marbles(s.take(1))
        """#,
    "complete": #"""
        let s = subject()
        timer(2ms).sink { _ in s.complete() }
        marbles(s)
        """#,
    "fail": #"""
        let s = subject()
        timer(2ms).sink { _ in s.fail("broken") }
        marbles(s)
        """#,
    // Transformation
    "map": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.map { $0 * 10 })
        """#,
    "compactMap": #"""
        let source = cold("-1-2-3-4|")
        marbles(source, source.compactMap { $0 % 2 == 0 ? $0 : nil })
        """#,
    "scan": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.scan(0) { $0 + $1 })
        """#,
    "buffer": #"""
        let source = cold("-a-b-c-d-e|")
        marbles(source, source.buffer(count: 2))
        """#,
    "window": #"""
        let source = cold("-a-b-c-d|")
        marbles(source, source.window(count: 2).flatMap { $0.toArray() })
        """#,
    "groupBy": #"""
        let source = cold("-1-2-3-4|")
        marbles(source, source.groupBy { $0 % 2 }.flatMap { $0.toArray() })
        """#,
    "pairwise": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.pairwise { $0 + $1 })
        """#,
    "enumerated": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.enumerated().map { $0.index })
        """#,
    "timestamp": #"""
        let source = cold("-a--b|")
        marbles(source, source.timestamp().map { $0.time })
        """#,
    "timeInterval": #"""
        let source = cold("-a--b|")
        marbles(source, source.timeInterval().map { $0.interval })
        """#,
    // Filtering
    "filter": #"""
        let source = cold("-1-2-3-4|")
        marbles(source, source.filter { $0 % 2 == 0 })
        """#,
    "distinctUntilChanged": #"""
        let source = cold("-a-a-b-a|")
        marbles(source, source.distinctUntilChanged())
        """#,
    "distinct": #"""
        let source = cold("-a-a-b-a|")
        marbles(source, source.distinct())
        """#,
    "take": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.take(2))
        """#,
    "takeLast": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.takeLast(2))
        """#,
    "takeWhile": #"""
        let source = cold("-1-2-3-1|")
        marbles(source, source.takeWhile { $0 < 3 })
        """#,
    "takeUntil": #"""
        let source = cold("-a-b-c-d|")
        let stop = cold("----x")
        marbles(source, stop, source.takeUntil(stop))
        """#,
    "skip": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.skip(2))
        """#,
    "skipWhile": #"""
        let source = cold("-1-2-3-1|")
        marbles(source, source.skipWhile { $0 < 2 })
        """#,
    "skipUntil": #"""
        let source = cold("-a-b-c-d|")
        let start = cold("--x")
        marbles(source, start, source.skipUntil(start))
        """#,
    "elementAt": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.elementAt(1))
        """#,
    "first": #"""
        let source = cold("--a-b|")
        marbles(source, source.first())
        """#,
    "last": #"""
        let source = cold("-a-b-|")
        marbles(source, source.last())
        """#,
    "single": #"""
        let source = cold("-a-b|")
        marbles(source, source.single())
        """#,
    "ignoreElements": #"""
        let source = cold("-a-b|")
        marbles(source, source.ignoreElements())
        """#,
    "sample": #"""
        let source = cold("-a-b---c-|")
        let trigger = cold("--x---x-x-x|")
        marbles(source, trigger, source.sample(trigger))
        """#,
    "debounce": #"""
        let source = cold("-a-b----c|")
        marbles(source, source.debounce(2ms))
        """#,
    "throttle": #"""
        let source = cold("-a-b-c-d|")
        marbles(source, source.throttle(3ms, latest: true), source.throttle(3ms, latest: false))
        """#,
    // Combining
    "merge": #"""
        let a = cold("-a---b|")
        let b = cold("--c-d---|")
        marbles(a, b, merge(a, b))
        """#,
    "concat": #"""
        let a = cold("-a|")
        let b = cold("-b|")
        marbles(a, b, concat(a, b))
        """#,
    "zip": #"""
        let a = cold("-a-b-c|")
        let b = cold("--1---2|")
        marbles(a, b, zip(a, b) { "\($0)\($1)" })
        """#,
    "combineLatest": #"""
        let a = cold("-a---b|")
        let b = cold("--1-2---|")
        marbles(a, b, combineLatest(a, b) { "\($0)\($1)" })
        """#,
    "amb": #"""
        let a = cold("---a|")
        let b = cold("-b-c|")
        marbles(a, b, amb(a, b))
        """#,
    "withLatestFrom": #"""
        let source = cold("-a--b--c|")
        let other = cold("--1----2|")
        marbles(source, other, source.withLatestFrom(other) { "\($0)\($1)" })
        """#,
    "startWith": #"""
        let source = cold("--a|")
        marbles(source, source.startWith(0))
        """#,
    "endWith": #"""
        let source = cold("-a|")
        marbles(source, source.endWith(9))
        """#,
    // Higher-order
    "flatMap": #"""
        let source = cold("-a--b---|")
        marbles(source, source.flatMap { v in cold("-x-y|", x: v + "1", y: v + "2") })
        """#,
    "concatMap": #"""
        let source = cold("-a--b---|")
        marbles(source, source.concatMap { v in cold("-x-y|", x: v + "1", y: v + "2") })
        """#,
    "flatMapLatest": #"""
        let source = cold("-a-b----|")
        marbles(source, source.flatMapLatest { v in cold("-x-y|", x: v + "1", y: v + "2") })
        """#,
    "flatMapFirst": #"""
        let source = cold("-a-b---c|")
        marbles(source, source.flatMapFirst { v in cold("-x-y|", x: v + "1", y: v + "2") })
        """#,
    "switchLatest": #"""
        let streams = cold("-a--b---|", a: cold("-1-2-3|"), b: cold("-4|"))
        marbles(streams.switchLatest())
        """#,
    // Errors
    "catch": #"""
        let source = cold("-a#")
        marbles(source, source.catch { _ in cold("-b|") })
        """#,
    "catchAndReturn": #"""
        let source = cold("-a#")
        marbles(source, source.catchAndReturn("z"))
        """#,
    "retry": #"""
        let source = cold("-a#")
        marbles(source, source.retry(2))
        """#,
    "timeout": #"""
        let source = cold("-a----b|")
        marbles(source, source.timeout(3ms))
        """#,
    // Time
    "delay": #"""
        let source = cold("-a-b|")
        marbles(source, source.delay(2ms))
        """#,
    "delaySubscription": #"""
        let source = cold("a-b|")
        marbles(source, source.delaySubscription(2ms))
        """#,
    // Sharing
    "share": #"""
        let source = cold("-a-b-c|")
        let shared = source.share()
        marbles(shared, shared.map { $0 + "'" })
        """#,
    "publish": #"""
        let published = cold("-a-b|").publish()
        timer(2ms).sink { _ in published.connect() }
        marbles(published)
        """#,
    "replay": #"""
        let replayed = cold("-a-b-c|").replay(1).refCount()
        marbles(replayed, replayed.delaySubscription(4ms))
        """#,
    "refCount": #"""
        let counted = cold("-a-b-c|").publish().refCount()
        marbles(counted, counted.take(1))
        """#,
    "connect": #"""
        let published = cold("-a-b|").publish()
        timer(3ms).sink { _ in published.connect() }
        marbles(published)
        """#,
    // Utility
    "do": #"""
        let source = cold("-a-b|")
        marbles(source.do(onNext: { print("saw \($0)") }))
        """#,
    "materialize": #"""
        let source = cold("-a-#")
        marbles(source, source.materialize().map { $0.kind })
        """#,
    "dematerialize": #"""
        let events = cold("-a-b|").materialize()
        marbles(events.dematerialize())
        """#,
    "trace": #"""
        let source = cold("-a--b-|")
        source.flatMapLatest { v in cold("-x--y|") }.map { $0 + "!" }.trace().sink { _ in }
        """#,
    "print": #"""
        let source = cold("-a|")
        marbles(source.print("source"))
        """#,
    // Aggregation
    "reduce": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.reduce(0) { $0 + $1 })
        """#,
    "count": #"""
        let source = cold("-a-b-c|")
        marbles(source, source.count())
        """#,
    "toArray": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.toArray())
        """#,
    "min": #"""
        let source = cold("-3-1-2|")
        marbles(source, source.min())
        """#,
    "max": #"""
        let source = cold("-3-1-2|")
        marbles(source, source.max())
        """#,
    "sum": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.sum())
        """#,
    "isEmpty": #"""
        let source = cold("---|")
        marbles(source, source.isEmpty())
        """#,
    "contains": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.contains(2))
        """#,
    "allSatisfy": #"""
        let source = cold("-1-2-3|")
        marbles(source, source.allSatisfy { $0 < 3 })
        """#,
    "defaultIfEmpty": #"""
        let source = cold("--|")
        marbles(source, source.defaultIfEmpty(0))
        """#,
]

extension OperatorSpec {
    /// This operator's example script (see `operatorExamples`).
    public var example: String? { operatorExamples[name] }
}
