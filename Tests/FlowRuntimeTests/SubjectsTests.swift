import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct SubjectsTests {
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
