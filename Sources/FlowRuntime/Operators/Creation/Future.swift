extension OperatorSpec {
    static let future = source("future", aliases: ["Future"],
        "Combine's Future: calls the closure once with a promise; promise(.success(v)) emits v and completes, promise(.failure(e)) fails; every subscriber gets that one result",
        [arg("attempt", .function)],
        example: #"""
            let answer = Future { promise in
              timer(2ms).sink { _ in promise(.success(42)) }
            }
            marbles(answer)
            """#,
        differences: "Combine runs a Future's closure when it is made; flow runs it when the first subscriber arrives, once per run (a flow script may run on several clocks, as test blocks do). Either way every subscriber gets the one result.") { .future(try $0.function(0)) }
}

extension Observable {
    /// Combine's `Future`: `attempt` runs once per run, when the first
    /// subscriber arrives (Combine runs it when the Future is made; a flow
    /// stream is a description that may run on several clocks), with a
    /// promise to fulfil once. The result is replayed to every subscriber.
    public static func future(_ attempt: Function) -> Observable {
        ClosureNode("Future") { observer, scheduler, inputs in
            // One result per run, kept in the run's state for this node.
            final class Run {
                let result = ReplaySubject(bufferSize: 1)
                var started = false
            }
            let run = scheduler.runState(for: attempt) { Run() }
            run.result.subscribe(observer, on: scheduler)
            guard !run.started else { return }
            run.started = true
            let subject = run.result
            let promise = Function.unary(name: "promise") { outcome in
                guard subject.terminal == nil else { return .null }
                switch outcome {
                case .event(.next(let value), _):
                    subject.send(value)
                    subject.complete()
                case .event(.error(let error), _):
                    subject.fail(error)
                default:
                    subject.send(outcome)
                    subject.complete()
                }
                return .null
            }
            do { _ = try attempt.call(.function(promise)) } catch { subject.fail(FlowError.wrap(error)) }
        }
    }
}
