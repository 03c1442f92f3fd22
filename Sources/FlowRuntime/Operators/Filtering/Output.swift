extension OperatorSpec {
    static let output = method("output", .filtering, "the values at the positions of a range (0..<2, 1...3), then completion",
        [labelled("in", .value)],
        example: #"""
            let source = cold("-a-b-c-d|")
            marbles(source, source.output(in: 1..<3), source.output(in: 2...5))
            """#,
        differences: "Combine's `output(in:)`; `output(at:)` is `elementAt`. RxSwift and RxJS write `skip(m).take(n)`.") { source, args in
        let positions = try args.value(0)!
        let indices: [Int]
        do { indices = try positions.asArray().map { try $0.asInt() } } catch {
            throw FlowError("output(in:) takes a range of positions such as 1..<3, got \(positions.typeName) \(positions.literal)",
                            at: args.context.location)
        }
        guard let first = indices.first, let last = indices.last else { return .empty() }
        guard first >= 0, indices.elementsEqual(first...last) else {
            throw FlowError("output(in:) takes a range of positions from 0 up, such as 1..<3, got \(positions.literal)", at: args.context.location)
        }
        return source.skip(first).take(last - first + 1)
    }
}
