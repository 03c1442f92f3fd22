import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct SharingTests {
    @Test func shareMakesOneUpstreamSubscription() {
        marbles { m in
            let source = m.cold("-a-b-c|")
            let shared = source.share()
            m.expect(shared, "-a-b-c|")
            m.expect(shared, "-----c|", subscription: "----^")
            m.subscriptions(source, "^-----!")
        }
    }

    @Test func shareReplayGivesLateSubscribersTheLatestValues() {
        marbles { m in
            let shared = m.cold("-a-b-c|").share(replay: 1)
            m.expect(shared, "-a-b-c|")
            m.expect(shared, "----bc|", subscription: "----^")
        }
    }

    @Test func shareReconnectsAfterTheCountDropsToZero() {
        marbles { m in
            let source = m.cold("-a-b|")
            let shared = source.share()
            m.expect(shared, "-a", unsubscribe: "--!")
            m.expect(shared, "----a-b|", subscription: "---^")
            m.subscriptions(source, "^-!", "---^---!")
        }
    }

    @Test func shareReconnectsAfterCompletion() {
        marbles { m in
            let source = m.cold("-a|")
            let shared = source.share()
            m.expect(shared, "-a|")
            m.expect(shared, "-----a|", subscription: "----^")
            m.subscriptions(source, "^-!", "----^-!")
        }
    }

    @Test func sharedStateIsPerRun() {
        // A stream described once and used by two runs gets a connection in each.
        let shared = Observable.range(start: 1, count: 2).share()
        #expect(values(collect(shared)) == [1, 2])
        #expect(values(collect(shared)) == [1, 2])
    }

    @Test func publishWaitsForConnect() {
        marbles { m in
            let source = m.cold("-a-b|")
            let published = source.publish()
            m.expect(published, "---a-b|")
            m.expect(published, "-----b|", subscription: "----^")
            m.scheduler.schedule(at: .milliseconds(Int64(2))) { [scheduler = m.scheduler] in published.connect(on: scheduler) }
            m.subscriptions(source, "--^---!")
        }
    }

    @Test func replayAndRefCount() {
        marbles { m in
            let source = m.cold("-a-b-c|")
            let replayed = source.replay(1).refCount()
            m.expect(replayed, "-a-b-c|")
            m.expect(replayed, "----bc|", subscription: "----^")
            m.subscriptions(source, "^-----!")
        }
    }

    @Test func refCountDisconnectsWhenTheLastSubscriberLeaves() {
        marbles { m in
            let source = m.cold("-a-b-c|")
            let counted = source.publish().refCount()
            m.expect(counted, "-a", unsubscribe: "--!")
            m.expect(counted, "-a-", unsubscribe: "---!")
            m.subscriptions(source, "^--!")
        }
    }
}
