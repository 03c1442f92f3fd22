import FlowRuntime

/// Turns what a `Tracer` recorded into lanes: one per stage of each traced
/// chain, sources first, each labelled with the operator as written; inner
/// streams of a higher-order stage as indented sub-lanes from where they
/// were subscribed, with `!` where they were cancelled; and, on request,
/// the subscription (`^` … `!`) of every source.
public enum TraceDiagram {
    /// The most subscriptions of one stage, and inner streams of one
    /// subscription, that are drawn: a chain re-subscribed a hundred
    /// thousand times (an endless `repeat`) or a `flatMap` of a hundred
    /// thousand inner streams is drawn by its first lanes, and says how
    /// many more there were.
    public static let mostSubscriptionsDrawn = 12
    public static let mostInnerStreamsDrawn = 24

    public static func lanes(from tracer: Tracer, subscriptions: Bool = false, at now: TimeSpan? = nil) -> [[LaneDiagram.Lane]] {
        chains(from: tracer, subscriptions: subscriptions, at: now).map(\.lanes)
    }

    /// One diagram per traced chain, each titled with what it leaves out;
    /// `now` is how far the run has gone (by default, its latest event),
    /// as far as an endless inner stream subscribed only to be drawn is drawn.
    public static func diagrams(from tracer: Tracer, subscriptions: Bool = false, at now: TimeSpan? = nil, options: LaneDiagram.Options) -> [LaneDiagram] {
        chains(from: tracer, subscriptions: subscriptions, at: now).filter { !$0.lanes.isEmpty }.map { chain in
            let title = chain.omitted == 0 ? nil
                : "(not drawn: \(chain.omitted) more subscriptions and inner streams)"
            return LaneDiagram(lanes: chain.lanes, options: options, title: title)
        }
    }

