import FlowMarbles
import Testing

@testable import FlowRuntime

/// A Swift closure as a runtime function.
func fn(_ body: @escaping (Value) throws -> Value) -> Function { .unary(body) }
func fn2(_ body: @escaping (Value, Value) throws -> Value) -> Function { .binary(body) }
func pred(_ body: @escaping (Value) throws -> Bool) -> Function { .unary { .bool(try body($0)) } }

extension Value {
    var i: Int { try! asInt() }
}

/// `$0 * k` and friends, for short test pipelines.
func times(_ k: Int) -> Function { fn { try Value.multiply($0, .int(k)) } }
func plus(_ k: Int) -> Function { fn { try Value.add($0, .int(k)) } }
var add: Function { fn2 { try Value.add($0, $1) } }

/// A marble test: streams from marbles, expectations, then one run whose
/// failures are reported as test issues at the caller's line.
final class Marbles {
    let run = MarbleRun()
    var scheduler: VirtualScheduler { run.scheduler }

    func cold(_ marbles: String, _ values: [String: Value] = [:], error: Value? = nil) -> ColdStream {
        try! ColdStream(marbles, values: values, error: error)
    }

    func hot(_ marbles: String, _ values: [String: Value] = [:], error: Value? = nil) -> HotStream {
        try! HotStream(marbles, values: values, error: error)
    }

    func expect(
        _ stream: Observable, _ marbles: String, _ values: [String: Value] = [:], error: Value? = nil,
        subscription: String? = nil, unsubscribe: String? = nil
    ) {
        var log = SubscriptionLog(subscribed: .zero, unsubscribed: nil)
        if let subscription { log = try! MarbleParser.parseSubscription(subscription) }
        if let unsubscribe { log.unsubscribed = try! MarbleParser.parseSubscription("^" + unsubscribe.dropFirst()).unsubscribed }
        try! run.expect(stream, subscription: log, toBe: marbles, values: values, error: error)
    }

    func subscriptions(_ stream: LoggedStream, _ marbles: String...) {
        try! run.expectSubscriptions(stream, toBe: marbles)
    }
}

func marbles(sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: (Marbles) throws -> Void) rethrows {
    let m = Marbles()
    try body(m)
    for failure in m.run.run() {
        Issue.record(Comment(rawValue: "\n" + failure.message), sourceLocation: sourceLocation)
    }
}

/// Subscribes on a fresh virtual scheduler, runs it, and returns the events.
func collect(_ stream: Observable, until: TimeSpan? = nil) -> [Event] {
    let scheduler = VirtualScheduler()
    let recorder = EventRecorder(scheduler: scheduler)
    stream.subscribe(recorder, on: scheduler)
    if let until { scheduler.advance(to: until) } else { scheduler.run() }
    return recorder.events.map(\.event)
}

func values(_ events: [Event]) -> [Value] {
    events.compactMap { if case .next(let v) = $0 { v } else { nil } }
}
