import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
import FlowTestSupport
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
        let outcome = program.run(on: .virtual)
        for diagram in outcome.diagrams { try LaneRoundTripTests.expectLanesReadBack(diagram, script) }
        return outcome.diagrams.map(\.text)
    }

    @Test func queuedInnerStreamsStartWhenTheyAreSubscribed() throws {
        let lanes = try traced(#"marbles(cold("-a-b-c|").concatMap { x in cold("--x-y|") })"#)
        #expect(lanes.last == """
                                               0    5    10   15
            cold("-a-b-c|")                    -a-b-c|
            concatMap { x in cold("--x-y|") }  ---x-y--x-y--x-y|
              ↳ for a                           --x-y|
              ↳ for b                                --x-y|
              ↳ for c                                     --x-y|
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

    /// Each traced event knows the event it was made from, through stages
    /// that are not drawn: what the page follows when a marble is clicked.
    @Test func eventsKnowWhatTheyWereMadeFrom() throws {
        let program = try Program(file: SourceFile(path: "made.flow", text: """
            marbles(cold("-a-b|").map { $0 + "!" }.filter { $0 != "b!" }.startWith("s").flatMap { x in cold("-(xy)|", x: x, y: x + "?") })
            """), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        program.tracesEverything = true
        let diagram = try #require(program.run(on: .virtual).laneDiagrams.last)
        let labels = diagram.lanes.map(\.label)
        func lane(_ prefix: String) throws -> Int { try #require(labels.firstIndex { $0.hasPrefix(prefix) }, "\(labels)") }
        let (source, map, filter, start, flatMap) = (try lane("cold"), try lane("map"), try lane("filter"), try lane("startWith"), try lane("flatMap"))
        typealias Place = LaneDiagram.EventPlace
        // a → a! passes the filter; b → b! does not; completions have no origin.
        #expect(diagram.lanes[map].madeFrom == [Place(lane: source, event: 0), Place(lane: source, event: 1), nil])
        #expect(diagram.lanes[filter].madeFrom == [Place(lane: map, event: 0), nil])
        // startWith's own value comes from no drawn lane; "a!" is the filter's,
        // through the concat that startWith is made of.
        #expect(diagram.lanes[start].madeFrom == [nil, Place(lane: filter, event: 0), nil])
        // Each inner value is made from startWith's value, and each output
        // from its inner value.
        let inners = labels.indices.filter { labels[$0].contains("↳") }
        #expect(inners.count == 2)
        #expect(diagram.lanes[inners[1]].madeFrom.prefix(2) == [Place(lane: start, event: 1), Place(lane: start, event: 1)])
        #expect(diagram.lanes[flatMap].madeFrom.prefix(4) == [Place(lane: inners[0], event: 0), Place(lane: inners[0], event: 1),
                                                              Place(lane: inners[1], event: 0), Place(lane: inners[1], event: 1)])
    }

    /// A chain re-subscribed or fanned out a great many times draws its
    /// first lanes and says how many more there were: tracing an endless
    /// `repeat` ends as quickly as running it.
    @Test func manySubscriptionsAreDrawnByTheirFirstLanes() throws {
        let lanes = try traced(#"marbles(cold("-a|").repeat(100))"#)
        let trace = try #require(lanes.last)
        #expect(trace.hasPrefix("(not drawn: 88 more subscriptions and inner streams)"), "\(trace)")
        #expect(trace.contains(#"cold("-a|") #12"#) && !trace.contains(#"cold("-a|") #13"#))
        #expect(trace.contains("repeat(100)"))
        let inner = try traced("marbles(range(0, 1000).flatMap { x in just(x) }.count())")
        #expect(inner.last?.contains("(not drawn: 976 more subscriptions and inner streams)") == true, "\(inner)")
    }

    @Test func windowsAreNumbered() throws {
        let lanes = try traced(#"marbles(cold("-a-b-c-d|").window(count: 2).flatMap { $0.toArray() })"#)
        #expect(lanes.last?.contains("  ↳ toArray of window 2") == true, "\(lanes)")
        #expect(lanes.last?.contains(#"e = cold("-a-(b|)")"#) == true, "\(lanes)")
    }

    /// A lane of groups prints each as the `cold` stream it was, which an
    /// expectation takes as a value; a group that differs is told by its events.
    @Test func groupLanesPasteIntoAnExpectation() throws {
        let drawn = try runScript(#"marbles(cold("-1-2-3-4|").groupBy { $0 % 2 == 0 ? "even" : "odd" })"#).out.joined(separator: "\n")
        #expect(drawn.contains(#"a = cold("1---3--|"), b = cold("2---4|")"#), "\(drawn)")
        let source = #"""
            let groups = cold("-1-2-3-4|").groupBy { $0 % 2 == 0 ? "even" : "odd" }
            test "pasted" { expect(groups).toBe("-a-b----|", a: cold("1---3--|"), b: cold("2---4|")) }
            test "one frame off" { expect(groups).toBe("-a-b----|", a: cold("1---3--|"), b: cold("2--4|")) }
            """#
        let tests = try runScript(source).tests
        #expect(tests[0].1.passed)
        let told = try #require(tests[1].1.failures.first?.message)
        #expect(told.contains("actual:   -a-c----|"), "\(told)")
        #expect(told.contains(#"expected next(cold("2--4|")) 'b', got next(cold("2---4|")) 'c'"#), "\(told)")
    }

    @Test func groupsAreNamedByTheirKeys() throws {
        let lanes = try traced(#"marbles(cold("-1-2-3-4|").groupBy { $0 % 2 }.flatMap { $0.toArray() })"#)
        #expect(lanes.last?.contains("  ↳ toArray of group 1") == true)
        #expect(lanes.last?.contains(#"a = cold("1---3--|"), b = cold("2---4|")"#) == true, "\(lanes)")
    }

    /// A traced stage that emits streams draws them nested as
    /// `marbles(...)` does, by the same rule: groups and windows as the
    /// script's own subscription fed them, a marble stream as its marble
    /// says from where it was made, any other stream subscribed only to
    /// be drawn when it is free of side effects, else saying why not.
    @Test func aTracedStreamOfStreamsIsDrawnNested() throws {
        let script = """
            let numbers = cold("-1--2|")
            let made = numbers.map { n in cold("-x|", x: n) }
            let timers = numbers.map { n in timer(2ms).map { _ in n * 10 } }
            let printed = numbers.map { n in timer(1ms).map { _ in print("ran \\(n)") } }
            let groups = cold("-1-2-3-4|").groupBy { $0 % 2 }
            let windows = cold("-a-b-c-d|").window(count: 2)
            made.subscribe()
            timers.subscribe()
            printed.subscribe()
            groups.subscribe()
            windows.subscribe()
            """
        let lanes = try traced(script)
        #expect(lanes == [
            """
                                                   0    5
            numbers                                -1--2|
            made = map { n in cold("-x|", x: n) }  -a--b|
              ↳ cold("-x|", x: n)                   -1|
              ↳ cold("-x|", x: n)                      -2|
            legend                                 a = cold("-1|"), b = cold("-2|")
            """,
            """
                                                                  0    5
            numbers                                               -1--2|
            timers = map { n in timer(2ms).map { _ in n * 10 } }  -a--b|
              ↳ map { _ in n * 10 }                                --(c|)
              ↳ map { _ in n * 10 }                                   --(d|)
            legend                                                a = cold("--(a|)", a: 10), b = cold("--(a|)", a: 20), c = 10, d = 20
            """,
            """
                                                                    0    5
            numbers                                                 -1--2|
            printed = map { n in timer(1ms).map { _ in print("ran…  -a--b|
              ↳ map { _ in print("ran \\(n)") }                       not drawn: map { _ in print("ran \\(n)") } runs a closure that may have side effects
              ↳ map { _ in print("ran \\(n)") }                          not drawn: map { _ in print("ran \\(n)") } runs a closure that may have side effects
            legend                                                  a = <stream map>, b = <stream map>
            """,
            """
                                         0    5
            cold("-1-2-3-4|")            -1-2-3-4|
            groups = groupBy { $0 % 2 }  -a-b----|
              ↳ group 1                   1---3--|
              ↳ group 0                     2---4|
            legend                       a = cold("1---3--|"), b = cold("2---4|")
            """,
            """
                                        0    5    10
            cold("-a-b-c-d|")           -a-b-c-d|
            windows = window(count: 2)  e--f---g|
              ↳ window 1                -a-(b|)
              ↳ window 2                   --c-(d|)
              ↳ window 3                       -|
            legend                      e = cold("-a-(b|)"), f = cold("--c-(d|)"), g = cold("-|")
            """,
        ], "\(lanes.joined(separator: "\n\n"))")

        // The nested lanes are the ones `marbles(...)` draws of the same streams.
        let drawn = try runScript("""
            let numbers = cold("-1--2|")
            marbles(numbers.map { n in timer(2ms).map { _ in n * 10 } })
            marbles(cold("-1-2-3-4|").groupBy { $0 % 2 })
            """).out.joined(separator: "\n")
        for row in ["  ↳ map { _ in n * 10 }", "  ↳ group 1", "  ↳ group 0"] {
            let inTrace = lanes.joined(separator: "\n").split(separator: "\n").first { $0.hasPrefix(row) }
            let inMarbles = drawn.split(separator: "\n").first { $0.hasPrefix(row) }
            #expect(inTrace.map { $0.dropFirst(row.count).trimmingCharacters(in: .whitespaces) }
                        == inMarbles.map { $0.dropFirst(row.count).trimmingCharacters(in: .whitespaces) }, "\(row)")
        }
    }

    /// In the trace's picture each nested lane's line begins where its
    /// stream was made and stops at its end; a stream that is not drawn
    /// says why, from where it was made, with no line.
    @Test func aTracedStreamOfStreamsIsPicturedNested() throws {
        let program = try Program(file: SourceFile(path: "nested.flow", text: """
            let groups = cold("-1-2-3-4|").groupBy { $0 % 2 }
            let printed = cold("-1|").map { n in timer(1ms).map { _ in print(n) } }
            groups.subscribe()
            printed.subscribe()
            """), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        program.tracesEverything = true
        let diagrams = program.run(on: .virtual).laneDiagrams
        #expect(diagrams.count == 2)
        let svg = SVGDiagram(diagrams)
        let geometry = SVGGeometry(svg.text)
        let columns = try #require(svg.columnCenters.first)
        let grouped = try #require(diagrams.first)
        #expect(grouped.lanes.map(\.label) == [#"cold("-1-2-3-4|")"#, "groups = groupBy { $0 % 2 }", "  ↳ group 1", "  ↳ group 0"])
        // group 1 is made at 1 and ends at 8; group 0 is made at 3 and ends at 8.
        for (lane, made, end) in [(2, 1, 8), (3, 3, 8)] {
            let line = try #require(geometry.laneLines.first { $0.diagram == 0 && $0.lane == lane })
            #expect(abs(line.x1 - columns[made]) < 0.01, "lane \(lane) begins at \(line.x1), made at \(columns[made])")
            #expect(line.ends == "completed" && abs(line.x2 - columns[end]) < 0.01, "lane \(lane) ends at \(line.x2)")
            let xs = geometry.marks.filter { $0.diagram == 0 && $0.lane == lane }.map(\.x)
            #expect(xs.count == 3 && abs(xs[0] - columns[made]) < 0.01, "lane \(lane): \(xs)")
        }
        #expect(svg.text.contains("not drawn: map { _ in print(n) } runs a closure that may have side effects"), "\(svg.text)")
        #expect(!geometry.laneLines.contains { $0.diagram == 1 && $0.lane == 2 }, "a lane not drawn has no line")
    }

    /// Stages are labelled with their `let` names, a multi-line expression
    /// as one line, and the nodes `startWith` is made of are not drawn.
    /// `groupBy`'s groups and `window`'s windows branch off their lane at
    /// the time each began, labelled by its key; a marble stream a `map`
    /// made branches off where it was made.
    @Test func groupsAndWindowsBranchOffTheirLane() throws {
        let program = try Program(file: SourceFile(path: "groups.flow", text: """
            let numbers = cold("-1-2-3-4|")
            let parity = numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" }
            marbles(parity, numbers.window(count: 2), numbers.map { _ in cold("-x|") })
            """), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        let outcome = program.run(on: .virtual)
        let text = try #require(outcome.diagrams.first?.text)
        let rows = text.split(separator: "\n").map(String.init)
        // Each lane from the ruler's 0 on.
        let origin = try #require(rows.first?.firstIndex(of: "0")).utf16Offset(in: rows[0])
        func lane(_ label: String) -> String? {
            rows.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }.map { String($0.dropFirst(origin)) }
        }
        #expect(lane("parity") == "-a-b----|", "\(text)")
        #expect(lane(#"↳ group "odd""#) == " 1---3--|", "\(text)")
        #expect(lane(#"↳ group "even""#) == "   2---4|", "\(text)")
        #expect(lane("↳ window 2") == "   --3-(4|)", "\(text)")
        #expect(rows.filter { $0.contains(#"↳ cold("-x|")"#) }.map { String($0.dropFirst(origin)) } == [" -x|", "   -x|", "     -x|", "       -x|"],
                "\(text)")
        // In the picture, a branch begins where its key was emitted.
        let svg = SVGDiagram(outcome.laneDiagrams, title: "groups").text
        #expect(svg.contains(#"data-l="1" data-e="0" data-t="1""#), "\(svg)")
    }

    /// `map { cold(...) }` is a stream of streams, not flattened: each marble
    /// stream it made is drawn nested under its lane, from where it was made,
    /// as it would play if subscribed then; the lanes read back as their
    /// events, the outer lane pastes into an expectation, and the marble
    /// stream is not subscribed to be drawn (its subscription log is empty).
    @Test func marbleStreamsAMapMadeAreDrawnNestedWhereTheyWereMade() throws {
        let script = """
            let numbers = cold("-1--2|")
            let made = numbers.map { n in cold("-x-(y|)", x: n, y: n * 10) }
            marbles(made)
            """
        let program = try Program(file: SourceFile(path: "made.flow", text: script), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        let outcome = program.run(on: .virtual)
        let rendered = try #require(outcome.diagrams.first)
        try LaneRoundTripTests.expectLanesReadBack(rendered, script)
        let rows = rendered.text.split(separator: "\n").map(String.init)
        let origin = try #require(rows.first?.firstIndex(of: "0")).utf16Offset(in: rows[0])
        let nested = rows.filter { $0.contains("↳ cold(") }.map { String($0.dropFirst(origin)) }
        #expect(nested == [" -1-(c|)", "    -2-(d|)"], "\(rendered.text)")
        #expect(rendered.text.contains(#"c = 10, d = 20"#), "\(rendered.text)")
        let outer = try #require(rows.first { $0.hasPrefix("made") }).dropFirst(origin)
        #expect(outer == "-a--b|", "\(rendered.text)")
        #expect(rendered.text.contains(#"a = cold("-1-(a|)", a: 10), b = cold("-2-(a|)", a: 20)"#), "\(rendered.text)")

        // In the picture: each inner lane's line begins at the column it was made in, its marks at their times.
        let diagram = try #require(outcome.laneDiagrams.first)
        #expect(diagram.lanes.map { $0.start?.frames } == [nil, 1, 4], "\(diagram.lanes.map(\.label))")
        let svg = SVGDiagram(outcome.laneDiagrams)
        let geometry = SVGGeometry(svg.text)
        let columns = try #require(svg.columnCenters.first)
        for (lane, made) in [(1, 1), (2, 4)] {
            let line = try #require(geometry.laneLines.first { $0.lane == lane })
            #expect(abs(line.x1 - columns[made]) < 0.01, "lane \(lane) begins at \(line.x1), made at \(columns[made])")
            let xs = geometry.marks.filter { $0.lane == lane }.sorted { $0.event < $1.event }.map(\.x)
            #expect(xs.count == 3 && abs(xs[0] - columns[made + 1]) < 0.01 && abs(xs[1] - columns[made + 3]) < 0.01 && abs(xs[2] - xs[1]) < 0.01,
                    "lane \(lane): \(xs)")
            #expect(line.ends == "completed" && abs(line.x2 - xs[2]) < 0.01)
        }

        // Pasted into a test, the outer lane passes; the marble streams were never subscribed.
        let tested = try runScript(script + """

            test "pasted" { expect(made).toBe("-a--b|", a: cold("-1-(a|)", a: 10), b: cold("-2-(a|)", a: 20)) }
            test "not subscribed" {
              let inner = cold("-x|")
              expect(numbers.map { _ in inner }).toBe("-a--a|", a: cold("-x|"))
              expect(inner.subscriptions).toBe([])
            }
            """).tests
        #expect(tested.count == 2 && tested.allSatisfy { $0.1.passed }, "\(tested.map { $0.1.failures.map(\.message) })")
    }

    /// Windows and groups end where they completed: window 1's line stops
    /// at its `|`, where window 2 begins, not frames later; each lane's
    /// line stops at its end.
    @Test func nestedLanesEndWhereTheyEnded() throws {
        let program = try Program(file: SourceFile(path: "windows.flow", text: """
            let numbers = cold("-1-2-3-4-5|")
            marbles(numbers.window(count: 2), numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" })
            """), console: Console(out: { _ in }, err: { _ in }, color: false))
        program.drawsLanes = false
        let outcome = program.run(on: .virtual)
        let diagram = try #require(outcome.laneDiagrams.first)
        let geometry = SVGGeometry(SVGDiagram(outcome.laneDiagrams).text)
        let nested = diagram.lanes.indices.filter { diagram.lanes[$0].start != nil || diagram.lanes[$0].label.contains("↳") }
        #expect(nested.count >= 5, "\(diagram.lanes.map(\.label))")
        for index in diagram.lanes.indices {
            let lane = diagram.lanes[index]
            let line = try #require(geometry.laneLines.first { $0.lane == index })
            guard let last = lane.events.last, last.event.isTerminal else { continue }
            let terminal = try #require(geometry.marks.first { $0.lane == index && $0.event == lane.events.count - 1 })
            #expect(line.ends == "completed" && abs(line.x2 - terminal.x) < 0.01, "\(lane.label): its line ends at \(line.x2), its | is at \(terminal.x)")
        }
        // Window 1 ends where window 2 begins.
        let windows = diagram.lanes.indices.filter { diagram.lanes[$0].label.contains("window") && diagram.lanes[$0].label.contains("↳") }
        #expect(windows.count == 3)
        let firstEnd = try #require(geometry.laneLines.first { $0.lane == windows[0] }).x2
        let secondStart = try #require(geometry.laneLines.first { $0.lane == windows[1] }).x1
        #expect(abs(firstEnd - secondStart) < 0.01, "window 1 ends at \(firstEnd), window 2 starts at \(secondStart)")
    }

    /// One request where `share()` made one: the shared source is drawn
    /// once, in one diagram with every chain that reads it, with every
    /// subscriber of the share marked `^` … `!`, counted and named by the
    /// chain it served; without `share()`, each chain shows its own
    /// subscription of the source.
    @Test func aSharedSourceIsDrawnOnceWithItsSubscribers() throws {
        let shared = try traced("""
            let request = cold("--r|").share()
            let a = request.map { $0 + "1" }
            let b = request.map { $0 + "2" }
            marbles(a, b)
            """)
        #expect(shared.dropFirst() == ["""
                                    0
            cold("--r|")            --r|
            request = share()       --r|
              subscriber 1 of 2: a  ^--!
              subscriber 2 of 2: b  ^--!
            a = map { $0 + "1" }    --a|
            b = map { $0 + "2" }    --b|
            legend                  a = "r1", b = "r2"
            """], "\(shared.joined(separator: "\n\n"))")
        let unshared = try traced("""
            let request = cold("--r|")
            marbles(request.map { $0 + "1" }, request.map { $0 + "2" })
            """)
        // Two requests: each chain's own.
        #expect(unshared.filter { $0.contains("\nrequest           --r|") }.count == 2 && !unshared.joined().contains("subscriber"), "\(unshared)")
    }

    /// A share read as an inner stream draws the one request it made,
    /// once, with each inner stream it served as a subscriber.
    @Test func aSharedInnerStreamDrawsItsOneRequest() throws {
        let lanes = try traced("""
            let request = cold("--r|").share()
            let clicks = cold("-a-b|")
            clicks.flatMap { _ in request }.subscribe()
            """)
        #expect(lanes == ["""
                                               0
            clicks                             -a-b   |
            flatMap { _ in request }           ---[rr]|
              ↳ for a                           --r   |
              ↳ for b                             r   |
              cold("--r|"), shared by request   --r   |
              subscriber 1 of 2: for a         -^--   !
              subscriber 2 of 2: for b         ---^   !
            """], "\(lanes.joined(separator: "\n\n"))")
    }

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
        // A stage by its operator as written, its name beside it.
        #expect(lanes[1] == """
                                       0
            src                        -   a-b|
            started = startWith(1, 2)  [12]a-b|
            doubled = map { $0 }       [12]a-b|
            """)
    }

    @Test func aLongLabelIsCutBetweenWords() {
        let label = LaneDiagram.displayLabel("source.flatMap { v in\n    cold(\"-x-y|\", x: v + \"1\", y: v + \"2\") }.filter { $0 != nil }")
        #expect(label == "source.flatMap { v in cold(\"-x-y|\", x: v + \"1\", y: v +…")
        #expect(label.terminalColumns <= LaneDiagram.longestLabel)
    }
}

/// Every lane the examples draw, traced stage by stage, and every lane a
/// failed expectation prints, reads back as the events it shows.
@Suite struct ExampleLaneRoundTripTests {
    @Test(arguments: flowFiles(in: projectDirectory.appendingPathComponent("examples")))
    func everyLaneOfAnExampleReadsBack(_ name: String) throws {
        let path = projectDirectory.appendingPathComponent("examples/" + name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for tracing in [false, true] {
            let program = try Program(file: SourceFile(path: name, text: text), console: Console(out: { _ in }, err: { _ in }, color: false),
                                      modules: IOModules.unrestricted)
            program.drawsLanes = false
            program.tracesEverything = tracing
            program.marblesForBindings = true
            let outcome = program.run(on: .virtual)
            // An example that needs its arguments (an API's address) does nothing without them.
            if !text.contains("args.first") { #expect(outcome.diagrams.contains { !$0.marbles.isEmpty }, "\(name) draws nothing") }
            for diagram in outcome.diagrams { try LaneRoundTripTests.expectLanesReadBack(diagram, name) }
            for test in program.testNames.indices {
                for diagram in program.runTest(test).diagrams { try LaneRoundTripTests.expectLanesReadBack(diagram, "\(name) test \(test)") }
            }
        }
    }

    /// The expected and actual lanes of a failure, drawn on one time axis,
    /// read back as the two streams compared.
    @Test func failureLanesReadBack() throws {
        let cases: [(String, String)] = [
            ("-a-b|", "-a-c|"), ("(ab)c|", "[ab]c|"), ("[abc]-d|", "-a-b-c-d|"), ("a 30ms b|", "a 31ms b|"),
            ("-[ab|]", "-(ab)|"), ("--#", "--a-#"),
        ]
        for (expectedText, actualText) in cases {
            let expected = try MarbleParser.parseEvents(expectedText).events
            let actual = try MarbleParser.parseEvents(actualText).events
            let mismatch = try #require(MarbleComparison.compare(expected: expected, actual: actual))
            #expect(try MarbleParser.parseEvents(mismatch.expected).events.map(\.description) == expected.map(\.description))
            #expect(try MarbleParser.parseEvents(mismatch.actual).events.map(\.description) == actual.map(\.description))
            // One axis: each lane's first difference is under the caret's column or after it.
            #expect(mismatch.expected.terminalColumns >= mismatch.caretColumn && mismatch.actual.terminalColumns >= mismatch.caretColumn)
        }
    }
}