    static func chains(from tracer: Tracer, subscriptions: Bool, at now: TimeSpan?) -> [(lanes: [LaneDiagram.Lane], omitted: Int)] {
        let records = tracer.records
        let now = now ?? records.reduce(TimeSpan.zero) { latest, record in
            Swift.max(latest, record.subscribed, record.cancelled ?? .zero, record.events.last?.time ?? .zero)
        }
        // Indexes built once: a run may have made a great many records.
        var topLevel: [ObjectIdentifier: [Int]] = [:]
        var inners: [Int: [Int]] = [:]
        // The groups and windows traced stages emitted, as they played.
        var emittedStreams: [ObjectIdentifier: [TimedEvent]] = [:]
        for index in records.indices {
            if records[index].isEmittedStream { emittedStreams[ObjectIdentifier(records[index].node)] = events(records[index]) }
            else if let parent = records[index].parent { inners[parent, default: []].append(index) }
            else { topLevel[ObjectIdentifier(records[index].node), default: []].append(index) }
        }
        /// A record's events, each stream it emitted written as what it
        /// sent, and the lanes those streams are drawn in, nested under
        /// it: drawn as `marbles(...)` draws a stream of streams.
        func nested(_ record: Tracer.Record) -> (events: [TimedEvent], lanes: [LaneDiagram.Lane]) {
            let recorded = events(record)
            guard recorded.contains(where: { if case .next(.stream) = $0.event { true } else { false } }) else { return (recorded, []) }
            let replayed = EventRecorder.replaying(recorded, until: record.cancelled ?? now) { emittedStreams[ObjectIdentifier($0)] }
            return (replayed.eventsAsWritten, replayed.nestedLanes())
        }
        var roots: [Int?] = Array(repeating: nil, count: records.count)
        func root(_ index: Int) -> Int {
            if let known = roots[index] { return known }
            let found = tracer.root(of: index)
            roots[index] = found
            return found
        }
        // A chain that is a stage of another (`marbles(price, canBuy)`
        // where canBuy reads price) is drawn there, not again alone.
        let stagesOfChains = tracer.chains.map { Set(stages(endingAt: $0).map(ObjectIdentifier.init)) }
        let drawn = tracer.chains.enumerated().filter { i, chain in
            !stagesOfChains.enumerated().contains { j, stages in j != i && stages.contains(ObjectIdentifier(chain)) }
        }.map(\.element)
        // The first subscription of each chain drawn: not a shared input's.
        let chainRootSet = Set(tracer.chains.flatMap { topLevel[ObjectIdentifier($0)] ?? [] })
        return drawn.map { chain in
            var lanes: [LaneDiagram.Lane] = []
            var omitted = 0
            // The lane each drawn record is, to place the events' origins.
            var drawnRecords: [Int: Int] = [:]
            func add(_ lane: LaneDiagram.Lane, record: Int?) {
                if let record { drawnRecords[record] = lanes.count }
                lanes.append(lane)
            }
            // The subscriptions of this chain: a source two chains read
            // is drawn in each with the subscription that chain made.
            let chainRoots = Set(topLevel[ObjectIdentifier(chain)] ?? [])
            // Nodes the runtime made for an operator (the `of` and
            // `concat` behind `startWith`) are not drawn: a lane is for
            // something the script wrote.
            let chainStages = stages(endingAt: chain)
            // What a `share` subscribed for all its subscribers is no one
            // chain's: it is drawn in each chain that reads the share.
            let sharedInputs = Set(chainStages.filter(\.sharesItsInput).flatMap(\.inputs).map(ObjectIdentifier.init))
            for node in chainStages where node === chain || node.origin != nil {
                let shared = sharedInputs.contains(ObjectIdentifier(node))
                let nodeRecords = (topLevel[ObjectIdentifier(node)] ?? []).filter {
                    chainRoots.contains(root($0)) || (shared && records[$0].subscriber == nil && root($0) == $0 && !chainRootSet.contains($0))
                }
                omitted += Swift.max(0, nodeRecords.count - mostSubscriptionsDrawn)
                for (n, index) in nodeRecords.prefix(mostSubscriptionsDrawn).enumerated() {
                    let record = records[index]
                    let label = stageLabel(node) + (nodeRecords.count > 1 ? " #\(n + 1)" : "")
                    // A stage cut off before it ended (a request a timeout
                    // gave up on) shows `!` where it was cancelled.
                    // A re-subscription (`retry`, `repeat`, a late
                    // `delaySubscription`) is blank until it starts.
                    let drawn = nested(record)
                    var lane = LaneDiagram.Lane(label: label, events: drawn.events, start: record.subscribed == .zero ? nil : record.subscribed,
                                                cancelled: record.cancelled)
                    lane.isStage = !node.inputs.isEmpty
                    lane.node = node
                    add(lane, record: index)
                    for nestedLane in drawn.lanes { add(nestedLane, record: nil) }
                    if subscriptions && node.inputs.isEmpty {
                        add(subscriptionLane(record, label: "  subscription"), record: nil)
                    }
                    if node.sharesItsInput, n == 0 {
                        // Every subscriber of the share, in any chain: one
                        // subscription of the source served them all.
                        let subscribers = topLevel[ObjectIdentifier(node)] ?? []
                        for (k, subscriber) in subscribers.prefix(mostSubscriptionsDrawn).enumerated() {
                            add(subscriptionLane(records[subscriber], label: "  subscriber \(k + 1) of \(subscribers.count)"), record: nil)
                        }
                    }
                    let innerRecords = inners[index] ?? []
                    omitted += Swift.max(0, innerRecords.count - mostInnerStreamsDrawn)
                    for inner in innerRecords.prefix(mostInnerStreamsDrawn) {
                        let innerRecord = records[inner]
                        let drawn = nested(innerRecord)
                        add(LaneDiagram.Lane(label: "  ↳ " + innerLabel(innerRecord, in: tracer), events: drawn.events,
                                             start: innerRecord.subscribed, cancelled: innerRecord.cancelled), record: inner)
                        for nestedLane in drawn.lanes { add(nestedLane, record: nil) }
                    }
                }
            }
            for (record, lane) in drawnRecords {
                lanes[lane].madeFrom = records[record].causes.map { origin($0, drawn: drawnRecords, in: tracer) }
            }
            return (lanes, omitted)
        }
    }

