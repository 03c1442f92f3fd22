import FlowRuntime

extension Environment {
    /// Subscribes a stream for its effects (`sink`, `subscribe`, a
    /// statement ending in `.print`). An error that reaches a subscriber
    /// without an error handler is reported and fails the run.
    func subscribe(
        _ stream: Observable, at location: SourceLocation, onNext: Function?,
        onError: Function? = nil, onCompleted: Function? = nil, onCompletion: Function? = nil
    ) {
        let run = self.run
        let report: (FlowError) -> Void = { [weak self] error in
            let located = error.located(at: location)
            run.streamErrors.append(located)
            self?.reportStreamError(located)
        }
        var subscription: CallbackObserver?
        /// A handler that throws ends the subscription with its error.
        func guarded(_ body: () throws -> Void) {
            do { try body() } catch {
                subscription?.dispose()
                report(FlowError.wrap(error))
            }
        }
        let observer = CallbackObserver(
            onNext: { value in guarded { _ = try onNext?.call(value) } },
            onError: { error in
                guarded {
                    if let onError { _ = try onError.call(error.value) }
                    else if let onCompletion { _ = try onCompletion.call(.event(.error(error))) }
                    else { report(error) }
                }
            },
            onCompleted: {
                guarded {
                    _ = try onCompleted?.call([])
                    _ = try onCompletion?.call(.event(.completed))
                }
            })
        subscription = observer
        stream.subscribe(observer, on: run.scheduler)
    }
}
