import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
import FlowTestSupport
import Testing

/// A stream of streams that nothing flattens is drawn nested whatever its
/// inner streams are made of: each one free of side effects is subscribed
/// only to be drawn, on a clock of its own, from where it was made; one
/// that is not says why in its lane; and a drawing never changes what the
/// script or its tests see.
@Suite struct InnerStreamDrawingTests {
    /// The `marbles(...)` diagrams of a script run in virtual time, each
    /// checked to read back, with what the script printed.
    func drawn(_ script: String) throws -> (diagrams: [LaneDiagram.Rendered], laneDiagrams: [LaneDiagram], out: [String]) {
        let captured = Captured()
        let program = try Program(file: SourceFile(path: "inner.flow", text: script), console: console(captured))
        program.drawsLanes = false
        let outcome = program.run(on: .virtual)
        for diagram in outcome.diagrams { try LaneRoundTripTests.expectLanesReadBack(diagram, script) }
        return (outcome.diagrams, outcome.laneDiagrams, captured.out)
    }

    /// Each lane of a rendered diagram from the time axis's origin, by its label.
    func lanes(_ rendered: LaneDiagram.Rendered) throws -> [(label: String, lane: String)] {
        let rows = rendered.text.split(separator: "\n").map(String.init)
        let origin = try #require(rows.first?.firstIndex(of: "0")).utf16Offset(in: rows[0])
        return rows.dropFirst().filter { !$0.hasPrefix("legend") && !$0.hasPrefix(" ") || $0.contains("↳") }.map { row in
            let label = String(row.prefix(origin)).trimmingCharacters(in: .whitespaces)
            return (label, String(row.dropFirst(origin)))
        }
    }

    @Test func streamsOfJustTimerAndDelayedMarblesAreDrawnNestedWhereTheyWereMade() throws {
        let script = """
            let numbers = cold("-1--2|")
            marbles(numbers.map { n in just(n) })
            marbles(numbers.map { n in timer(2ms).map { _ in n * 10 } })
            marbles(numbers.map { n in cold("-x|", x: n).delay(1ms) })
            """
        let (diagrams, laneDiagrams, _) = try drawn(script)
        #expect(diagrams.count == 3)
        let just = try lanes(diagrams[0]).map(\.lane)
        #expect(just == ["-a--b|", " (1|)", "    (2|)"], "\(diagrams[0].text)")
        #expect(diagrams[0].text.contains(#"a = cold("(1|)"), b = cold("(2|)")"#), "\(diagrams[0].text)")
        let timers = try lanes(diagrams[1]).map(\.lane)
        #expect(timers == ["-a--b|", " --(c|)", "    --(d|)"], "\(diagrams[1].text)")
        #expect(diagrams[1].text.contains(#"a = cold("--(a|)", a: 10), b = cold("--(a|)", a: 20)"#), "\(diagrams[1].text)")
        let delayed = try lanes(diagrams[2]).map(\.lane)
        #expect(delayed == ["-a--b|", " --1|", "    --2|"], "\(diagrams[2].text)")
        #expect(!diagrams.contains { $0.text.contains("<stream") })

        // In the picture, each inner lane's line begins where it was made and ends at its `|`.
        let svg = SVGDiagram([laneDiagrams[1]])
        let geometry = SVGGeometry(svg.text)
        let columns = try #require(svg.columnCenters.first)
        for (lane, made) in [(1, 1), (2, 4)] {
            let line = try #require(geometry.laneLines.first { $0.lane == lane })
            #expect(abs(line.x1 - columns[made]) < 0.01, "lane \(lane) begins at \(line.x1), made at \(columns[made])")
            let xs = geometry.marks.filter { $0.lane == lane }.map(\.x)
            #expect(xs.count == 2 && xs.allSatisfy { abs($0 - columns[made + 2]) < 0.01 }, "lane \(lane): \(xs)")
            #expect(line.ends == "completed" && abs(line.x2 - columns[made + 2]) < 0.01)
        }
    }

    /// The outer lane's legend pastes into an expectation, which compares
    /// each inner stream by what it sends; the very stream that was
    /// emitted is still matched by itself.
    @Test func theOuterLanePastesIntoAnExpectation() throws {
        let tested = try runScript("""
            let numbers = cold("-1--2|")
            test "pasted" {
              expect(numbers.map { n in timer(2ms).map { _ in n * 10 } }).toBe("-a--b|", a: cold("--(a|)", a: 10), b: cold("--(a|)", a: 20))
              expect(numbers.map { n in just(n) }).toBe("-a--b|", a: cold("(1|)"), b: cold("(2|)"))
            }
            test "the same stream" {
              let one = just(1)
              expect(numbers.map { _ in one }).toBe("-a--a|", a: one)
            }
            test "a wrong inner stream fails" {
              expect(numbers.map { n in just(n) }).toBe("-a--b|", a: cold("(1|)"), b: cold("(3|)"))
            }
            """).tests
        #expect(tested.count == 3)
        #expect(tested[0].1.passed && tested[1].1.passed, "\(tested.map { $0.1.failures.map(\.message) })")
        #expect(!tested[2].1.passed)
    }

