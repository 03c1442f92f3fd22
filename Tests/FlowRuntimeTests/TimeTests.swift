import FlowMarbles
import Testing

@testable import FlowRuntime

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
