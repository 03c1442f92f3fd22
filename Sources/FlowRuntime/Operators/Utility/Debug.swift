extension OperatorSpec {
    static let debug = method("debug", .utility,
        "logs every event in RxSwift's debug format, each line starting with the clock's time (print is Combine's format)",
        [optionalArg("label", .string)],
        example: #"""
            let source = cold("-a|")
            marbles(source.debug("source"))
            """#,
        differences: "RxSwift's `debug`; Combine's is `print` (in its own format), RxJS's `tap(console.log)`.", traits: .describesValues) { s, args in
        let label = try args.string(0, default: args.context.location.map { "\($0.file):\($0.line)" } ?? "debug")
        return s.debug(label, to: args.context.output, describing: args.context.describe)
    }
}

extension Observable {
    /// RxSwift's `debug`: `time: label -> subscribed`, `-> Event next(v)`,
    /// `-> Event error(e)`, `-> Event completed`, `-> isDisposed`. RxSwift
    /// starts each line with the date; flow with the run's clock, so a
    /// virtual-time run logs the same lines every time.
    public func debug(_ label: String, to output: @escaping (String) -> Void,
                      describing describe: @escaping (Value) -> String = { $0.description }) -> Observable {
        SinkNode("debug", self) { observer, scheduler in
            let say: (String) -> Void = { output("\(scheduler.now): \(label) -> \($0)") }
            let hooks = SideEffectHooks(
                next: { say("Event next(\(describe($0)))") },
                error: { say("Event error(\(describe($0.value)))") },
                completed: { say("Event completed") },
                subscribe: nil,
                dispose: { say("isDisposed") })
            say("subscribed")
            return SideEffectSink(observer, hooks: hooks)
        }
    }
}