    /// Where in the diagram an event came from: its cause, or, when that
    /// was emitted by a stage that is not drawn (the `concat` behind
    /// `startWith`), the nearest drawn event that stage's event came from.
    static func origin(_ cause: Tracer.Cause?, drawn: [Int: Int], in tracer: Tracer) -> LaneDiagram.EventPlace? {
        var current = cause
        // Each step goes to an earlier event: bounded by the events there are.
        while let cause = current {
            if let lane = drawn[cause.record] { return LaneDiagram.EventPlace(lane: lane, event: cause.event) }
            let record = tracer.records[cause.record]
            current = cause.event < record.causes.count ? record.causes[cause.event] : nil
        }
        return nil
    }

    /// A stage by its operator as written (`map { $0 * 10 }`), with the
    /// `let` name it is bound to beside it (`tenfold = map { $0 * 10 }`);
    /// a source by its name, or as written.
    static func stageLabel(_ node: Observable) -> String {
        let written = node.displayName
        guard !node.inputs.isEmpty, let name = node.name, name != written else { return node.name ?? written }
        return "\(name) = \(written)"
    }

    /// An inner stream by the value it was made for (`for b`), or, when it
    /// was made from a stream (a `groupBy` group) or for no value, by its
    /// operator and the group or window it reads.
    static func innerLabel(_ record: Tracer.Record, in tracer: Tracer) -> String {
        if let cause = record.subscribedFor, cause.event < tracer.records[cause.record].events.count,
           case .next(let value) = tracer.records[cause.record].events[cause.event].event {
            if case .stream = value { return innerLabel(record.node) }
            return "for " + value.description
        }
        return innerLabel(record.node)
    }

    /// An inner stream by its operator, with the group or window it reads
    /// from where it is made from one: `toArray of group 1`.
    static func innerLabel(_ node: Observable) -> String {
        var source = node
        while source.inputs.count == 1, !isOperatorMade(source) { source = source.inputs[0] }
        guard isOperatorMade(source), source !== node else { return node.displayName }
        return node.displayName + " of " + source.displayName
    }

    /// A stream an operator made and named for its output: a `groupBy`
    /// group, a `window`.
    static func isOperatorMade(_ node: Observable) -> Bool { node.location == nil && node.label != nil && node.inputs.isEmpty }

    /// The stages a chain reads from, sources first (each once).
    static func stages(endingAt last: Observable) -> [Observable] {
        var ordered: [Observable] = []
        var seen = Set<ObjectIdentifier>()
        var stack: [(node: Observable, expanded: Bool)] = [(last, false)]
        while let (node, expanded) = stack.popLast() {
            if expanded {
                if seen.insert(ObjectIdentifier(node)).inserted { ordered.append(node) }
                continue
            }
            stack.append((node, true))
            for input in node.inputs.reversed() where !seen.contains(ObjectIdentifier(input)) {
                stack.append((input, false))
            }
        }
        return ordered
    }

    static func events(_ record: Tracer.Record) -> [TimedEvent] {
        record.events.map { TimedEvent($0.time, $0.event) }
    }

    /// `^` where it was subscribed and `!` where it ended or was cancelled.
    static func subscriptionLane(_ record: Tracer.Record, label: String) -> LaneDiagram.Lane {
        let end = record.cancelled ?? record.events.last.flatMap { $0.event.isTerminal ? $0.time : nil }
        return .subscription(label: label, SubscriptionLog(subscribed: record.subscribed, unsubscribed: end))
    }
}
