import FlowRuntime

/// Turns what a `Tracer` recorded into lanes: one per stage of each traced
/// chain, sources first, each labelled with the operator as written; inner
/// streams of a higher-order stage as indented sub-lanes from where they
/// were subscribed, with `!` where they were cancelled; and, on request,
/// the subscription (`^` … `!`) of every source.
public enum TraceDiagram {
    public static func lanes(from tracer: Tracer, subscriptions: Bool = false) -> [[LaneDiagram.Lane]] {
        // A chain that is a stage of another (`marbles(price, canBuy)`
        // where canBuy reads price) is drawn there, not again alone.
        let stagesOfChains = tracer.chains.map { Set(stages(endingAt: $0).map(ObjectIdentifier.init)) }
        let drawn = tracer.chains.enumerated().filter { i, chain in
            !stagesOfChains.enumerated().contains { j, stages in j != i && stages.contains(ObjectIdentifier(chain)) }
        }.map(\.element)
        return drawn.map { chain in
            var lanes: [LaneDiagram.Lane] = []
            // The subscriptions of this chain: a source two chains read
            // is drawn in each with the subscription that chain made.
            let roots = Set(tracer.records.indices.filter { tracer.records[$0].node === chain && tracer.records[$0].parent == nil })
            // Nodes the runtime made for an operator (the `of` and
            // `concat` behind `startWith`) are not drawn: a lane is for
            // something the script wrote.
            for node in stages(endingAt: chain) where node === chain || node.origin != nil {
                let records = tracer.records.indices.filter {
                    tracer.records[$0].node === node && tracer.records[$0].parent == nil && roots.contains(tracer.root(of: $0))
                }
                for (n, index) in records.enumerated() {
                    let record = tracer.records[index]
                    let label = (node.name ?? node.displayName) + (records.count > 1 ? " #\(n + 1)" : "")
                    // A stage cut off before it ended (a request a timeout
                    // gave up on) shows `!` where it was cancelled.
                    // A re-subscription (`retry`, `repeat`, a late
                    // `delaySubscription`) is blank until it starts.
                    var lane = LaneDiagram.Lane(label: label, events: events(record), start: record.subscribed == .zero ? nil : record.subscribed,
                                                cancelled: record.cancelled)
                    lane.isStage = !node.inputs.isEmpty
                    lane.node = node
                    lanes.append(lane)
                    if subscriptions && node.inputs.isEmpty {
                        lanes.append(subscriptionLane(record, label: "  subscription"))
                    }
                    for inner in tracer.records.indices where tracer.records[inner].parent == index {
                        let innerRecord = tracer.records[inner]
                        lanes.append(LaneDiagram.Lane(label: "  ↳ " + innerLabel(innerRecord.node), events: events(innerRecord),
                                                      start: innerRecord.subscribed, cancelled: innerRecord.cancelled))
                    }
                }
            }
            return lanes
        }
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
