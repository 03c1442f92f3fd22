import FlowRuntime
import Testing

@testable import FlowLanguage

/// The compiler gives a closure of at most two parameters and expression
/// statements a specialised form as it compiles it (Specialisation.swift).
/// The form must compute what the frame form computes: each closure here is
/// run as written and again with a `let` first, which keeps it in a frame.
@Suite struct SpecialisationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// The call, with CLOSURE where the closure goes.
        let call: String
        let parameters: String
        let body: String
        var testDescription: String { call.replacingOccurrences(of: "CLOSURE", with: "{ \(parameters) \(body) }") }
    }

    static let cases: [Case] = [
        Case(call: "map(CLOSURE)", parameters: "", body: "$0 * 2 + 1"),
        Case(call: "filter(CLOSURE)", parameters: "x in", body: "x % 3 == 0"),
        Case(call: "scan(0, CLOSURE)", parameters: "a, b in", body: "a + b"),
        Case(call: "scan(0, CLOSURE)", parameters: "a, b in", body: "b - a"),
        Case(call: "map(CLOSURE)", parameters: "", body: #"$0 > 2 ? "big" : "small""#),
        Case(call: "map(CLOSURE)", parameters: "", body: "-$0"),
        Case(call: "filter(CLOSURE)", parameters: "", body: "!($0 > 1) || $0 == 3"),
        Case(call: "map(CLOSURE)", parameters: "", body: "[$0, $0 * 2][1]"),
        Case(call: "map(CLOSURE)", parameters: "", body: "($0 > 1 ? nil : $0) ?? 7"),
        Case(call: "map(CLOSURE)", parameters: "x in", body: "outer.count + x"),
        Case(call: "map(CLOSURE)", parameters: "", body: "outer[$0 % 2] * factor"),
        Case(call: "flatMap(CLOSURE)", parameters: "x in", body: "range(x, 2)"),
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "just($0)"),
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "just($0).map { $0 * 10 }.take(1)"),
        Case(call: "map(CLOSURE)", parameters: "", body: "[1, 2, 3].first { $0 > 1 }"),
        Case(call: "map(CLOSURE)", parameters: "", body: "[$0, 1].sorted()"),
        Case(call: "do(onNext: CLOSURE)", parameters: "", body: "sent.send($0)"),
        Case(call: "do(onNext: CLOSURE)", parameters: "", body: "sent.send($0 + 100); sent.send(-$0)"),
        Case(call: "do(onNext: CLOSURE)", parameters: "x in", body: "range(x, 1).sink(record)"),
        // An operator's one argument read in place: an outer name, a
        // literal, an expression.
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "just($0).map(triple)"),
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "range($0, 3).take(2)"),
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "range($0, 3).take(two)"),
        Case(call: "flatMap(CLOSURE)", parameters: "", body: "range(0, 5).skip($0 + 1)"),
    ]

    /// What a script prints with `closure` as the operator's argument.
    func printed(_ call: String, _ closure: String) throws -> [String] {
        let script = """
            let outer = [10, 20]
            let factor = 3
            let sent = subject()
            let record = { sent.send($0 * 1000) }
            let triple = { $0 * 3 }
            let two = 2
            sent.sink { print("sent \\($0)") }
            range(0, 4).\(call.replacingOccurrences(of: "CLOSURE", with: closure)).sink { print($0) }
            """
        let result = try runScript(script)
        #expect(result.err.isEmpty, "\(result.err)")
        return result.out
    }

    @Test(arguments: cases)
    func specialisedFormsComputeWhatFramesDo(_ c: Case) throws {
        let specialised = try printed(c.call, "{ \(c.parameters) \(c.body) }")
        let framed = try printed(c.call, "{ \(c.parameters)\n let forced = 0\n \(c.body) }")
        #expect(!specialised.isEmpty)
        #expect(specialised == framed)
    }

    /// A statement that subscribes itself (`.print()`) does so in any
    /// closure; the second walk this replaced did not, where the closure
    /// was one such statement.
    @Test func aPrintStatementInAClosureSubscribes() throws {
        let result = try runScript(#"range(0, 2).map { x in just(x).print("in") }.sink { _ in }"#)
        #expect(result.out.contains("in: receive value: (1)"), "\(result.out)")
    }
}
