import FlowMarbles
import Testing

@testable import FlowRuntime

/// The Rx contract, checked for every operator that has one source: an
/// upstream error reaches downstream (unless the operator exists to handle
/// errors), and disposing downstream ends the source's subscription at that
/// frame. Value behaviour is covered family by family in the other suites,
/// as are operators that may end before the error arrives (`isEmpty`).
@Suite struct ContractTests {
    static let ms1 = TimeSpan.milliseconds(Int64(1))
    static func other() -> Observable { .never() }
    static var unary: [(String, (Observable) -> Observable)] { [
        ("map", { $0.map(fn { $0 }) }), ("compactMap", { $0.compactMap(fn { $0 }) }), ("scan", { $0.scan(0, fn2 { a, _ in a }) }),
        ("buffer(count:)", { $0.buffer(count: 10) }), ("buffer(timeSpan:)", { $0.buffer(timeSpan: .seconds(9)) }),
        ("window(count:)", { $0.window(count: 10) }), ("window(timeSpan:)", { $0.window(timeSpan: .seconds(9)) }),
        ("groupBy", { $0.groupBy(fn { $0 }) }), ("pairwise", { $0.pairwise() }), ("enumerated", { $0.enumerated() }),
        ("timestamp", { $0.timestamp() }), ("timeInterval", { $0.timeInterval() }),
        ("filter", { $0.filter(pred { _ in true }) }), ("distinctUntilChanged", { $0.distinctUntilChanged() }),
        ("distinct", { $0.distinct() }), ("take", { $0.take(99) }), ("takeLast", { $0.takeLast(2) }),
        ("takeWhile", { $0.takeWhile(pred { _ in true }) }), ("takeUntil", { $0.takeUntil(other()) }), ("skip", { $0.skip(0) }),
        ("skipWhile", { $0.skipWhile(pred { _ in false }) }), ("skipUntil", { $0.skipUntil(.just(0)) }),
        ("elementAt", { $0.elementAt(99) }), ("first", { $0.first(pred { _ in false }) }), ("last", { $0.last() }),
        ("single", { $0.single(pred { _ in false }) }), ("ignoreElements", { $0.ignoreElements() }),
        ("sample", { $0.sample(other()) }), ("debounce", { $0.debounce(ms1) }), ("throttle", { $0.throttle(ms1) }),
        ("throttle(latest: false)", { $0.throttle(ms1, latest: false) }), ("merge(with)", { .merge([$0, other()]) }),
        ("concat(with)", { .concat([$0, other()]) }), ("zip", { .zip([$0, .interval(ms1)]) }),
        ("combineLatest", { .combineLatest([$0, .just(0)]) }), ("withLatestFrom", { $0.withLatestFrom([.just(0)]) }),
        ("startWith", { $0.startWith([0]) }), ("endWith", { $0.endWith([0]) }), ("amb", { .amb([$0, other()]) }),
        ("flatMap", { $0.flatMap(fn { .stream(.just($0)) }) }), ("concatMap", { $0.concatMap(fn { .stream(.just($0)) }) }),
        ("flatMapLatest", { $0.flatMapLatest(fn { .stream(.just($0)) }) }),
        ("flatMapFirst", { $0.flatMapFirst(fn { .stream(.just($0)) }) }), ("timeout", { $0.timeout(.seconds(9)) }),
        ("delay", { $0.delay(ms1) }), ("delaySubscription", { $0.delaySubscription(.zero) }), ("share", { $0.share() }),
        ("share(replay:)", { $0.share(replay: 2) }), ("publish.refCount", { $0.publish().refCount() }),
        ("do", { $0.do(onNext: fn { $0 }) }), ("print", { $0.print("p") { _ in } }), ("reduce", { $0.reduce(0, fn2 { a, _ in a }) }),
        ("count", { $0.count() }), ("toArray", { $0.toArray() }), ("min", { $0.min() }), ("max", { $0.max() }),
        ("contains", { $0.contains(99) }), ("allSatisfy", { $0.allSatisfy(pred { _ in true }) }),
        ("defaultIfEmpty", { $0.defaultIfEmpty(0) }), ("retry(0)", { $0.retry(0) }),
    ] }

    @Test(arguments: unary.map(\.0))
    func errorsReachDownstream(_ name: String) {
        let apply = Self.unary.first { $0.0 == name }!.1
        let run = MarbleRun()
        let source = try! ColdStream("-1-1-#", error: "boom")
        let recorder = run.observe(apply(source), subscription: SubscriptionLog(subscribed: .zero, unsubscribed: nil))
        #expect(run.run().isEmpty)
        guard case .error(let e)? = recorder.events.last?.event else {
            Issue.record("\(name): expected an error last, got \(recorder.events)")
            return
        }
        #expect(e.message == "boom", "\(name)")
        #expect(recorder.events.last!.time == .milliseconds(Int64(5)) || name == "delaySubscription", "\(name)")
        #expect(source.subscriptions(on: run.scheduler).allSatisfy { $0.unsubscribed != nil }, "\(name)")
    }

    @Test(arguments: unary.map(\.0))
    func disposalEndsTheSourceSubscription(_ name: String) {
        let apply = Self.unary.first { $0.0 == name }!.1
        let run = MarbleRun()
        let source = try! ColdStream("-1-2-3-4-5-6-7-8|")
        _ = run.observe(apply(source), subscription: SubscriptionLog(subscribed: .zero, unsubscribed: .milliseconds(Int64(4))))
        #expect(run.run().isEmpty)
        let logs = source.subscriptions(on: run.scheduler)
        #expect(logs.count == 1, "\(name): \(logs)")
        #expect(logs.first?.unsubscribed == .milliseconds(Int64(4)), "\(name): \(logs)")
    }
}
