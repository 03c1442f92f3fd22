extension OperatorSpec {
    static let trace = method("trace", .utility, "draws every stage of the chain ending here as a marble lane when the run ends", [],
        example: #"""
            let source = cold("-a--b-|")
            source.flatMapLatest { v in cold("-x--y|") }.map { $0 + "!" }.trace().sink { _ in }
            """#,
        differences: "flow's own: none of the three draws its stages.") { s, _ in s.trace() }
}

extension Observable {
    /// The same stream; asks the run to record every stage of the chain
    /// ending here, for a per-stage marble diagram (see `Tracer`).
    public func trace() -> Observable {
        ClosureNode("trace", inputs: [self]) { observer, scheduler, inputs in
            let tracer = scheduler.tracer ?? Tracer()
            scheduler.tracer = tracer
            tracer.trace(inputs[0])
            inputs[0].subscribe(observer, on: scheduler)
        }
    }
}
