import Foundation
import Testing

@testable import FlowRuntime

@Suite struct VirtualSchedulerTests {
    @Test func tiesRunFirstInFirstOut() {
        let scheduler = VirtualScheduler()
        var order: [Int] = []
        for i in 0..<5 { scheduler.schedule(at: .milliseconds(Int64(2))) { order.append(i) } }
        scheduler.schedule(at: .milliseconds(Int64(1))) { order.append(-1) }
        #expect(scheduler.run() == .idle)
        #expect(order == [-1, 0, 1, 2, 3, 4])
        #expect(scheduler.now == .milliseconds(Int64(2)))
    }

    @Test func cancelledWorkDoesNotRunAndDoesNotCountAsPending() {
        let scheduler = VirtualScheduler()
        var ran = false
        let task = scheduler.schedule(after: .milliseconds(Int64(3))) { ran = true }
        #expect(scheduler.hasPendingWork)
        task.dispose()
        #expect(!scheduler.hasPendingWork)
        scheduler.run()
        #expect(!ran)
    }

    @Test func periodicWorkDoesNotDrift() {
        let scheduler = VirtualScheduler()
        var times: [Int64] = []
        let task = scheduler.schedulePeriodic(first: .milliseconds(Int64(5)), period: .milliseconds(Int64(10))) {
            times.append(scheduler.now.frames)
        }
        scheduler.advance(to: .milliseconds(Int64(40)))
        task.dispose()
        #expect(times == [5, 15, 25, 35])
        #expect(scheduler.run() == .idle)
    }

    @Test func advanceRunsDueWorkAndMovesTheClock() {
        let scheduler = VirtualScheduler()
        var ran: [Int] = []
        scheduler.schedule(at: .milliseconds(Int64(3))) { ran.append(3) }
        scheduler.schedule(at: .milliseconds(Int64(8))) { ran.append(8) }
        scheduler.advance(to: .milliseconds(Int64(5)))
        #expect(ran == [3])
        #expect(scheduler.now == .milliseconds(Int64(5)))
        scheduler.advance(by: .milliseconds(Int64(3)))
        #expect(ran == [3, 8])
    }

    @Test func aRunThatNeverGoesIdleStopsAtItsLimits() {
        let scheduler = VirtualScheduler()
        Observable.interval(.milliseconds(Int64(1))).subscribe(on: scheduler)
        #expect(scheduler.run(timeLimit: .seconds(1)) == .limitReached)
        #expect(scheduler.now <= .seconds(1))
        let other = VirtualScheduler()
        Observable.interval(.milliseconds(Int64(1))).subscribe(on: other)
        #expect(other.run(actionLimit: 100) == .limitReached)
        #expect(other.executedActions == 100)
    }

    @Test func workScheduledInThePastRunsNowAfterQueuedWork() {
        let scheduler = VirtualScheduler()
        var order: [String] = []
        scheduler.schedule(at: .milliseconds(Int64(2))) {
            scheduler.schedule(at: .zero) { order.append("late") }
            order.append("first")
        }
        scheduler.schedule(at: .milliseconds(Int64(2))) { order.append("second") }
        scheduler.run()
        #expect(order == ["first", "second", "late"])
    }
}
