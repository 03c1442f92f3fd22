import FlowLanguage
import FlowMarbles
import FlowRuntime
import Testing

/// `--trace` draws every inner stream from where it was subscribed to
/// where it ended or was cancelled, and each chain with its own
/// subscriptions of the sources it reads.
@Suite struct TraceLaneTests {
    /// The trace diagrams of a script run in virtual time, as printed.
    func traced(_ script: String) throws -> [String] {
        let program = try Program(file: SourceFile(path: "trace.flow", text: script), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        program.tracesEverything = true
        let outcome = program.run(virtual: true)
        for diagram in outcome.diagrams { try LaneRoundTripTests.expectLanesReadBack(diagram, script) }
        return outcome.diagrams.map(\.text)
    }

    @Test func queuedInnerStreamsStartWhenTheyAreSubscribed() throws {
        let lanes = try traced(#"marbles(cold("-a-b-c|").concatMap { x in cold("--x-y|") })"#)
        #expect(lanes.last == """
                                               0    5    10   15
            cold("-a-b-c|")                    -a-b-c|
            concatMap { x in cold("--x-y|") }  ---x-y--x-y--x-y|
              ↳ cold("--x-y|")                  --x-y|
              ↳ cold("--x-y|")                       --x-y|
              ↳ cold("--x-y|")                            --x-y|
            """)
    }

    @Test func fallbacksAndResubscriptionsStartWhereTheyStart() throws {
        let lanes = try traced("""
            marbles(cold("-a#").catch { e in cold("--z|") })
            marbles(cold("-a----b|").timeout(3ms, other: cold("-y|")))
            marbles(cold("-a#").retry(2))
            """)
        #expect(lanes[3].contains("  ↳ cold(\"--z|\")               --z|"))
        #expect(lanes[4].contains("cold(\"-a----b|\")                  -a--!"))
        #expect(lanes[4].contains("  ↳ cold(\"-y|\")                       -y|"))
        #expect(lanes[5].contains("cold(\"-a#\") #2    -a#"))
        #expect(lanes[5].contains("cold(\"-a#\") #3      -a#"))
    }

    @Test func eachChainShowsOnlyItsOwnSubscriptionOfASharedSource() throws {
        let lanes = try traced("""
            let src = cold("-a|")
            marbles(src.map { $0 }, src.filter { _ in true })
            """)
        #expect(lanes.dropFirst().allSatisfy { !$0.contains("#2") }, "\(lanes)")
    }

    @Test func groupsAreNamedByTheirKeys() throws {
        let lanes = try traced(#"marbles(cold("-1-2-3-4|").groupBy { $0 % 2 }.flatMap { $0.toArray() })"#)
        #expect(lanes.last?.contains("  ↳ toArray of group 1") == true)
        #expect(lanes.last?.contains("a = <group 1>, b = <group 0>") == true)
    }

    /// Stages are labelled with their `let` names, a multi-line expression
    /// as one line, and the nodes `startWith` is made of are not drawn.
    @Test func lanesAreLabelledWithTheirNames() throws {
        let lanes = try traced("""
            let src = cold("-a-b|")
            let started = src.startWith(1, 2)
            let doubled = started.map {
                $0
            }
            marbles(doubled, src.map {
              $0
            })
            """)
        #expect(lanes[0] == """
                            0
            doubled         [12]a-b|
            src.map { $0 }  -   a-b|
            """)
        #expect(lanes[1] == """
                     0
            src      -   a-b|
            started  [12]a-b|
            doubled  [12]a-b|
            """)
    }

    @Test func aLongLabelIsCutBetweenWords() {
        let label = LaneDiagram.displayLabel("source.flatMap { v in\n    cold(\"-x-y|\", x: v + \"1\", y: v + \"2\") }.filter { $0 != nil }")
        #expect(label == "source.flatMap { v in cold(\"-x-y|\", x: v + \"1\", y: v +…")
        #expect(label.terminalColumns <= LaneDiagram.longestLabel)
    }
}
