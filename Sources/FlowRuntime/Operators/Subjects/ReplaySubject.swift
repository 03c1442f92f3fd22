import DequeModule

extension OperatorSpec {
    static let replaySubject = OperatorSpec("replaySubject", aliases: [
        Spelling("ReplaySubject.create", label: "bufferSize", means: "bufferSize"), "ReplaySubject",
    ], .subjects, .function, "a subject replaying its latest values to new subscribers", [
        Signature([labelled("bufferSize", .int, optional: true).nonNegative()]) { .stream(ReplaySubject(bufferSize: try $0.optionalInt(0) ?? 1)) },
        Signature([arg("bufferSize", .int).nonNegative()]) { .stream(ReplaySubject(bufferSize: try $0.int(0))) },
    ], example: #"""
            let s = replaySubject(bufferSize: 2)
            s.send(1)
            s.send(2)
            s.send(3)
            marbles(s.take(2))
            """#,
        differences: "RxSwift `ReplaySubject.create(bufferSize:)`, RxJS `new ReplaySubject(n)` (which can also forget values older than a time window); Combine has no replaying subject.")
}

/// Replays up to `bufferSize` latest values to each new subscriber, even
/// after it has terminated.
public final class ReplaySubject: Subject {
    private let bufferSize: Int
    private var buffer = Deque<Value>()

    public init(bufferSize: Int) {
        self.bufferSize = Swift.max(0, bufferSize)
        super.init(name: "replaySubject")
    }

    override func recordNext(_ value: Value) {
        guard bufferSize > 0 else { return }
        // A buffer as large as asked (`Int.max`: every value) could outgrow
        // the memory budget: the subject then fails with its error, after
        // this value, instead of the process running out.
        if buffer.count < bufferSize {
            do { try MemoryBudget.checkElements(buffer.count + 1, "keeping values to replay") } catch {
                return fail(FlowError.wrap(error))
            }
        }
        buffer.append(value)
        if buffer.count > bufferSize { buffer.removeFirst() }
    }

    override func replay(to observer: Observer) {
        for v in buffer { observer.onNext(v) }
    }
}
