import FlowRuntime

/// Grand Central Dispatch as view models use it: `DispatchQueue.main.async
/// { }`, `queue.asyncAfter(deadline: .now() + 0.3) { }`, `queue.sync { }`.
/// Every queue is the script's one event loop (virtual or live), so work
/// sent to one runs there, in order, at its time; `sync` runs it at once.
/// A run lasts until work it scheduled has run.
extension Compiler {
    func compileDispatchCall(_ base: Expr, _ name: String, _ nameSpan: Span, _ arguments: [CallArgument], in scope: Scope) -> Code {
        let location = self.location(nameSpan)
        let queue = compile(base, in: scope)
        guard let work = arguments.last, work.label == nil || work.label == "execute" else {
            error("\(name) takes the work as a closure, as in DispatchQueue.main.\(name)\(name == "asyncAfter" ? "(deadline: .now() + 0.3)" : "") { ... }",
                  nameSpan)
            return { _ in .null }
        }
        let workCode = compile(work.value, in: scope)
        var delay: Code?
        if name == "asyncAfter" {
            guard let deadline = arguments.first(where: { $0.label == "deadline" || $0.label == "wallDeadline" }) else {
                error("asyncAfter takes deadline:, as in asyncAfter(deadline: .now() + 0.3) { ... }", nameSpan)
                return { _ in .null }
            }
            delay = compileDeadline(deadline.value, in: scope)
            facts.needsLiveClock = true
        } else if arguments.count > 1 {
            error("\(name) takes only the work, as in DispatchQueue.main.\(name) { ... }", arguments[0].labelSpan ?? arguments[0].value.span)
        }
        let env = environment
        return { frame in
            let target = try queue(frame)
            guard case .tuple(let t) = target, t.element(labelled: "scheduler") != nil else {
                throw FlowError("'\(name)' sends work to a DispatchQueue, not to \(target.typeName) \(target.literal)", at: location)
            }
            let f = try located(location) { try workCode(frame).asFunction() }
            if name == "sync" { return try located(location) { try f.call([]) } }
            let after = try delay.map { code in try located(location) { try Self.seconds(code(frame)) } } ?? .zero
            let run = env.run
            let pending = PendingWork()
            run.track(pending)
            // Scheduled from the loop itself: after what the statements
            // around the call set up for this instant (the subscriptions a
            // test makes at frame 0), as the main queue runs work after the
            // code that is running.
            pending.task = run.scheduler.schedule(after: .zero) { [pending] in
                pending.task = run.scheduler.schedule(after: after) { [pending] in
                    run.untrack(pending)
                    do { _ = try f.call([]) } catch {
                        let failure = FlowError.wrap(error).located(at: location)
                        run.failed(failure, report: env.reportStreamError)
                    }
                }
            }
            return .null
        }
    }

    /// `.now() + 0.3`, `.now() + .milliseconds(300)`, `DispatchTime.now() + 1`:
    /// the time from now, a number being seconds as in Swift.
    private func compileDeadline(_ expr: Expr, in scope: Scope) -> Code {
        func isNow(_ e: Expr) -> Bool {
            switch e {
            case .call(.implicitMember("now", _), let arguments, _) where arguments.isEmpty: true
            case .call(.member(.name("DispatchTime", _), "now", _, _), let arguments, _) where arguments.isEmpty: true
            default: false
            }
        }
        if isNow(expr) { return { _ in .duration(.zero) } }
        if case .binary(.add, let left, let right, _, _) = expr, isNow(left) { return compile(right, in: scope) }
        error("a deadline is written .now() + seconds, as in .now() + 0.3", expr.span)
        return { _ in .duration(.zero) }
    }

    static func seconds(_ value: Value) throws -> TimeSpan {
        if case .duration(let t) = value { return t }
        let seconds = try value.asDouble()
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { throw FlowError("a deadline of \(seconds) seconds is not a time to wait") }
        return TimeSpan(nanoseconds: Int64(seconds * 1e9))
    }
}

/// Work sent to a queue and not run yet: a run waits for it, and Ctrl-C
/// cancels it.
final class PendingWork: RunningSubscription {
    var runningSlot = -1
    var task: Disposable?
    func dispose() { task?.dispose() }
}
