import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct LaneDiagramTests {
    func lane(_ label: String, _ marble: String, _ values: [String: Value] = [:]) throws -> LaneDiagram.Lane {
        LaneDiagram.Lane(label: label, events: try MarbleParser.parseEvents(marble, values: values).events)
    }

    @Test func exactLanesUnderARuler() throws {
        let diagram = LaneDiagram(lanes: [try lane("a", "-a--b|"), try lane("bb", "--(cd)-|")]).render()
        #expect(diagram.lines == [
            "    0    5",
            "a   -a--b|",
            "bb  --(cd)-|",
        ])
        #expect(diagram.frame == .milliseconds(Int64(1)))
    }

    @Test func aLongLegendWrapsEntryByEntryToTheDiagramsWidth() throws {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "omicron"]
        let events = words.enumerated().map { TimedEvent(.milliseconds(Int64($0.offset)), .next(.string($0.element))) }
        let diagram = LaneDiagram(lanes: [LaneDiagram.Lane(label: "s", events: events)], options: .init(maxColumns: 40)).render()
        let legend = Array(diagram.lines.drop { !$0.hasPrefix("legend") })
        #expect(legend.count > 1)
        #expect(legend.allSatisfy { $0.count <= 7 + 40 }, "\(legend)")
        #expect(legend.dropFirst().allSatisfy { $0.hasPrefix("       ") && !$0.hasPrefix("        ") })
        // Every entry is whole, on one line.
        let entries = legend.joined(separator: " ").dropFirst(6).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(entries.count == words.count)
        #expect(entries.first == "a = \"alpha\"" && entries.last == "l = \"omicron\"")
    }

    @Test func theScaleFollowsTheEvents() throws {
        let events = (1...5).map { TimedEvent(.seconds(Double($0)), .next(.int($0))) } + [TimedEvent(.seconds(5), .completed)]
        let diagram = LaneDiagram(lanes: [LaneDiagram.Lane(label: "t", events: events)]).render()
        #expect(diagram.frame == .milliseconds(Int64(100)))
        #expect(diagram.marbles == ["----------1---------2---------3---------4---------(5|)"])
        #expect(diagram.lines.first == "   0         1s        2s        3s        4s        5s")
        #expect(diagram.lines.last == "legend - = 100ms")
        let given = LaneDiagram(lanes: [LaneDiagram.Lane(label: "t", events: events)], options: .init(frame: .seconds(1))).render()
        #expect(given.marbles == ["-1234(5|)"])
    }

    /// Events a few frames apart, then a long wait: the lane is not drawn
    /// at a coarse scale that would group them (`(abc|)` reads back as
    /// frame 0), but exactly, the wait written as a time progression, and
    /// the ruler goes on after it.
    @Test func aLongWaitIsATimeProgressionNotAGroup() throws {
        let lanes = [try lane("burst", "-abc 995ms d-e|"), try lane("later", "--x 1s y")]
        let diagram = LaneDiagram(lanes: lanes).render()
        #expect(diagram.frame == .milliseconds(Int64(1)))
        // The second lane waits across the first one's instants after its gap, padded with spaces.
        #expect(diagram.marbles == ["-abc 995ms d-e|", "--x 1s         y"], "\(diagram.lines)")
        #expect(diagram.lines[0] == "       0          999", "the ruler goes on after the gap: \(diagram.lines)")
        for index in lanes.indices {
            let back = try #require(try diagram.readBack(index))
            #expect(back.map(\.description) == lanes[index].events.map(\.description))
        }
    }

    /// Whatever the scale chosen, every lane reads back as its events at
    /// that scale (a `-` is one frame of the scale): bursts and long
    /// waits, seconds apart, a dense minute, inner streams, cancellations.
    @Test func lanesReadBackAtEveryScale() throws {
        func events(_ times: [Int64], end: Int64? = nil) -> [TimedEvent] {
            times.enumerated().map { TimedEvent(.milliseconds($0.element), .next(.int($0.offset % 10))) }
                + (end.map { [TimedEvent(.milliseconds($0), .completed)] } ?? [])
        }
        var inner = LaneDiagram.Lane(label: "  ↳ inner", events: events([2000, 2500]), start: .milliseconds(Int64(1500)))
        inner.cancelled = .milliseconds(Int64(3000))
        let cases: [[LaneDiagram.Lane]] = [
            [LaneDiagram.Lane(label: "burst", events: events([0, 1, 2, 6, 1000, 1003], end: 1003))],
            [LaneDiagram.Lane(label: "seconds", events: events([1000, 2000, 3000], end: 4000)), inner],
            [LaneDiagram.Lane(label: "dense", events: events(Array(stride(from: 10, through: 2000, by: 10)), end: 2000))],
            [LaneDiagram.Lane(label: "a", events: events([5, 7, 60_000], end: 60_002)),
             LaneDiagram.Lane(label: "b", events: events([30_000, 30_001, 30_005]))],
        ]
        for lanes in cases {
            let diagram = LaneDiagram(lanes: lanes).render()
            for index in lanes.indices {
                let back = try #require(try diagram.readBack(index))
                #expect(back.map(\.description) == lanes[index].events.map(\.description),
                        "at \(diagram.frame) a column, \(diagram.marbles[index]) reads back wrong:\n\(diagram.text)")
            }
            // Events of different times never share a column.
            let times = Set(lanes.flatMap { $0.events.map(\.time) })
            let columns = Set(times.map { $0.nanoseconds / diagram.frame.nanoseconds })
            #expect(columns.count == times.count, "\(diagram.text)")
        }
    }

    @Test func valuesThatAreNotOneCharacterGetALegendOrWideColumns() throws {
        let lanes = [try lane("x", "-a-b|", ["a": "long", "b": 42])]
        let legend = LaneDiagram(lanes: lanes).render()
        #expect(legend.marbles == ["-a-b|"])
        #expect(legend.lines.last == "legend a = \"long\", b = 42")
        let wide = LaneDiagram(lanes: lanes, options: .init(wide: true)).render()
        #expect(wide.marbles == ["-long-42|"])
        #expect(wide.lines.count == 2)
    }

    @Test func errorsAndOpenLanes() throws {
        let diagram = LaneDiagram(lanes: [try lane("e", "-a#"), try lane("o", "-a-b")]).render()
        #expect(diagram.marbles == ["-a#", "-a-b"])
        #expect(diagram.lines.last == "legend # = \"error\"")
    }

    /// A group followed at once by another event widens its frame in
    /// every lane; each lane still reads back as its own events.
    @Test func lanesArePlacedByTime() throws {
        let outer = try lane("outer", "--a---b|")
        let merged = try lane("merged", "--c-d-[efc]-d-(ef)|")
        let diagram = LaneDiagram(lanes: [outer, merged]).render()
        #expect(diagram.marbles == ["--a---b    |", "--c-d-[efc]-d-(ef)|"])
        for (marble, events) in zip(diagram.marbles, diagram.events) {
            #expect(try MarbleParser.parseEvents(marble).events.map(\.description) == events.map(\.description))
        }
        #expect(diagram.lines[0] == "        0    5        10")
    }

    @Test func eachDifferentErrorHasItsOwnLegendEntry() throws {
        let diagram = LaneDiagram(lanes: [try lane("a", "-#", ["x": 0]), try lane("b", "--#"),
                                          LaneDiagram.Lane(label: "c", events: try MarbleParser.parseEvents("---#", error: "timeout").events)]).render()
        #expect(diagram.lines.last == "legend # = \"error\" (a, b), # = \"timeout\" (c)")
        #expect(diagram.errors.count == 2)
    }

    /// Literal letters keep their own symbols, whatever lane names values first.
    @Test func aValueKeepsItsSymbolAcrossLanes() throws {
        let diagram = LaneDiagram(lanes: [try lane("objects", "-x-y|", ["x": [1], "y": [2]]), try lane("letters", "-a-b-c|")]).render()
        #expect(diagram.marbles == ["-d-e|", "-a-b-c|"])
    }

    @Test func wideCharactersTakeTwoColumns() throws {
        let diagram = LaneDiagram(lanes: [try lane("猫", "-a-b|", ["a": "🐱", "b": "x"]), try lane("dogs", "-c|", ["c": "🐶"])]).render()
        #expect(diagram.marbles == ["-🐱-x|", "-🐶|"])
        // The labels line up: "猫" is two columns, padded to "dogs".
        #expect(diagram.lines[1].hasPrefix("猫    -"))
        #expect(diagram.lines[2].hasPrefix("dogs  -"))
        #expect(diagram.lines[0] == "      0")
    }

    /// On the wall clock an event due at frame 1 arrives a little late:
    /// drawn in the nearest column, it stays in its frame.
    @Test func liveTimesAreDrawnInTheNearestColumn() {
        let events = [TimedEvent(TimeSpan(nanoseconds: 1_300_000), .next("a")), TimedEvent(TimeSpan(nanoseconds: 4_900_000), .next("b")),
                      TimedEvent(TimeSpan(nanoseconds: 5_200_000), .completed)]
        var options = LaneDiagram.Options(frame: .milliseconds(Int64(1)))
        #expect(LaneDiagram(lanes: [LaneDiagram.Lane(label: "x", events: events)], options: options).render().marbles == ["-a--b|"])
        options.roundsToNearestFrame = true
        #expect(LaneDiagram(lanes: [LaneDiagram.Lane(label: "x", events: events)], options: options).render().marbles == ["-a---(b|)"])
    }

    /// On a narrow terminal a scale is chosen to fit it, and lanes that
    /// still do not fit go on in blocks, each under its part of the ruler.
    @Test func lanesFitTheTerminal() throws {
        let events = (0..<60).map { TimedEvent(.milliseconds(Int64($0 + 1)), .next(.int($0 % 10))) }
        var options = LaneDiagram.Options(frame: .milliseconds(Int64(1)), color: true)
        options.terminalWidth = 40
        let diagram = LaneDiagram(lanes: [LaneDiagram.Lane(label: "digits", events: events)], options: options).render()
        let laneLines = diagram.lines.filter { $0.hasPrefix("digits") }
        #expect(laneLines.count == 2)
        #expect(diagram.lines.allSatisfy { $0.terminalColumns <= 40 }, "\(diagram.lines)")
        #expect(laneLines.map { String($0.dropFirst(8)) }.joined() == diagram.marbles[0])
        #expect(!diagram.text.contains("\u{1B}["))
    }

    @Test func colourOnlyWhenAsked() throws {
        let lanes = [try lane("x", "-a#")]
        #expect(!LaneDiagram(lanes: lanes).render().text.contains("\u{1B}["))
        let colored = LaneDiagram(lanes: lanes, options: .init(color: true)).render().text
        #expect(colored.contains("\u{1B}[1;31m#"))
        #expect(colored.contains("\u{1B}[1;36ma"))
    }
}
