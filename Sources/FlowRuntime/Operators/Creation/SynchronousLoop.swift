/// Emits what `next` returns, one value after another in the subscribing
/// call, until it returns nil (then completes), the subscriber stops, the
/// run is interrupted, or `next` throws (a stream error). In virtual time,
/// where nothing can interrupt a loop, an endless one stops with an error
/// after `VirtualScheduler.synchronousValueLimit` values.
///
/// The shape every unbounded synchronous source shares (`generate`,
/// `repeatElement`).
func emitSynchronously(_ name: String, to observer: Observer, on scheduler: Scheduler, next: () throws -> Value?) {
    let downstream = StopSignal(subscribing: observer)
    var emitted = 0
    var untilLook = Interruption.stride
    while true {
        untilLook -= 1
        if untilLook == 0 {
            untilLook = Interruption.stride
            if scheduler.interruption?.isRequested == true { return }
        }
        if scheduler.isVirtual && emitted == VirtualScheduler.synchronousValueLimit {
            return observer.onError(FlowError(
                "\(name) stopped after \(VirtualScheduler.synchronousValueLimit) values, the most one synchronous source emits in virtual time; is it meant to be endless?"))
        }
        if downstream.isStopped { return }
        let value: Value?
        do { value = try next() } catch { return observer.onError(FlowError.wrap(error)) }
        guard let value else { break }
        observer.onNext(value)
        emitted += 1
    }
    if !downstream.isStopped { observer.onCompleted() }
}
