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

@Suite struct UtilityTests {
    @Test func doRunsSideEffectsInOrder() {
        var log: [String] = []
        let hook = { (name: String) in Function.variadic { args in log.append(name + args.map(\.description).joined()); return .null } }
        let stream = Observable.from([1, 2]).do(
            onNext: hook("next"), onError: hook("error"), onCompleted: hook("completed"),
            onSubscribe: hook("subscribe"), onDispose: hook("dispose"))
        _ = collect(stream)
        #expect(log == ["subscribe", "next1", "next2", "completed", "dispose"])
    }

    @Test func doHookErrorsBecomeStreamErrors() {
        marbles { m in
            m.expect(m.cold("-a-b|").do(onNext: fn { v in if v == "b" { throw FlowError("bad b") }; return .null }), "-a-#", error: "bad b")
        }
    }

    @Test func printUsesCombinesFormat() {
        var lines: [String] = []
        _ = collect(Observable.from(["a", 1]).print("x") { lines.append($0) })
        #expect(lines == [
            "x: receive subscription: (from)", "x: request unlimited", "x: receive value: (a)", "x: receive value: (1)",
            "x: receive finished",
        ])
        lines = []
        _ = collect(Observable.error(FlowError("boom")).print { lines.append($0) })
        #expect(lines.last == "receive error: (boom)")
        lines = []
        _ = collect(Observable.interval(.milliseconds(Int64(1))).print("t") { lines.append($0) }.take(1))
        #expect(lines.suffix(2) == ["t: receive value: (0)", "t: receive cancel"])
    }

    @Test func materializeAndDematerialize() {
        marbles { m in
            let e1 = m.cold("-a-#", error: "boom")
            m.expect(e1.materialize(), "-x-(y|)", ["x": .event(.next("a")), "y": .event(.error(FlowError("boom")))])
            m.expect(m.cold("-a|").materialize(), "-x(y|)", ["x": .event(.next("a")), "y": .event(.completed)])
            m.expect(e1.materialize().dematerialize(), "-a-#", error: "boom")
            m.expect(m.cold("-a|").dematerialize(), "-#")
        }
    }
}

@Suite struct AggregationTests {
    @Test func reduceCountToArraySum() {
        marbles { m in
            let e1 = m.cold("-1-2-3|")
            m.expect(e1.reduce(0, add), "------(6|)")
            m.expect(e1.reduce(nil, add), "------(6|)")
            m.expect(m.cold("--|").reduce(7, add), "--(7|)")
            m.expect(m.cold("--|").reduce(nil, add), "--#", error: "no elements")
            m.expect(e1.count(), "------(3|)")
            m.expect(e1.count(pred { $0.i > 1 }), "------(2|)")
            m.expect(e1.toArray(), "------(x|)", ["x": [1, 2, 3]])
            m.expect(e1.sum(), "------(6|)")
            m.expect(m.cold("-1-#").sum(), "---#")
        }
    }

    @Test func minMax() {
        marbles { m in
            let e1 = m.cold("-3-1-2|")
            m.expect(e1.min(), "------(1|)")
            m.expect(e1.max(), "------(3|)")
            m.expect(m.cold("-|").min(), "-|")
            m.expect(m.cold("-1-a|").max(), "---#")
        }
    }

    @Test func predicatesDecideAsSoonAsTheyCan() {
        marbles { m in
            let e1 = m.cold("-1-2-3|")
            m.expect(e1.isEmpty(), "-(f|)", ["f": false])
            m.expect(m.cold("--|").isEmpty(), "--(t|)", ["t": true])
            m.expect(e1.contains(2), "---(t|)", ["t": true])
            m.expect(e1.contains(9), "------(f|)", ["f": false])
            m.expect(e1.allSatisfy(pred { $0.i < 2 }), "---(f|)", ["f": false])
            m.expect(e1.allSatisfy(pred { $0.i < 9 }), "------(t|)", ["t": true])
            m.expect(m.cold("--|").defaultIfEmpty(0), "--(0|)")
            m.expect(e1.defaultIfEmpty(0), "-1-2-3|")
            m.subscriptions(e1, "^!", "^--!", "^-----!", "^--!", "^-----!", "^-----!")
        }
    }
}
