import Testing

@testable import FlowRuntime

/// Demand (Core/Demand.swift): a consumer's "enough for now" reaches a
/// source that honours it through the operators that pass it on, and the
/// source reads no further than the chunk in hand until demand returns.
@Suite struct DemandTests {
    /// Emits 0..<count, `chunk` values per turn of the scheduler, as the
    /// file and database sources read, while its consumer wants more.
    final class PacedSource: Observable {
        let count: Int
        let chunk: Int
        /// How far it has read, and every change of demand it was told.
        var emitted = 0
        var demands: [Bool] = []

        init(count: Int, chunk: Int) {
            self.count = count
            self.chunk = chunk
            super.init(operatorName: "paced")
        }

        override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
            let reading = Reading(source: self, observer: observer, scheduler: scheduler)
            observer.onSubscribe(reading)
            reading.next()
        }

        final class Reading: Disposable, DemandControl {
            let source: PacedSource
            let observer: Observer
            let scheduler: Scheduler
            var wantsMore = true
            var waiting = false
            var done = false

            init(source: PacedSource, observer: Observer, scheduler: Scheduler) {
                self.source = source
                self.observer = observer
                self.scheduler = scheduler
            }

            func next() {
                guard !done else { return }
                let end = Swift.min(source.count, source.emitted + source.chunk)
                while source.emitted < end, !done {
                    source.emitted += 1
                    observer.onNext(.int(source.emitted - 1))
                }
                if source.emitted == source.count { done = true; return observer.onCompleted() }
                if wantsMore { scheduler.schedule(after: .zero) { [self] in next() } } else { waiting = true }
            }

            func demand(_ wantsMore: Bool) {
                source.demands.append(wantsMore)
                self.wantsMore = wantsMore
                if wantsMore, waiting {
                    waiting = false
                    scheduler.schedule(after: .zero) { [self] in next() }
                }
            }

