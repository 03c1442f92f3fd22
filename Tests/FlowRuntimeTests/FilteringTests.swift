import FlowMarbles
import Testing

@testable import FlowRuntime

private func ms(_ n: Int64) -> TimeSpan { .milliseconds(n) }
private func lessThan(_ k: Int) -> Function { pred { $0.i < k } }

@Suite struct FilteringTests {
    @Test func filter() {
        marbles { m in
            let e1 = m.cold("-1-2-3-4|")
            m.expect(e1.filter(pred { $0.i % 2 == 0 }), "---2---4|")
            m.expect(m.cold("-1-#").filter(pred { _ in false }), "---#")
            m.expect(e1.filter(fn { $0 }), "-#", error: "closure 'closure' must return a Bool, returned Int 1")
        }
    }

    @Test func distinctUntilChangedAndDistinct() {
        marbles { m in
            let e1 = m.cold("-a-a-b-a|")
            m.expect(e1.distinctUntilChanged(), "-a---b-a|")
            m.expect(e1.distinct(), "-a---b--|")
            m.expect(m.cold("-1-3-2-4|").distinctUntilChanged(key: fn { .int($0.i % 2) }), "-1---2--|")
            m.expect(m.cold("-1-3-2-4|").distinct(key: fn { .int($0.i % 2) }), "-1---2--|")
        }
    }

    @Test func takeCancelsItsSource() {
        marbles { m in
            let e1 = m.cold("-a-b-c|")
            m.expect(e1.take(2), "-a-(b|)")
            m.subscriptions(e1, "^--!")
            let e2 = m.cold("-a-b|")
            m.expect(e2.take(0), "|")
            m.subscriptions(e2)
            m.expect(m.cold("-a-#").take(5), "-a-#")
        }
    }

    @Test func fusedStagesAfterTakeStillSeeItsLastValue() {
        marbles { m in
            m.expect(m.cold("-1-2-3|").take(2).map(times(10)), "-a-(b|)", ["a": 10, "b": 20])
            m.expect(m.cold("-1-2-3|").take(2).filter(pred { $0.i > 5 }), "---|")
            m.expect(m.cold("-1-2-3|").takeWhile(pred { $0.i < 2 }, inclusive: true).map(times(10)), "-a-(b|)", ["a": 10, "b": 20])
            m.expect(m.cold("-1-2-3|").take(2).take(1).map(times(10)), "-(a|)", ["a": 10])
        }
    }

    @Test func takeLastTakeWhileTakeUntil() {
        marbles { m in
            m.expect(m.cold("-a-b-c|").takeLast(2), "------(bc|)")
            let e1 = m.cold("-1-2-3-4|")
            m.expect(e1.takeWhile(lessThan(3)), "-1-2-|")
            m.expect(e1.takeWhile(lessThan(3), inclusive: true), "-1-2-(3|)")
            m.subscriptions(e1, "^----!", "^----!")
            let source = m.cold("-a-b-c-d|")
            let stop = m.cold("----x")
            m.expect(source.takeUntil(stop), "-a-b|")
            m.subscriptions(source, "^---!")
            m.subscriptions(stop, "^---!")
            m.expect(m.cold("-a-b|").takeUntil(m.cold("-#")), "-#")
        }
    }

    @Test func skipSkipWhileSkipUntil() {
        marbles { m in
            m.expect(m.cold("-a-b-c|").skip(2), "-----c|")
            m.expect(m.cold("-1-2-1|").skipWhile(lessThan(2)), "---2-1|")
            let gate = m.cold("--x")
            m.expect(m.cold("-a-b-c-d|").skipUntil(gate), "---b-c-d|")
            m.subscriptions(gate, "^-!")
            m.expect(m.cold("-a-b|").skipUntil(m.cold("-|")), "----|")
        }
    }

    @Test func elementAtFirstLastSingle() {
        marbles { m in
            m.expect(m.cold("-a-b-c|").elementAt(1), "---(b|)")
            m.expect(m.cold("-a-b-c|").elementAt(5), "------#", error: "no elements")
            m.expect(m.cold("--a-b|").first(), "--(a|)")
            m.expect(m.cold("-1-2-3|").first(pred { $0.i > 1 }), "---(2|)")
            m.expect(m.cold("---|").first(), "---#", error: "no elements")
            m.expect(m.cold("-a-b-|").last(), "-----(b|)")
            m.expect(m.cold("-|").last(), "-#", error: "no elements")
            m.expect(m.cold("-a--|").single(), "----(a|)")
            m.expect(m.cold("-a-b|").single(), "---#", error: "more than one element")
            m.expect(m.cold("--|").single(), "--#", error: "no elements")
            m.expect(m.cold("-a-#").last(), "---#")
        }
    }

    @Test func ignoreElements() {
        marbles { m in
            m.expect(m.cold("-a-b|").ignoreElements(), "----|")
            m.expect(m.cold("-a-#").ignoreElements(), "---#")
        }
    }

    @Test func sampleEmitsTheLatestNewValueOnEachTrigger() {
        marbles { m in
            let trigger = m.cold("--x---x-x-x|")
            m.expect(m.cold("-a-b---c-|").sample(trigger), "--a---b-c|")
            m.subscriptions(trigger, "^--------!")
            m.expect(m.cold("-a-b----|").sample(m.cold("--x-#")), "--a-#")
        }
    }

    @Test func debounce() {
        marbles { m in
            m.expect(m.cold("-a-b----c|").debounce(ms(2)), "-----b---(c|)")
            m.expect(m.cold("-a#").debounce(ms(2)), "--#")
            let e1 = m.cold("-a-b----c|")
            m.expect(e1.debounce(ms(2)), "-----b", unsubscribe: "-------!")
            m.subscriptions(e1, "^------!")
        }
    }

    @Test func throttleWithoutLatestDropsValuesInTheWindow() {
        marbles { m in
            m.expect(m.cold("-a-b-c-d|").throttle(ms(3), latest: false), "-a---c--|")
            // A value at exactly t + d opens a new window.
            m.expect(m.cold("-a--b|").throttle(ms(3), latest: false), "-a--b|")
        }
    }

    @Test func throttleWithLatestEmitsTheLatestAtEachWindowEnd() {
        marbles { m in
            m.expect(m.cold("-a-b-c-d|").throttle(ms(3)), "-a--b--c--(d|)")
            // Completion waits for the window to emit its pending value.
            m.expect(m.cold("-a-b|").throttle(ms(5)), "-a----(b|)")
            // Nothing pending: completion passes at once.
            m.expect(m.cold("-a|").throttle(ms(5)), "-a|")
            m.expect(m.cold("-a-b#").throttle(ms(5)), "-a--#")
        }
    }
}