    /// A stream whose parts may have side effects is never subscribed to be
    /// drawn: its lane says why, and its code does not run.
    @Test func innerStreamsWithSideEffectsAreNotDrawnAndSayWhy() throws {
        let (diagrams, laneDiagrams, out) = try drawn("""
            let numbers = cold("-1--2|")
            var total = 0
            let s = subject()
            marbles(numbers.map { n in timer(1ms).map { _ in print("ran \\(n)") } })
            marbles(numbers.map { n in timer(1ms).map { x in total += x } })
            marbles(numbers.map { _ in s })
            marbles(numbers.map { n in just(n).share() })
            marbles(numbers.map { n in just(n).do(onNext: { _ in }) })
            """)
        #expect(!out.contains { $0.contains("ran") }, "\(out)")
        let notes = try diagrams.map { try lanes($0).dropFirst().map { $0.lane.trimmingCharacters(in: .whitespaces) } }
        #expect(notes[0] == Array(repeating: #"not drawn: map { _ in print("ran \(n)") } runs a closure that may have side effects"#, count: 2),
                "\(diagrams[0].text)")
        #expect(notes[1].allSatisfy { $0.hasPrefix("not drawn: ") && $0.contains("side effects") }, "\(diagrams[1].text)")
        #expect(notes[2].allSatisfy { $0 == "not drawn: subject() is shared with the run" }, "\(diagrams[2].text)")
        #expect(notes[3].allSatisfy { $0.hasPrefix("not drawn: share") }, "\(diagrams[3].text)")
        #expect(notes[4].allSatisfy { $0.hasPrefix("not drawn: do") }, "\(diagrams[4].text)")
        // Said in the picture too, from where the stream was made, with no line.
        let svg = SVGDiagram([laneDiagrams[0]]).text
        #expect(svg.contains(#"class="muted lane-note""#) && svg.contains("not drawn: map"), "\(svg)")
        #expect(SVGGeometry(svg).laneLines.filter { $0.lane > 0 }.isEmpty)
        #expect(svg.contains("starts at 1, not drawn: map"), "the picture's description says it")
    }

    /// What the language finds in a closure: only computing is free of side
    /// effects; printing, changing what is not its own, random numbers,
    /// the script's functions and sending are not.
    @Test(arguments: [
        ("{ x in x * n + 1 }", nil),
        ("{ x in let y = x * 2; var z = y; z += 1; return z }", nil),
        ("{ x in [x, n].map { $0 * 2 }.reduce(0, +) }", nil),
        ("{ x in String(x) + \"!\" }", nil),
        ("{ x in if x > 1 { return x } else { return 0 } }", nil),
        ("{ x in print(x) }", "calls print"),
        ("{ x in total += x }", "changes total"),
        ("{ x in Int.random(in: 1...6) }", "calls random"),
        ("{ x in double(x) }", "calls double"),
        ("{ x in s.send(x) }", "calls send"),
        ("{ x in list.append(x) }", "calls append"),
    ] as [(String, String?)])
    func closuresAreReadForSideEffects(_ closure: String, _ effect: String?) throws {
        let (diagrams, _, _) = try drawn("""
            let numbers = cold("-1|")
            var total = 0
            var list = [0]
            let s = subject()
            func double(_ x: Int) -> Int { x * 2 }
            marbles(numbers.map { n in timer(1ms).map \(closure) })
            """)
        let diagram = try #require(diagrams.first)
        let inner = try #require(try lanes(diagram).dropFirst().first).lane
        if effect == nil {
            #expect(!inner.contains("not drawn"), "\(closure): \(inner)")
        } else {
            #expect(inner.contains("not drawn") && inner.contains("side effects"), "\(closure): \(inner)")
        }
    }

    /// A lane of very many inner streams draws the first ones, then says
    /// how many more there were, once.
    @Test func aLaneOfVeryManyInnerStreamsDrawsTheFirstAndCountsTheRest() throws {
        let (diagrams, _, _) = try drawn("marbles(range(0, 250).map { n in just(n) })")
        let rows = try lanes(#require(diagrams.first))
        let most = EventRecorder.mostDrawnInnerStreams
        #expect(rows.count == 1 + most + 1, "\(rows.count) lanes")
        #expect(rows.dropFirst().prefix(most).allSatisfy { $0.lane.hasSuffix("|)") }, "\(rows.dropFirst().prefix(3))")
        #expect(rows.last?.lane.contains("not drawn: \(250 - most) more (only the first \(most) inner streams of a lane are drawn)") == true,
                "\(rows.last.map { $0.lane } ?? "")")
    }

    /// Drawing adds nothing a test can see: no subscription of a marble
    /// stream in its log, no work that keeps the run going (an endless
    /// inner stream is drawn to the end of the run and left open), no
    /// change in what an expectation compares it with.
    @Test func drawingChangesNothingATestSees() throws {
        let script = """
            let numbers = cold("-1--2|")
            test "invisible" {
              let inner = cold("-x|")
              let made = numbers.map { _ in inner.delay(1ms) }
              expect(made).toBe("-a--b|", a: cold("--x|"), b: cold("--x|"))
              expect(inner.subscriptions).toBe([])
            }
            test "endless inner streams do not keep the run going" {
              expect(numbers.map { _ in interval(1ms) }).toBe("-a--b|", a: cold("-0123"), b: cold("-012"))
            }
            """
        let tested = try runScript(script).tests
        #expect(tested.count == 2 && tested.allSatisfy { $0.1.passed }, "\(tested.map { $0.1.failures.map(\.message) })")
        let (diagrams, _, _) = try drawn("""
            let numbers = cold("-1--2|")
            marbles(numbers.map { _ in interval(1ms) })
            """)
        let diagram = try #require(diagrams.first)
        #expect(try lanes(diagram).map(\.lane) == ["-a--b|", " -0123", "    -012"])
    }
}
