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

@Suite struct SubjectTests {
    @Test func publishSubjectForwardsToCurrentObservers() {
        let scheduler = VirtualScheduler()
        let subject = PublishSubject()
        var seen: [Value] = []
        subject.send(0)
        let sub = subject.subscribe(on: scheduler, onNext: { seen.append($0) })
        subject.send(1)
        subject.send(2)
        sub.dispose()
        subject.send(3)
        #expect(seen == [1, 2])
    }

    @Test func terminatedSubjectTellsLateSubscribers() {
        let scheduler = VirtualScheduler()
        let subject = PublishSubject()
        subject.complete()
        subject.send(1)
        var completed = false
        subject.subscribe(on: scheduler, onCompleted: { completed = true })
        #expect(completed)
    }

    @Test func behaviorSubjectReplaysItsCurrentValue() {
        let scheduler = VirtualScheduler()
        let subject = BehaviorSubject(0)
        var seen: [Value] = []
        subject.send(1)
        subject.subscribe(on: scheduler, onNext: { seen.append($0) })
        subject.send(2)
        #expect(seen == [1, 2])
        #expect(subject.value == 2)
    }

    @Test func replaySubjectReplaysItsBufferEvenAfterCompletion() {
        let scheduler = VirtualScheduler()
        let subject = ReplaySubject(bufferSize: 2)
        for i in 1...3 { subject.send(.int(i)) }
        subject.complete()
        var events: [Event] = []
        subject.subscribe(on: scheduler, onNext: { events.append(.next($0)) }, onCompleted: { events.append(.completed) })
        #expect(events.map(\.description) == ["next(2)", "next(3)", "completed"])
    }

    @Test func deliveryIsNeverReentrant() {
        // An observer that sends from inside its callback must not make the
        // second observer see events out of order.
        let scheduler = VirtualScheduler()
        let subject = PublishSubject()
        var first: [Value] = []
        var second: [Value] = []
        subject.subscribe(on: scheduler, onNext: { v in
            first.append(v)
            if v == 1 { subject.send(2) }
        })
        subject.subscribe(on: scheduler, onNext: { second.append($0) })
        subject.send(1)
        #expect(first == [1, 2])
        #expect(second == [1, 2])
    }
}
