import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct TracingTests {
    /// Runs `stream` on a virtual scheduler with a tracer and returns the
    /// lanes of its trace.
    func trace(_ stream: Observable, subscriptions: Bool = false) -> [String] {
        let scheduler = VirtualScheduler()
        scheduler.tracer = Tracer()
        scheduler.tracer!.trace(stream)
        stream.subscribe(on: scheduler)
        scheduler.run()
        return TraceDiagram.lanes(from: scheduler.tracer!, subscriptions: subscriptions).flatMap { lanes in
            LaneDiagram(lanes: lanes).render().lines.dropFirst().map { String($0) }
        }
    }

    @Test func everyStageOfAFusedChainGetsALane() throws {
        let source = try ColdStream("-1-2-3-4|")
        source.label = "source"
        let mapped = source.map(times(10))
        mapped.label = "map"
        let filtered = mapped.filter(pred { $0.i > 15 })
        filtered.label = "filter"
        #expect(trace(filtered) == [
            "source  -1-2-3-4|",
            "map     -a-b-c-d|",
            "filter  ---b-c-d|",
            "legend  a = 10, b = 20, c = 30, d = 40",
        ])
    }

    @Test func innerStreamsStartWhereSubscribedAndShowTheirCancellation() throws {
        let source = try ColdStream("-a-b---|")
        source.label = "source"
        let inner = try ColdStream("-x-y|")
        inner.label = "inner"
        let latest = source.flatMapLatest(fn { _ in .stream(inner) })
        latest.label = "flatMapLatest"
        #expect(trace(latest, subscriptions: true) == [
            "source          -a-b---|",
            "  subscription  ^------!",
            "flatMapLatest   --x-x-y|",
            "  ↳ for a        -x!",
            "  ↳ for b          -x-y|",
        ])
    }

    @Test func withoutATracerNothingIsRecordedAndFusionStays() throws {
        let scheduler = VirtualScheduler()
        #expect(scheduler.tracer == nil)
        var seen: [Value] = []
        Observable.range(start: 1, count: 2).map(times(2)).subscribe(on: scheduler, onNext: { seen.append($0) })
        scheduler.run()
        #expect(seen == [2, 4])
    }

    @Test func theTraceOperatorAsksForATrace() throws {
        let scheduler = VirtualScheduler()
        let chain = Observable.range(start: 1, count: 2).map(times(2))
        chain.trace().subscribe(on: scheduler)
        scheduler.run()
        #expect(scheduler.tracer?.chains.first === chain)
        #expect(scheduler.tracer?.records.count == 2)
    }
}
