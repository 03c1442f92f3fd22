import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct CreationTests {
    @Test func justOfFromRange() {
        marbles { m in
            m.expect(.just(1), "(1|)")
            m.expect(.from([1, 2, 3]), "(123|)")
            m.expect(.range(start: 1, count: 3), "(123|)")
            m.expect(.range(start: 5, count: 0), "|")
            m.expect(.range(start: 0, count: -1), "#")
        }
    }

    @Test func emptyNeverError() {
        marbles { m in
            m.expect(.empty(), "|")
            m.expect(.never(), "")
            m.expect(.error(FlowError("boom")), "#", error: "boom")
        }
    }

    @Test func synchronousSourcesStopWhenCancelled() {
        // take(3) must stop the loop of a million-element range early.
        var produced = 0
        let counted = Observable.range(start: 0, count: 1_000_000).do(onNext: fn { v in produced += 1; return v })
        #expect(values(collect(counted.take(3))) == [0, 1, 2])
        #expect(produced == 3)

        // Whatever observes the range (a fused sink, an inner observer of
        // flatMap, a plain observer), stopping it stops the loop: a range
        // that ran on would fail after a million values in virtual time.
        let endless = Observable.range(start: 0, count: Int.max - 1)
        #expect(values(collect(endless.map(fn { $0 }).take(2))) == [0, 1])
        #expect(values(collect(Observable.just(.int(0)).flatMap(fn { _ in .stream(endless) }).take(2))) == [0, 1])
        let plain = StopsAfter(2)
        endless.subscribe(plain, on: VirtualScheduler())
        #expect(plain.seen == [0, 1] && !plain.completed)
        // A just whose observer stops at its value does not complete it.
        let once = StopsAfter(1)
        Observable.just(1).subscribe(once, on: VirtualScheduler())
        #expect(once.seen == [1] && !once.completed)
    }

    /// An observer of its own (not one of the runtime's sinks) that
    /// cancels its subscription after a number of values.
    private final class StopsAfter: Observer {
        let limit: Int
        var seen: [Value] = []
        var completed = false
        var subscription: Disposable?
        init(_ limit: Int) { self.limit = limit }
        func onSubscribe(_ subscription: Disposable) { self.subscription = subscription }
        func onNext(_ value: Value) {
            seen.append(value)
            if seen.count == limit { subscription?.dispose() }
        }
        func onError(_ error: FlowError) {}
        func onCompleted() { completed = true }
    }

    @Test func deferredCallsItsFactoryPerSubscription() {
        var calls = 0
        let stream = Observable.deferred(.variadic { _ in
            calls += 1
            return .stream(.just(.int(calls)))
        })
        marbles { m in
            m.expect(stream, "(1|)")
            m.expect(stream, "(2|)")
        }
        let failing = Observable.deferred(.variadic { _ in throw FlowError("no") })
        marbles { m in m.expect(failing, "#", error: "no") }
    }

    @Test func intervalAndTimer() {
        marbles { m in
            m.expect(.interval(.milliseconds(Int64(2))), "--0-1-2", unsubscribe: "-------!")
            m.expect(Observable.interval(.milliseconds(Int64(2))).take(3), "--0-1-(2|)")
            m.expect(.timer(.milliseconds(Int64(3))), "---(0|)")
            m.expect(Observable.timer(.milliseconds(Int64(2)), period: .milliseconds(Int64(3))).take(3), "--0--1--(2|)")
        }
    }

    @Test func intervalStopsOnDisposal() {
        marbles { m in
            m.expect(.interval(.milliseconds(Int64(1))), "-01", unsubscribe: "---!")
        }
    }
}
