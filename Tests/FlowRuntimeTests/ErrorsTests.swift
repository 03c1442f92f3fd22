import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct ErrorsTests {
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