            func dispose() { done = true }
        }
    }

    /// Says it has enough after `limit` values, and wants more again when
    /// told to, as a database sink does once its batch is committed.
    final class SlowConsumer: Observer {
        var values: [Value] = []
        var completed = false
        var subscription: Disposable?
        let limit: Int

        init(limit: Int) { self.limit = limit }

        func onSubscribe(_ subscription: Disposable) { self.subscription = subscription }
        func onNext(_ value: Value) {
            values.append(value)
            if values.count == limit { subscription?.passDemand(false) }
        }
        func onError(_ error: FlowError) {}
        func onCompleted() { completed = true }
        func wantMore() { subscription?.passDemand(true) }
    }

    private func settle(_ scheduler: VirtualScheduler) { scheduler.advance(by: .milliseconds(Int64(1))) }

    @Test(arguments: ["map", "filter", "compactMap", "scan", "take", "buffer(count:)", "map.filter.scan (fused)"])
    func demandPassesThroughOneInputOperators(_ chain: String) {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 1000, chunk: 10)
        let stream: Observable
        switch chain {
        case "map": stream = source.map(times(2))
        case "filter": stream = source.filter(pred { $0.i % 2 == 0 })
        case "compactMap": stream = source.compactMap(fn { $0.i % 3 == 0 ? .null : $0 })
        case "scan": stream = source.scan(.int(0), add)
        case "take": stream = source.take(900)
        case "buffer(count:)": stream = source.buffer(count: 3)
        default: stream = source.map(times(2)).filter(pred { $0.i % 4 == 0 }).scan(.int(0), add)
        }
        let consumer = SlowConsumer(limit: 2)
        stream.subscribe(consumer, on: scheduler)
        settle(scheduler)
        // Stopped within the chunk in hand, however many it dropped or grouped.
        #expect(source.demands == [false])
        #expect(source.emitted <= 20, "read \(source.emitted) values after demand stopped")
        let before = source.emitted
        settle(scheduler)
        #expect(source.emitted == before, "a source told to stop read on")
        consumer.wantMore()
        settle(scheduler)
        #expect(source.demands == [false, true])
        #expect(consumer.completed)
        #expect(source.emitted == (chain == "take" ? 900 : 1000))
    }

    /// A subscriber that never speaks of demand gets everything at once,
    /// as before demand existed: the Rx contract.
    @Test func withoutDemandEverythingFlows() {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 500, chunk: 10)
        var count = 0
        source.map(times(2)).subscribe(on: scheduler, onNext: { _ in count += 1 })
        settle(scheduler)
        #expect(count == 500 && source.demands.isEmpty)
    }

    /// `concatMap` behind slow inners asks its source to stop once
    /// `queueBound` inners wait, and to read on at half of that: the queue
    /// stays bounded by the bound and one chunk.
    @Test func concatMapBoundsItsQueue() {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 2000, chunk: 50)
        var largestLead = 0
        var received = 0
        source.concatMap(fn { value in .stream(Observable.just(value).delay(.milliseconds(Int64(1)))) })
            .subscribe(on: scheduler, onNext: { _ in
                received += 1
                largestLead = Swift.max(largestLead, source.emitted - received)
            })
        scheduler.advance(by: .seconds(5))
        #expect(received == 2000)
        #expect(largestLead <= FlattenSink.queueBound + 50, "the source ran \(largestLead) values ahead")
        #expect(source.demands.first == false && source.demands.contains(true))
    }

    /// A virtual clock that says it is the live one: what FlattenSink does
    /// on the live clock, stepped as exactly as marbles are.
    final class LiveLikeScheduler: Scheduler {
        let clock = VirtualScheduler()
        var now: TimeSpan { clock.now }
        var isVirtual: Bool { false }
        var tracer: Tracer? {
            get { clock.tracer }
            set { clock.tracer = newValue }
        }
        func schedule(at time: TimeSpan, _ action: @escaping () -> Void) -> Disposable { clock.schedule(at: time, action) }
        func runState<State: AnyObject>(for owner: AnyObject, create: () -> State) -> State { clock.runState(for: owner, create: create) }
    }

    /// Inners that cannot stop (a request per page: one response, whatever
    /// the demand) are not started while the consumer has enough: pages
    /// are fetched as they are taken, not as fast as the server answers.
    /// Bounded merges wait the same way on the live clock; in virtual time,
    /// where nothing reads, every inner starts when it would have.
    @Test(arguments: ["concatMap", "flatMap(maxConcurrent: 2)", "concat"], [false, true])
    func noInnerStartsWhileTheConsumerHasEnough(_ operatorName: String, virtual: Bool) {
        let live = LiveLikeScheduler()
        let scheduler: Scheduler = virtual ? live.clock : live
        let source = PacedSource(count: 1000, chunk: 1000)
        let page = fn { value in .stream(Observable.just(value).delay(.milliseconds(Int64(1)))) }
        let stream: Observable
        switch operatorName {
        case "concatMap": stream = source.concatMap(page)
        case "concat": stream = Observable.concat((0..<1000).map { Observable.just(.int($0)).delay(.milliseconds(Int64(1))) })
        default: stream = source.flatMap(maxConcurrent: 2, page)
        }
        let consumer = SlowConsumer(limit: 5)
        stream.subscribe(consumer, on: scheduler)
        live.clock.advance(by: .milliseconds(Int64(100)))
        if virtual {
            // A frame a value, as without demand.
            #expect(consumer.values.count == (operatorName == "flatMap(maxConcurrent: 2)" ? 200 : 100), "\(operatorName)")
        } else {
            // The inners running when "enough" came finish; no other starts.
            #expect(consumer.values.count <= 6, "\(operatorName): \(consumer.values.count) values delivered after enough at 5")
        }
        consumer.wantMore()
        live.clock.advance(by: .seconds(5))
        #expect(consumer.completed && consumer.values.count == 1000)
    }

    /// Two sources combined into a consumer that has enough: `zip` and
    /// `combineLatest` tell both, and both stop within their chunk.
    @Test(arguments: ["zip", "combineLatest"])
    func demandReachesEverySourceOfACombination(_ operatorName: String) {
        let scheduler = VirtualScheduler()
        let left = PacedSource(count: 1000, chunk: 10), right = PacedSource(count: 1000, chunk: 10)
        let stream = operatorName == "zip" ? Observable.zip([left, right]) : Observable.combineLatest([left, right])
        let consumer = SlowConsumer(limit: 5)
        stream.subscribe(consumer, on: scheduler)
        settle(scheduler)
        #expect(left.demands == [false] && right.demands == [false], "\(left.demands) \(right.demands)")
        #expect(left.emitted <= 20 && right.emitted <= 20, "read \(left.emitted) and \(right.emitted) after enough")
        consumer.wantMore()
        settle(scheduler)
        #expect(consumer.completed && left.emitted == 1000 && right.emitted == 1000)
        if operatorName == "zip" { #expect(consumer.values.count == 1000) }
    }

    /// `zip` of a source that reads fast and one that ticks: the fast one
    /// is held `bufferBound` values ahead, not read to its end into memory.
    @Test func zipHoldsAFastSourceABoundAheadOfASlowOne() {
        let scheduler = VirtualScheduler()
        let fast = PacedSource(count: 1000, chunk: 50)
        var received = 0
        var largestLead = 0
        Observable.zip([fast, Observable.interval(.milliseconds(Int64(1))).take(1000)])
            .subscribe(on: scheduler, onNext: { _ in
                received += 1
                largestLead = Swift.max(largestLead, fast.emitted - received)
            })
        scheduler.advance(by: .seconds(2))
        #expect(received == 1000)
        #expect(largestLead <= ZipSink.bufferBound + 50, "the fast source ran \(largestLead) values ahead")
        #expect(fast.demands.first == false && fast.demands.contains(true))
    }

    /// The consumer's demand reaches `concatMap`'s running inner, and its
    /// source stops too.
    @Test func concatMapPassesDemandToItsInnerAndOuter() {
        let scheduler = VirtualScheduler()
        let outer = PacedSource(count: 1, chunk: 1)
        let inner = PacedSource(count: 1000, chunk: 10)
        let consumer = SlowConsumer(limit: 5)
        outer.concatMap(fn { _ in .stream(inner) }).subscribe(consumer, on: scheduler)
        settle(scheduler)
        #expect(inner.demands == [false] && inner.emitted <= 10)
        consumer.wantMore()
        settle(scheduler)
        #expect(consumer.completed && consumer.values.count == 1000)
    }

    /// A shared source into a slow subscriber and a fast one (one that never
    /// speaks of demand): the source reads as far as the slower asks, the
    /// least of their demands, as a Reactive Streams multicast asks its
    /// source; once the slow one wants more, both get the rest.
    @Test(arguments: ["share", "share(replay: 1)", "share(scope: .forever)", "publish.connect", "publish.refCount", "replay(2).refCount"])
    func aSharedSourceReadsAsFarAsItsSlowestSubscriberAsks(_ sharing: String) {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 1000, chunk: 10)
        var connectable: ConnectableObservable?
        let shared: Observable
        switch sharing {
        case "share": shared = source.share()
        case "share(replay: 1)": shared = source.share(replay: 1)
        case "share(scope: .forever)": shared = source.share(forever: true)
        case "publish.connect":
            connectable = source.publish()
            shared = connectable!
        case "publish.refCount": shared = source.publish().refCount()
        default: shared = source.replay(2).refCount()
        }
        let slow = SlowConsumer(limit: 5)
        shared.subscribe(slow, on: scheduler)
        var fast: [Value] = []
        shared.subscribe(on: scheduler, onNext: { fast.append($0) })
        connectable?.connect(on: scheduler)
        settle(scheduler)
        #expect(source.demands == [false], "\(sharing)")
        #expect(source.emitted <= 20, "\(sharing): read \(source.emitted) values after the slow subscriber had enough")
        let before = source.emitted
        settle(scheduler)
        #expect(source.emitted == before, "\(sharing): the source read on")
        slow.wantMore()
        settle(scheduler)
        #expect(source.demands == [false, true], "\(sharing)")
        #expect(slow.completed && slow.values.count == 1000 && fast.last == 999, "\(sharing): \(slow.values.count) and \(fast.count) values")
    }

    /// The subscriber holding the others back leaves: the rest set the
    /// pace, and the source reads on for them.
    @Test func aSharedSourceReadsOnWhenItsSlowestSubscriberLeaves() {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 1000, chunk: 10)
        let shared = source.share()
        let slow = SlowConsumer(limit: 5)
        shared.subscribe(slow, on: scheduler)
        var fast = 0
        var completed = false
        shared.subscribe(on: scheduler, onNext: { _ in fast += 1 }, onCompleted: { completed = true })
        settle(scheduler)
        #expect(source.emitted == 10 && source.demands == [false])
        slow.subscription?.dispose()
        settle(scheduler)
        #expect(source.demands == [false, true])
        #expect(completed && source.emitted == 1000 && fast == 990)
    }

    /// Two slow subscribers: the source waits until both want more.
    @Test func aSharedSourceWaitsForEverySubscriberThatHasEnough() {
        let scheduler = VirtualScheduler()
        let source = PacedSource(count: 1000, chunk: 10)
        let shared = source.publish()
        let first = SlowConsumer(limit: 5), second = SlowConsumer(limit: 8)
        shared.subscribe(first, on: scheduler)
        shared.subscribe(second, on: scheduler)
        shared.connect(on: scheduler)
        settle(scheduler)
        #expect(source.demands == [false] && source.emitted == 10)
        first.wantMore()
        settle(scheduler)
        #expect(source.demands == [false] && source.emitted == 10, "one subscriber still has enough")
        second.wantMore()
        settle(scheduler)
        #expect(source.demands == [false, true] && first.completed && second.completed)
    }
}
