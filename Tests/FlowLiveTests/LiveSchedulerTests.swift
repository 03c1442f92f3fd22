import Foundation
import FlowLive
import Testing

@testable import FlowRuntime

func values(_ events: [Event]) -> [Value] {
    events.compactMap { if case .next(let v) = $0 { v } else { nil } }
}

/// The live scheduler on a swift-nio event loop: checked with bounds, never exact times.
@Suite struct LiveSchedulerTests {
    final class Box: @unchecked Sendable {
        // Written on the loop thread, read after the run (which joins it).
        var events: [Event] = []
        var times: [TimeSpan] = []
        var thread: String = ""
    }

    @Test func timeOperatorsRunOnTheWallClockAndTheRunEndsWhenIdle() {
        let box = Box()
        let started = Date()
        LiveScheduler.run { scheduler, _ in
            Observable.interval(.milliseconds(Int64(10))).take(3).delay(.milliseconds(Int64(5)))
                .subscribe(on: scheduler, onNext: { box.events.append(.next($0)); box.times.append(scheduler.now) },
                           onCompleted: { box.events.append(.completed) })
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(box.events.map(\.description) == ["next(0)", "next(1)", "next(2)", "completed"])
        #expect(box.times.count == 3)
        #expect(box.times[0] >= .milliseconds(Int64(15)))
        #expect(box.times[2] >= .milliseconds(Int64(35)))
        #expect(zip(box.times, box.times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(elapsed >= 0.035 && elapsed < 30)
    }

    @Test func disposedTimersDoNotKeepTheRunAlive() {
        let started = Date()
        LiveScheduler.run { scheduler, _ in
            let subscription = Observable.timer(.seconds(30)).subscribe(on: scheduler)
            scheduler.schedule(after: .milliseconds(Int64(5))) { subscription.dispose() }
        }
        #expect(Date().timeIntervalSince(started) < 25)
    }

    @Test func workPostedFromAnotherThreadHopsOntoTheLoop() {
        let box = Box()
        LiveScheduler.run { scheduler, _ in
            let subject = PublishSubject()
            subject.subscribe(on: scheduler, onNext: { box.events.append(.next($0)) }, onCompleted: {
                box.events.append(.completed)
            })
            let hold = scheduler.hold()
            let deliver = scheduler.makeCallback { (n: Int) in
                subject.send(.int(n))
                if n == 3 {
                    subject.complete()
                    hold.dispose()
                }
            }
            Thread.detachNewThread {
                for n in 1...3 {
                    usleep(2000)
                    deliver(n)
                }
            }
        }
        #expect(box.events.map(\.description) == ["next(1)", "next(2)", "next(3)", "completed"])
    }

    @Test func debounceAndThrottleBehaveAsInVirtualTime() {
        let box = Box()
        LiveScheduler.run { scheduler, _ in
            let subject = PublishSubject()
            subject.debounce(.milliseconds(Int64(30))).subscribe(on: scheduler, onNext: { box.events.append(.next($0)) })
            for (i, at) in [0, 5, 10, 80].enumerated() {
                scheduler.schedule(after: .milliseconds(Int64(at))) { subject.send(.int(i)) }
            }
            scheduler.schedule(after: .milliseconds(Int64(150))) { subject.complete() }
        }
        #expect(values(box.events) == [2, 3])
    }
}

extension LiveSchedulerTests {
    @Test func throttleSampleAndTimeoutOnTheWallClock() {
        let box = Box()
        final class Results: @unchecked Sendable {
            // Written on the loop thread; read after the run has joined it.
            var throttled: [Value] = []
            var sampled: [Value] = []
            var timedOut: [String] = []
        }
        let results = Results()
        LiveScheduler.run { scheduler, _ in
            let ticks = Observable.interval(.milliseconds(Int64(10))).take(10)
            ticks.throttle(.milliseconds(Int64(35)), latest: false).subscribe(on: scheduler, onNext: { results.throttled.append($0) })
            ticks.sample(.interval(.milliseconds(Int64(45))).take(2)).subscribe(on: scheduler, onNext: { results.sampled.append($0) })
            Observable.never().timeout(.milliseconds(Int64(20))).subscribe(
                on: scheduler, onError: { results.timedOut.append($0.message) })
            _ = box
        }
        // Every 10 ms for 100 ms: throttling by 35 ms keeps about one in four,
        // in order; sampling every 45 ms sees two values; the timeout fires.
        #expect(results.throttled.first == 0)
        #expect((2...4).contains(results.throttled.count), "\(results.throttled)")
        #expect(results.throttled == results.throttled.sorted { (try? $0.compare(to: $1)) ?? 0 < 0 })
        #expect(results.sampled.count == 2, "\(results.sampled)")
        #expect(results.timedOut == ["timeout"])
    }
}
