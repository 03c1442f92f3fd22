import FlowMarbles
import Testing

@testable import FlowRuntime

/// Deep graphs, where every peer library crashes (see shared/peers.md).
/// Each runs on a thread with an ordinary 8 MiB stack.
@Suite struct DepthTests {
    static let depth = 100_000
    static let ordinaryStack = 8 << 20

    @Test func aHundredThousandChainedMaps() {
        let result = withLargeStack(size: Self.ordinaryStack) { () -> [Event] in
            var stream = Observable.range(start: 0, count: 3)
            for _ in 0..<Self.depth { stream = stream.map(plus(1)) }
            let events = collect(stream)
            stream = .empty()
            return events
        }
        #expect(values(result) == [.int(Self.depth), .int(Self.depth + 1), .int(Self.depth + 2)])
        #expect(result.last?.description == "completed")
    }

    @Test func aHundredThousandChainedMapsCanBeDisposedMidway() {
        let count = withLargeStack(size: Self.ordinaryStack) { () -> Int in
            var stream = Observable.interval(.milliseconds(Int64(1)))
            for _ in 0..<Self.depth { stream = stream.map(plus(1)) }
            let scheduler = VirtualScheduler()
            var seen = 0
            let subscription = stream.subscribe(on: scheduler, onNext: { _ in seen += 1 })
            scheduler.advance(to: .milliseconds(Int64(5)))
            subscription.dispose()
            #expect(!scheduler.hasPendingWork)
            return seen
        }
        #expect(count == 5)
    }

    @Test func concatNestedAHundredThousandDeepOnTheLeft() {
        let result = withLargeStack(size: Self.ordinaryStack) { () -> [Event] in
            var stream = Observable.empty()
            for i in 0..<Self.depth { stream = .concat([stream, .just(.int(i))]) }
            return collect(stream.count())
        }
        #expect(values(result) == [.int(Self.depth)])
    }

    @Test func concatNestedAHundredThousandDeepOnTheRight() {
        let result = withLargeStack(size: Self.ordinaryStack) { () -> [Event] in
            var stream = Observable.empty()
            for i in 0..<Self.depth { stream = .concat([.just(.int(i)), stream]) }
            return collect(stream.reduce(0, add))
        }
        #expect(values(result) == [.int((0..<Self.depth).reduce(0, +))])
    }

    @Test func concatOfManyTimedStreams() {
        let result = withLargeStack(size: Self.ordinaryStack) { () -> [Event] in
            var stream = Observable.empty()
            for _ in 0..<10_000 { stream = .concat([stream, .timer(.milliseconds(Int64(1)))]) }
            return collect(stream.count())
        }
        #expect(values(result) == [10_000])
    }

    @Test func tooDeepForTheStackIsAStreamErrorNotACrash() {
        // Nested non-fusable operators recurse when subscribed; past what
        // the stack allows, subscription fails with a clear error.
        let result = withLargeStack(size: 1 << 20) { () -> [Event] in
            var stream = Observable.just(1)
            for _ in 0..<Self.depth { stream = stream.materialize().dematerialize() }
            return collect(stream)
        }
        guard case .error(let error)? = result.last else {
            Issue.record("expected an error, got \(result)")
            return
        }
        #expect(error.message.contains("too deep"))
    }
}
