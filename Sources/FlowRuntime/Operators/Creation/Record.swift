extension OperatorSpec {
    static let record = source("record", aliases: ["Record"], "Combine's recording: emits the recorded values, then the recorded completion",
        [labelled("output", .value), labelled("completion", .value)],
        example: #"""
            marbles(Record(output: [1, 2, 3], completion: .finished), Record(output: [1], completion: .failure("lost")))
            """#,
        differences: "Combine's `Record(output:completion:)`, at once, as Combine plays it to each subscriber. Its recording-closure form is written `create { observer in ... }`.") { args in
        let output = try args.value(0)!.asArray()
        guard case .event(let completion, _) = args.value(1)!, completion.isTerminal else {
            let given = args.value(1)!
            throw FlowError("Record's completion is .finished or .failure(error), got \(given.typeName) \(given.literal)",
                            at: args.context.location)
        }
        guard case .error(let error) = completion else { return .from(output, name: "Record") }
        return .concat([.from(output, name: "Record"), .error(error)])
    }
}
