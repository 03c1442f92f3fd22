import FlowRuntime

/// `signals("HUP")`, `signals("HUP", "USR1")`: each delivery of those
/// signals as a value, its name (`"HUP"`), on the live clock. While it is
/// subscribed, the script takes those signals over: a HUP is the script's
/// to handle (reopen a log, reload a config) instead of stopping the run,
/// and a TERM the script watches stops nothing until it calls `exit`. It
/// never completes; in virtual time no signal arrives.
final class SignalStream: Observable {
    static let names = ["HUP", "INT", "TERM", "USR1", "USR2"]
    let signalNames: [String]

    init(_ names: [String]) {
        signalNames = names
        super.init(operatorName: "signals")
    }

    override var isHotSource: Bool { true }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        guard let live = scheduler as? any LiveLoop else { return observer.onSubscribe(NopDisposable.shared) }
        let watches = CompositeDisposable()
        observer.onSubscribe(watches)
        for name in signalNames {
            guard let watch = live.watchSignal(name, { observer.onNext(.string(name)) }) else {
                return observer.onError(FlowError("signals: \(name) cannot be watched here"))
            }
            watches.insert(watch)
        }
    }

    /// A signal's name as a script may write it: `HUP`, `SIGHUP`, `hup`.
    static func name(_ written: String) throws -> String {
        var name = written.uppercased()
        if name.hasPrefix("SIG") { name.removeFirst(3) }
        guard names.contains(name) else {
            throw FlowError("signals takes \(names.joined(separator: ", ")), not \(written.debugDescription)")
        }
        return name
    }
}
