import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct HigherOrderTests {
    @Test func flatMapMergesInnerStreams() {
        marbles { m in
            let inner = m.cold("-x-y|")
            m.expect(m.cold("-a--b---|").flatMap(fn { _ in .stream(inner) }), "--x-yx-y|")
            m.subscriptions(inner, "-^---!", "----^---!")
        }
    }

    @Test func flatMapWithMaxConcurrentQueuesInOrder() {
        marbles { m in
            let inner = m.cold("-x-y|")
            m.expect(m.cold("-a--b---|").flatMap(maxConcurrent: 1, fn { _ in .stream(inner) }), "--x-y-x-y|")
            m.subscriptions(inner, "-^---!", "-----^---!")
            let inner2 = m.cold("-x-y|")
            m.expect(m.cold("-a--b---|").concatMap(fn { _ in .stream(inner2) }), "--x-y-x-y|")
        }
    }

    @Test func flatMapLatestCancelsThePreviousInner() {
        marbles { m in
            let inner = m.cold("-x-y|")
            m.expect(m.cold("-a-b----|").flatMapLatest(fn { _ in .stream(inner) }), "--x-x-y-|")
            m.subscriptions(inner, "-^-!", "---^---!")
        }
    }

    @Test func flatMapFirstIgnoresValuesWhileAnInnerRuns() {
        marbles { m in
            let inner = m.cold("-x-y|")
            m.expect(m.cold("-a-b---c|").flatMapFirst(fn { _ in .stream(inner) }), "--x-y---x-y|")
            m.subscriptions(inner, "-^---!", "-------^---!")
        }
    }

    /// A `just` inner is delivered without being subscribed; the result
    /// must be what subscribing it gives, for every strategy, whether it
    /// would start at once or wait behind a running inner.
    @Test func justInnersBehaveAsSubscribedStreams() {
        marbles { m in
            let slow = m.cold("-s-t|")
            let pick = fn { v in v == .string("a") ? .stream(slow) : .stream(.just(v)) }
            // concatMap: `b` waits behind `a`'s inner; `c` comes as that
            // inner ends, and follows `b`.
            m.expect(m.cold("-a-b-c----|").concatMap(pick), "--s-t(bc)-|")
            // flatMap: `b` passes at once, beside `a`'s inner.
            m.expect(m.cold("-a-b------|").flatMap(pick), "--sbt-----|")
            // flatMap(maxConcurrent: 2): two slots, `b` and `c` pass at once.
            m.expect(m.cold("-a-b-c----|").flatMap(maxConcurrent: 2, pick), "--sbtc----|")
            // switchLatest: `b` cancels `a`'s inner.
            m.expect(m.cold("-a-b------|").flatMapLatest(pick), "--sb------|")
            m.subscriptions(slow, "-^---!", "-^---!", "-^---!", "-^-!")
            // flatMapFirst: `b` is dropped while `a`'s inner runs; `c` passes.
            let slow2 = m.cold("-s-t|")
            m.expect(m.cold("-a-b---c-|").flatMapFirst(fn { v in v == .string("a") ? .stream(slow2) : .stream(.just(v)) }), "--s-t--c-|")
        }
    }

    @Test func streamsOfStreams() {
        marbles { m in
            let s1 = m.cold("-1-2-3|")
            let s2 = m.cold("-4|")
            let outer = m.cold("-a--b---|", ["a": .stream(s1), "b": .stream(s2)])
            m.expect(outer.switchLatest(), "--1--4--|")
            m.expect(outer.merge(), "--1-243-|")
            m.expect(outer.merge(maxConcurrent: 1), "--1-2-3-4|")
            m.expect(outer.concat(), "--1-2-3-4|")
        }
    }

    @Test func innerErrorsEndEverythingAndDisposalReachesInners() {
        marbles { m in
            let inner = m.cold("-#")
            let source = m.cold("-a--b|")
            m.expect(source.flatMap(fn { _ in .stream(inner) }), "--#")
            m.subscriptions(source, "^-!")
            let longInner = m.cold("-x-x-x-x")
            m.expect(m.cold("-a").flatMap(fn { _ in .stream(longInner) }), "--x-x", unsubscribe: "-----!")
            m.subscriptions(longInner, "-^---!")
            m.expect(m.cold("-a").flatMap(fn { _ in 1 }), "-#", error: "expected a stream, got Int 1")
        }
    }
}
