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

@Suite struct ErrorHandlingTests {
    @Test func catchSwitchesToTheHandlersStream() {
        marbles { m in
            let fallback = m.cold("-b|")
            m.expect(m.cold("-a#", error: "x").catch(fn { e in e == "x" ? .stream(fallback) : .stream(.empty()) }), "-a-b|")
            m.subscriptions(fallback, "--^-!")
            m.expect(m.cold("-a#").catch(fn { _ in throw FlowError("again") }), "-a#", error: "again")
            m.expect(m.cold("-a|").catch(fn { _ in .stream(.just(0)) }), "-a|")
        }
    }

    @Test func catchAndReturn() {
        marbles { m in
            m.expect(m.cold("-a#").catchAndReturn(9), "-a(9|)")
        }
    }

    @Test func retryResubscribesAtMostNTimes() {
        marbles { m in
            let e1 = m.cold("-a#")
            m.expect(e1.retry(2), "-a-a-a#")
            m.subscriptions(e1, "^-!", "--^-!", "----^-!")
            m.expect(m.cold("-a|").retry(3), "-a|")
        }
    }

    @Test func retryOfASynchronousFailureDoesNotRecurse() {
        let events = withLargeStack(size: 1 << 20) { collect(Observable.error(FlowError("x")).retry(200_000)) }
        #expect(events.map(\.description) == ["error(\"x\")"])
    }

    @Test func contractTimeoutExample() {
        marbles { m in
            let e1 = m.cold("-a--b|", ["a": 1, "b": 2])
            m.expect(e1.map(times(10)), "-a--b|", ["a": 10, "b": 20])
            m.expect(e1.timeout(.milliseconds(Int64(2))), "-a-#", ["a": 1], error: "timeout")
            m.subscriptions(e1, "^----!", "^--!")
        }
    }

    @Test func timeoutVariants() {
        marbles { m in
            m.expect(m.cold("-a----b|").timeout(.milliseconds(Int64(3))), "-a--#")
            m.expect(m.cold("-a-b-c|").timeout(.milliseconds(Int64(4)), resetOnValue: false), "-a-b#")
            m.expect(m.cold("--a").timeout(.milliseconds(Int64(1)), other: m.cold("x|")), "-x|")
            m.expect(m.cold("-a|").timeout(.milliseconds(Int64(5))), "-a|")
        }
    }
}

@Suite struct TimeTests {
    @Test func delayShiftsValuesAndCompletionButNotErrors() {
        marbles { m in
            m.expect(m.cold("-a-b|").delay(.milliseconds(Int64(2))), "---a-b|")
            m.expect(m.cold("-a-#").delay(.milliseconds(Int64(5))), "---#")
            let e1 = m.cold("-a-b|")
            m.expect(e1.delay(.milliseconds(Int64(2))), "---a", unsubscribe: "----!")
            m.subscriptions(e1, "^---!")
        }
    }

    @Test func delaySubscription() {
        marbles { m in
            let e1 = m.cold("a|")
            m.expect(e1.delaySubscription(.milliseconds(Int64(2))), "--a|")
            m.subscriptions(e1, "--^!")
            let e2 = m.cold("a|")
            m.expect(e2.delaySubscription(.milliseconds(Int64(5))), "", unsubscribe: "--!")
            m.subscriptions(e2)
        }
    }

    @Test func contractHotExample() {
        marbles { m in
            let source = m.hot("--a--b--^--c--d--|")
            m.expect(source, "---c", unsubscribe: "----!")
            m.expect(source.delay(.milliseconds(Int64(3))), "------c--d--|")
        }
    }
}
