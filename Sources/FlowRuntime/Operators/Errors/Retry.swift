extension OperatorSpec {
    static let retry = OperatorSpec("retry", .errors, .method,
        "on error, subscribes again: at most count times (with no count, for ever), after delay when given: a duration, .exponential(initial:max:jitter:), or a closure (error, attempt) whose stream's first value says when",
        [
        // RxSwift's `retry(n)` counts attempts, the first one included.
        Signature([arg("count", .int).nonNegative()]) {
            let count = try $0.int(0)
            return .stream(try $0.source().retry($0.context.dialect == .rxSwift ? count - 1 : count))
        },
        Signature([]) { .stream(try $0.source().retry(Int.max)) },
        Signature([labelled("count", .int).nonNegative(), labelled("delay", .value, optional: true)]) {
            .stream(try $0.source().retry(try $0.int(0), delay: try RetryDelay.argument($0, 1)))
        },
        // RxJS 7's `retry({ count, delay })`, written with Swift's labels.
        Signature([arg("count", .int).nonNegative(), labelled("delay", .value)]) {
            .stream(try $0.source().retry(try $0.int(0), delay: try RetryDelay.argument($0, 1)))
        },
        Signature([labelled("delay", .value)]) {
            .stream(try $0.source().retry(Int.max, delay: try RetryDelay.argument($0, 0)))
        },
    ], example: #"""
            let source = cold("-a#")
            marbles(source, source.retry(2), source.retry(count: 1, delay: 2ms),
                    source.retry(3, delay: .exponential(initial: 2ms, max: 5ms)))
            """#,
        differences: "`retry(n)` re-subscribes at most n times (n + 1 attempts) in flow, Combine and RxJS; RxSwift's `retry(n)` makes n attempts in all, the first included (`import RxSwift`). `retry()` with no count retries for ever in RxSwift and RxJS (Combine requires a count). `delay:` is RxJS 7's `retry({ count, delay })`: a duration, `.exponential(initial:max:jitter:)`, or a closure given the error and the attempt (from 1) whose stream's first value starts the next attempt (its completion completes the result, its error fails it); `retry(when:)` with a closure of two parameters is the same for ever.")
}

/// When `retry` subscribes again after an error.
public enum RetryDelay {
    case fixed(TimeSpan)
    /// `initial`, then twice as long each attempt, at most `max`; with
    /// jitter, each delay is drawn between half of it and all of it, to the
    /// millisecond (so clients that failed together spread out). In virtual
    /// time the draws come from a fixed seed: a marble run gives the same
    /// delays every time.
    case exponential(initial: TimeSpan, max: TimeSpan?, jitter: Bool)
    /// RxJS 7's `delay` function: called with the error and the attempt
    /// (from 1); the next attempt starts at its stream's first value.
    case notifier(Function)

    /// The `delay:` argument at `i`: a bare number is in the call's unit,
    /// as every duration argument's.
    static func argument(_ args: Arguments, _ i: Int) throws -> RetryDelay? {
        guard let value = args.value(i) else { return nil }
        guard value.isNumber || (try? value.asDuration()) != nil else { return try RetryDelay(value) }
        let t = try args.duration(i)
        guard t >= .zero else { throw FlowError("retry's delay cannot be negative, got \(t)") }
        return .fixed(t)
    }

    public init(_ value: Value) throws {
        switch value {
        case .duration(let t): self = .fixed(t)
        case .function(let f): self = .notifier(f)
        case .tuple(let t) where t.nominal?.caseName == "exponential":
            guard let initial = t.element(labelled: "initial") else { throw FlowError(".exponential needs initial:, as in .exponential(initial: 1s, max: 30s)") }
            let first = try initial.asDuration(), most = try t.element(labelled: "max").map { try $0.asDuration() }
            guard first > .zero else { throw FlowError(".exponential's initial: delay must be more than 0") }
            self = .exponential(initial: first, max: most, jitter: try t.element(labelled: "jitter")?.asBool() ?? false)
        default:
            throw FlowError("retry's delay: is a duration, .exponential(initial:max:jitter:) or a closure (error, attempt) returning a stream, not \(value.typeName) \(value.literal)")
        }
    }
}

extension Observable {
    /// On error, subscribes again, at most `count` times (`count + 1`
    /// attempts in all; `Int.max` is for ever), `delay` after the error when
    /// given; the last error is passed on.
    public func retry(_ count: Int, delay: TimeSpan?) -> Observable {
        retry(count, delay: delay.map(RetryDelay.fixed))
    }

    public func retry(_ count: Int, delay: RetryDelay? = nil) -> Observable {
        ClosureNode("retry", inputs: [self]) { observer, scheduler, inputs in
            RetrySink(observer, scheduler: scheduler, source: inputs[0], retries: Swift.max(0, count), delay: delay, on: .error).start()
        }
    }
}

/// Resubscribes after errors (`retry`) or after completion (`repeat`),
/// trampolined: a source that ends while it is being subscribed is
/// subscribed again by the loop in `start`, not recursively.
final class RetrySink: Sink, InnerHost {
    enum Trigger { case error, completion }
    private let scheduler: Scheduler
    private let source: Observable
    private var retriesLeft: Int
    private let delay: RetryDelay?
    private let trigger: Trigger
    /// Attempts made again so far: what `.exponential` and a delay closure count.
    private var retriesMade = 0
    /// A delay closure's stream, while it decides.
    private var notifier: InnerObserver?
    /// Jitter's draws: seeded in virtual time, so runs repeat.
    private var random: SplitMix64?
    private var attempt: InnerObserver?
    private var pause: Disposable?
    private var subscribing = false
    private var resubscribeRequested = false

    init(_ downstream: Observer, scheduler: Scheduler, source: Observable, retries: Int, delay: RetryDelay? = nil, on trigger: Trigger) {
        self.scheduler = scheduler
        self.source = source
        self.retriesLeft = retries
        self.delay = delay
        self.trigger = trigger
        super.init(downstream)
    }

    func start() {
        announce()
        subscribeAgain()
    }

    private func subscribeAgain() {
        if subscribing { resubscribeRequested = true; return }
        subscribing = true
        // A source that fails at once is re-subscribed in this loop; in
        // virtual time nothing can interrupt it, so it is bounded there.
        var rounds = 0
        repeat {
            rounds += 1
            if rounds > VirtualScheduler.synchronousValueLimit, scheduler.isVirtual {
                subscribing = false
                let name = trigger == .error ? "retry" : "repeat"
                return sendError(FlowError(
                    "\(name) re-subscribed \(VirtualScheduler.synchronousValueLimit) times without time passing, the most virtual time allows; is the count meant to be endless?"))
            }
            if rounds % Interruption.stride == 0, scheduler.interruption?.isRequested == true {
                subscribing = false
                return
            }
            resubscribeRequested = false
            let inner = InnerObserver(host: self, index: 0)
            attempt = inner
            source.subscribe(inner, on: scheduler)
        } while resubscribeRequested && !isStopped
        subscribing = false
    }

    func innerNext(_ inner: InnerObserver, _ value: Value) {
        guard inner.index == 1 else { return sendNext(value) }
        // The delay closure's stream says: try again now.
        notifier?.dispose()
        notifier = nil
        subscribeAgain()
    }

    func innerError(_ inner: InnerObserver, _ error: FlowError) {
        if inner.index == 1 { return sendError(error) }
        guard trigger == .error, retriesLeft > 0 else { return sendError(error) }
        again(after: error)
    }

    func innerCompleted(_ inner: InnerObserver) {
        // A delay closure's stream that ends without a value ends the retries.
        if inner.index == 1 { return sendCompleted() }
        guard trigger == .completion, retriesLeft > 0 else { return sendCompleted() }
        again(after: nil)
    }

    private func again(after error: FlowError?) {
        if retriesLeft != Int.max { retriesLeft -= 1 }
        retriesMade += 1
        attempt = nil
        let wait: TimeSpan
        switch delay {
        case nil: return subscribeAgain()
        case .fixed(let t): wait = t
        case .exponential(let initial, let most, let jitter):
            var t = initial
            for _ in 1..<Swift.min(retriesMade, 62) where most.map({ t < $0 }) ?? true { t = t * 2 }
            if let most, t > most { t = most }
            if jitter {
                if random == nil { random = SplitMix64(seed: scheduler.isVirtual ? 0x5EED : UInt64.random(in: 0...UInt64.max)) }
                let fraction = 0.5 + 0.5 * Double(random!.next() >> 11) / Double(1 << 53)
                // Whole milliseconds: a marble frame each in virtual time.
                t = TimeSpan(nanoseconds: Int64((Double(t.nanoseconds) * fraction / 1e6).rounded()) * 1_000_000)
            }
            wait = t
        case .notifier(let function):
            let stream: Value
            do { stream = try function.call(error.map { $0.value } ?? .null, .int(retriesMade)) } catch { return sendError(FlowError.wrap(error)) }
            if case .duration(let t) = stream {
                wait = t
            } else {
                let next: Observable
                do { next = try stream.asStream() } catch {
                    return sendError(FlowError("retry's delay closure returns a stream (timer(1s)) or a duration, not \(stream.typeName) \(stream.literal)"))
                }
                let inner = InnerObserver(host: self, index: 1)
                notifier = inner
                next.subscribe(inner, on: scheduler)
                return
            }
        }
        guard wait > .zero else { return subscribeAgain() }
        pause = scheduler.schedule(after: wait) { [weak self] in
            self?.pause = nil
            self?.subscribeAgain()
        }
    }

    override func disposeResources() {
        attempt?.dispose()
        attempt = nil
        pause?.dispose()
        pause = nil
        notifier?.dispose()
        notifier = nil
    }
}

/// A small generator with a seed (Vigna's SplitMix64): jitter that a
/// virtual-time run repeats exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
