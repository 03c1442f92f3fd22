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
        // Chains that read one `share` are drawn in one diagram: the
        // shared source once, with its subscribers, and each chain's own
        // stages under it.
        var together: [[Observable]] = []
        var diagramOfShare: [ObjectIdentifier: Int] = [:]
        for chain in drawn {
            let shares = stages(endingAt: chain).filter(\.sharesItsInput).map(ObjectIdentifier.init)
            let diagram = shares.lazy.compactMap { diagramOfShare[$0] }.first ?? together.count
            if diagram == together.count { together.append([]) }
            together[diagram].append(chain)
            for share in shares where diagramOfShare[share] == nil { diagramOfShare[share] = diagram }
        }
        /// Every subscription of a shared node, top-level or inner.
        func subscriptionsOf(_ share: Observable) -> [Int] {
            records.indices.filter { records[$0].node === share && !records[$0].isEmittedStream }
        }
        /// Every subscriber of a share, in any chain, each `^` … `!`,
        /// counted and named by who subscribed it: one subscription of the
        /// source served them all.
        func subscriberLanes(of share: Observable) -> [LaneDiagram.Lane] {
            let subscribers = subscriptionsOf(share)
            return subscribers.prefix(mostSubscriptionsDrawn).enumerated().map { k, subscriber in
                subscriptionLane(records[subscriber], label: "  subscriber \(k + 1) of \(subscribers.count): " + subscriberName(subscriber))
            }
        }

        /// Who subscribed a share: the chain it was subscribed for, or the
        /// inner stream it is, by the value it was made for.
        func subscriberName(_ subscriber: Int) -> String {
            if records[subscriber].parent != nil { return innerLabel(records[subscriber], in: tracer) }
            let chain = records[root(subscriber)].node
            return chain.name ?? stageLabel(chain)
        }

        return together.map { chains in
            var lanes: [LaneDiagram.Lane] = []
            var omitted = 0
            // The lane each drawn record is, to place the events' origins.
            var drawnRecords: [Int: Int] = [:]
            func add(_ lane: LaneDiagram.Lane, record: Int?) {
                if let record { drawnRecords[record] = lanes.count }
                lanes.append(lane)
            }
            // The subscriptions of these chains: a source two chains read
            // is drawn in each with the subscription that chain made.
            let chainRoots = Set(chains.flatMap { topLevel[ObjectIdentifier($0)] ?? [] })
            // Nodes the runtime made for an operator (the `of` and
            // `concat` behind `startWith`) are not drawn: a lane is for
            // something the script wrote.
            var chainStages: [Observable] = []
            var seenStages = Set<ObjectIdentifier>()
            for chain in chains {
                for stage in stages(endingAt: chain) where seenStages.insert(ObjectIdentifier(stage)).inserted { chainStages.append(stage) }
            }
            // What a `share` subscribed for all its subscribers is no one
            // chain's: it is drawn once, with the share.
            let sharedInputs = Set(chainStages.filter(\.sharesItsInput).flatMap(\.inputs).map(ObjectIdentifier.init))
            // The shares drawn with their sources, to draw each once.
            var drawnShares = Set<ObjectIdentifier>()
            for node in chainStages where chains.contains(where: { $0 === node }) || node.origin != nil {
                let shared = sharedInputs.contains(ObjectIdentifier(node))
                var nodeRecords = (topLevel[ObjectIdentifier(node)] ?? []).filter {
                    chainRoots.contains(root($0)) || (shared && records[$0].subscriber == nil && root($0) == $0 && !chainRootSet.contains($0))
                }
                if node.sharesItsInput, let first = nodeRecords.first {
                    // Each chain subscribed the share, which sent them all
                    // the same: drawn once, as the first chain's, and its
                    // subscribers below it.
                    let firstChain = root(first)
                    nodeRecords = nodeRecords.filter { root($0) == firstChain }
                    drawnShares.insert(ObjectIdentifier(node))
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
                        for lane in subscriberLanes(of: node) { add(lane, record: nil) }
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
                    // A share read as an inner stream: the one request it
                    // made for them, drawn once, and who it served.
                    for share in innerRecords.prefix(mostInnerStreamsDrawn).map({ records[$0].node }) where share.sharesItsInput
                        && drawnShares.insert(ObjectIdentifier(share)).inserted {
                        for input in share.inputs {
                            for sourceRecord in (topLevel[ObjectIdentifier(input)] ?? []).filter({ !chainRootSet.contains($0) && root($0) == $0 })
                                .prefix(mostSubscriptionsDrawn) {
                                let source = records[sourceRecord]
                                var lane = LaneDiagram.Lane(label: "  " + stageLabel(input) + ", shared by " + (share.name ?? share.displayName),
                                                            events: events(source), start: source.subscribed == .zero ? nil : source.subscribed,
                                                            cancelled: source.cancelled)
                                lane.node = input
                                add(lane, record: sourceRecord)
                            }
                        }
                        for lane in subscriberLanes(of: share) { add(lane, record: nil) }
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
