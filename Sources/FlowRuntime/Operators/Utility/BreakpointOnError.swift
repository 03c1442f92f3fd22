extension OperatorSpec {
    static let breakpointOnError = method("breakpointOnError", .utility, "prints where, and the error, when the stream fails; the stream is unchanged", [],
        example: #"""
            let source = cold("-a-#")
            marbles(source.breakpointOnError())
            """#,
        differences: "Combine's `breakpointOnError()` stops in the debugger; flow prints instead (see `breakpoint`).") { source, args in
        source.breakpoint(subscription: nil, output: nil, completion: Function.unary(name: "breakpointOnError") { event in
            if case .event(.error, _) = event { return .bool(true) }
            return .bool(false)
        }, at: args.context.location, report: args.context.output, spelling: args.context.dialect.completionSpelling)
    }
}
