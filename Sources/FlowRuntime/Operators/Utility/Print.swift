extension OperatorSpec {
    static let print = method("print", aliases: [], .utility, "logs every event in Combine's format", [optionalArg("label", .string)],
        example: #"""
            let source = cold("-a|")
            marbles(source.print("source"))
            """#,
        differences: "Combine's format (`label: receive value: (v)`). RxSwift's `debug` format is the `debug` operator; RxJS's `tap(console.log)` is `tap { print($0) }`.", traits: [.subscribedAsAStatement, .describesValues]) { s, args in
        s.print(try args.string(0, default: ""), to: args.context.output, describing: args.context.describe)
    }
}

extension Observable {
    /// Logs every event in Combine's `print` format, one line each, to
    /// `output`, each value and error as `describing` shows it.
    public func print(_ label: String = "", to output: @escaping (String) -> Void,
                      describing describe: @escaping (Value) -> String = { $0.description }) -> Observable {
        let prefix = label.isEmpty ? "" : "\(label): "
        let upstreamName = operatorName
        let say: (String) -> Void = { output(prefix + $0) }
        let hooks = SideEffectHooks(
            next: { say("receive value: (\(describe($0)))") },
            error: { say("receive error: (\(describe($0.value)))") },
            completed: { say("receive finished") },
            subscribe: {
                say("receive subscription: (\(upstreamName))")
                say("request unlimited")
            },
            cancel: { say("receive cancel") })
        return sideEffects("print", hooks)
    }
}
