import Testing

@testable import FlowRuntime

@Suite struct OperatorTableTests {
    let context = OperatorContext(output: { _ in })

    func call(_ name: String, on receiver: Value? = nil, _ args: [(String?, Value)] = []) throws -> Value {
        try operatorTable.call(name, receiver: receiver, labels: args.map(\.0), arguments: args.map(\.1), context: context)
    }

    @Test func everyIssueOperatorIsRegistered() {
        let required = """
            just of from range empty never error deferred interval timer subject behaviorSubject replaySubject send complete fail \
            map compactMap scan buffer window groupBy pairwise enumerated timestamp timeInterval \
            filter distinctUntilChanged distinct take takeLast takeWhile takeUntil skip skipWhile skipUntil elementAt first last \
            ignoreElements sample debounce throttle single merge concat zip combineLatest withLatestFrom startWith endWith amb \
            flatMap concatMap flatMapLatest flatMapFirst switchLatest catch catchAndReturn retry timeout delay delaySubscription \
            share publish connect do materialize dematerialize print reduce count toArray min max sum isEmpty contains allSatisfy \
            defaultIfEmpty
            """.split(separator: " ")
        for name in required { #expect(operatorTable.lookup(String(name)) != nil, "missing \(name)") }
    }

    @Test func aliasesResolveToTheCanonicalEntry() {
        let pairs = [("removeDuplicates", "distinctUntilChanged"), ("flatMapLatest", "flatMapLatest"), ("switchMap", "flatMapLatest"),
                     ("prefix", "take"), ("dropFirst", "skip"), ("handleEvents", "do"), ("tap", "do"),
                     ("replaceError", "catchAndReturn"), ("mergeMap", "flatMap"), ("race", "amb")]
        for (alias, canonical) in pairs { #expect(operatorTable.lookup(alias)?.name == canonical) }
    }

    @Test func everyEntryHasADescriptionAndASignature() {
        for entry in operatorTable.entries {
            #expect(!entry.summary.isEmpty)
            #expect(!entry.signatures.isEmpty)
        }
    }

    @Test func callsBindLabelsAndOverloads() throws {
        let source = Value.stream(.range(start: 1, count: 4))
        let buffered = try call("buffer", on: source, [("count", 2)])
        #expect(values(collect(try buffered.asStream())) == [[1, 2], [3, 4]])
        let timed = try call("buffer", on: source, [("timeSpan", .duration(.milliseconds(Int64(1))))])
        #expect(values(collect(try timed.asStream())) == [[1, 2, 3, 4]])
        let scanned = try call("scan", on: source, [(nil, 0), (nil, .function(add))])
        #expect(values(collect(try scanned.asStream())) == [1, 3, 6, 10])
        let seedless = try call("scan", on: source, [(nil, .function(add))])
        #expect(values(collect(try seedless.asStream())) == [1, 3, 6, 10])
        let limited = try call("flatMap", on: source, [("maxConcurrent", 2), (nil, .function(fn { .stream(.just($0)) }))])
        #expect(values(collect(try limited.asStream())) == [1, 2, 3, 4])
    }

    @Test func methodAndFreeFunctionForms() throws {
        let a = Value.stream(.just(1)), b = Value.stream(.just(2))
        #expect(values(collect(try call("zip", [(nil, a), (nil, b)]).asStream())) == [.tuple([1, 2])])
        #expect(values(collect(try call("zip", on: a, [(nil, b)]).asStream())) == [.tuple([1, 2])])
        #expect(values(collect(try call("concat", on: a, [(nil, b)]).asStream())) == [1, 2])
        #expect(values(collect(try call("merge", [(nil, a), (nil, b)]).asStream())) == [1, 2])
        let zipped = try call("zip", [(nil, a), (nil, b), (nil, .function(add))])
        #expect(values(collect(try zipped.asStream())) == [3])
    }

    @Test func badCallsAreClearErrors() {
        func message(_ body: () throws -> Value) -> String {
            do { _ = try body(); return "" } catch { return FlowError.wrap(error).message }
        }
        #expect(message { try call("nope") } == "unknown operator 'nope'")
        #expect(message { try call("map", [(nil, .function(add))]) }.contains("is a method"))
        #expect(message { try call("interval", on: .stream(.never()), [(nil, 1)]) }.contains("free function"))
        #expect(message { try call("buffer", on: .stream(.never()), [("size", 2)]) }.contains("takes buffer(count: Int, skip: Int?) or buffer(timeSpan: Duration, count: Int?)"))
        #expect(message { try call("debounce", on: .stream(.never()), [(nil, 5)]) }.contains("takes debounce(Duration)"))
        #expect(message { try call("map", on: 3, [(nil, .function(add))]) } == "map must be called on a stream, not on Int 3")
    }

    @Test func bindingIsStaticallyCheckableFromLabelsAlone() {
        let debounce = operatorTable.lookup("debounce")!.signatures[0]
        #expect(debounce.bind(labels: [nil], values: [nil]) != nil)
        #expect(debounce.bind(labels: ["after"], values: [nil]) == nil)
        #expect(debounce.bind(labels: [nil, nil], values: [nil, nil]) == nil)
    }
}
