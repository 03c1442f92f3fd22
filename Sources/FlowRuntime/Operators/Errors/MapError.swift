extension OperatorSpec {
    static let mapError = method("mapError", .errors, "replaces an error with the closure's result, which ends the stream as its error",
        [arg("transform", .function)],
        example: #"""
            let source = cold("-a-#", error: "timeout")
            marbles(source, source.mapError { "network: \($0)" })
            """#,
        differences: "Combine's `mapError`. RxSwift and RxJS have none: they write `catch { e in error(f(e)) }`.") {
        $0.mapError(try $1.function(0))
    }
}

extension Observable {
    /// The source, with its error (if any) replaced by `transform(error)`.
    public func mapError(_ transform: Function) -> Observable {
        SinkNode("mapError", self) { observer, _ in MapErrorSink(observer, transform: transform) }
    }
}

final class MapErrorSink: Sink {
    private let transform: Function

    init(_ downstream: Observer, transform: Function) {
        self.transform = transform
        super.init(downstream)
    }

    override func onError(_ error: FlowError) {
        do { sendError(FlowError(try transform.call(error.value), at: error.location)) } catch { sendError(FlowError.wrap(error)) }
    }
}
