import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct MarbleParserTests {
    func parse(_ m: String, _ values: [String: Value] = [:], hot: Bool = false) throws -> [String] {
        try MarbleParser.parseEvents(m, values: values, allowSubscriptionPoint: hot).events.map(\.description)
    }

    @Test func framesValuesAndTerminals() throws {
        #expect(try parse("-a--b|") == ["next(\"a\")@1", "next(\"b\")@4", "completed@5"])
        #expect(try parse("-1-#") == ["next(1)@1", "error(\"error\")@3"])
        #expect(try parse("a", ["a": 42]) == ["next(42)@0"])
    }

    @Test func spacesAreIgnoredAndGroupsShareAFrame() throws {
        #expect(try parse(" - a ") == ["next(\"a\")@1"])
        #expect(try parse("-(ab)-c") == ["next(\"a\")@1", "next(\"b\")@1", "next(\"c\")@6"])
        #expect(try parse("(a|)") == ["next(\"a\")@0", "completed@0"])
    }

    @Test func timeProgressions() throws {
        #expect(try parse("a 10ms b") == ["next(\"a\")@0", "next(\"b\")@11"])
        #expect(try parse("- 1.5s |").last == "completed@1501")
        #expect(try parse("2m |") == ["completed@120000"])
        // Hours too (it read 1h as the values 1 and h).
        #expect(try parse("- 1h a|") == ["next(\"a\")@3600001", "completed@3600002"])
        #expect(MarbleParser.digitsBeforeALetter(in: "- 1h a|") == nil)
        // Digits then a letter where a time is read, and no unit: flagged.
        #expect(MarbleParser.digitsBeforeALetter(in: "- 10x |") == 2)
        #expect(MarbleParser.digitsBeforeALetter(in: "2sec |") == 0)
        #expect(MarbleParser.digitsBeforeALetter(in: "-1a-|") == nil)
        // A digit not followed by a unit and a space is a value.
        #expect(try parse("1 2") == ["next(1)@0", "next(2)@1"])
        #expect(try parse("-10ms") == ["next(1)@1", "next(0)@2", "next(\"m\")@3", "next(\"s\")@4"])
    }

    @Test func hotSubscriptionPoint() throws {
        #expect(try parse("--a--^--b|", hot: true) == ["next(\"a\")@-3", "next(\"b\")@3", "completed@4"])
    }

    @Test func subscriptionMarbles() throws {
        #expect(try MarbleParser.parseSubscription("--^---!") == SubscriptionLog(subscribed: .milliseconds(Int64(2)), unsubscribed: .milliseconds(Int64(6))))
        #expect(try MarbleParser.parseSubscription("^") == SubscriptionLog(subscribed: .zero, unsubscribed: nil))
        #expect(try MarbleParser.parseSubscription("(^!)") == SubscriptionLog(subscribed: .zero, unsubscribed: .zero))
        #expect(try MarbleParser.parseSubscription("^ 10ms !").unsubscribed == .milliseconds(Int64(11)))
    }

    @Test func timeOfAMarble() throws {
        #expect(try MarbleParser.duration(of: "---|") == .milliseconds(Int64(3)))
        #expect(try MarbleParser.duration(of: "----") == .milliseconds(Int64(4)))
    }

    @Test func malformedMarblesAreClearErrors() {
        func offending(_ m: String, hot: Bool = false) -> (String, Int)? {
            do {
                _ = try MarbleParser.parseEvents(m, allowSubscriptionPoint: hot)
                return nil
            } catch let e as MarbleSyntaxError {
                return (e.message, e.offset)
            } catch { return nil }
        }
        #expect(offending("-(a") ?? ("", -1) == ("'(' is never closed", 1))
        #expect(offending("-a)")?.1 == 2)
        #expect(offending("((a))")?.0 == "groups cannot nest")
        #expect(offending("-^-a")?.0.contains("only allowed in hot") == true)
        #expect(offending("^-^", hot: true)?.0 == "a second '^'")
        #expect(offending("-a-!")?.0.contains("unsubscription") == true)
        #expect(offending("-|-a")?.0.contains("after '|'") == true)
        #expect(throws: MarbleSyntaxError.self) { try MarbleParser.parseSubscription("-a") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleParser.parseSubscription("-!-^") }
    }
}

@Suite struct MarbleRenderingTests {
    func render(_ m: String, _ values: [String: Value] = [:]) throws -> String {
        var legend = MarbleLegend(presets: values)
        return MarbleRenderer.render(try MarbleParser.parseEvents(m, values: values).events, legend: &legend).text
    }

    @Test func rendersWhatItParses() throws {
        for m in ["-a--b|", "(ab)-c|", "--#", "-1-2-(3|)", "", "a"] {
            #expect(try render(m) == m)
        }
        #expect(try render("-a-b|", ["a": 10, "b": [1]]) == "-a-b|")
    }

    @Test func valuesThatAreNotOneCharacterGetLetters() {
        var legend = MarbleLegend()
        let events = [TimedEvent(.milliseconds(Int64(1)), .next(10)), TimedEvent(.milliseconds(Int64(2)), .next("long")),
                      TimedEvent(.milliseconds(Int64(3)), .next(10)), TimedEvent(.milliseconds(Int64(4)), .next("b"))]
        let lane = MarbleRenderer.render(events, legend: &legend)
        // "b" stands for itself: values that read as themselves are given
        // their symbols before any value is given a letter.
        #expect(lane.text == "-acab")
        #expect(legend.explanations(for: lane.symbols) == ["a = 10", "c = \"long\""])
    }

    /// Events at frames 0, 0 and 1 (RxJS issue 5677): a `( )` group would
    /// take four frames, so the lane uses flow's one-frame group `[ ]`.
    @Test func aGroupFollowedAtOnceIsWrittenAsAOneFrameGroup() throws {
        let events = [TimedEvent(.zero, .next("a")), TimedEvent(.zero, .next("b")), TimedEvent(.milliseconds(Int64(1)), .next("c")),
                      TimedEvent(.milliseconds(Int64(3)), .completed)]
        var legend = MarbleLegend()
        let lane = MarbleRenderer.render(events, legend: &legend)
        #expect(lane.text == "[ab]c-|")
        let parsed = try MarbleParser.parseEvents(lane.text).events
        #expect(parsed.map(\.description) == events.map(\.description))
        // Where the next event is far enough, RxJS's group is used as is.
        var other = MarbleLegend()
        #expect(MarbleRenderer.render(Array(events.prefix(2)) + [TimedEvent(.milliseconds(Int64(5)), .completed)], legend: &other).text
                == "(ab)-|")
    }

    @Test func oneFrameGroupsParse() throws {
        let parsed = try MarbleParser.parseEvents("-[ab|]").events
        #expect(parsed.map(\.description) == ["next(\"a\")@1", "next(\"b\")@1", "completed@1"])
        #expect(try MarbleParser.parseEvents("[ab]--c").events.last?.time == .milliseconds(Int64(3)))
        #expect(throws: MarbleSyntaxError.self) { try MarbleParser.parseEvents("[ab)") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleParser.parseEvents("-[a") }
    }

    /// Lanes drawn together line up by time: the lane without the group is
    /// padded with spaces (which marble syntax ignores) and still reads
    /// back as its own events.
    @Test func lanesDrawnTogetherShareOneTimeAxis() throws {
        let plain = try MarbleParser.parseEvents("-a-b|").events
        let grouped = try MarbleParser.parseEvents("[12]a-b|").events
        var legend = MarbleLegend()
        let lanes = MarbleRenderer.render(lanes: [plain, grouped], legend: &legend)
        #expect(lanes.map(\.text) == ["-   a-b|", "[12]a-b|"])
        #expect(lanes[0].columns == [4, 6, 7])
        #expect(lanes[1].columns == [0, 0, 4, 6, 7])
        for (lane, events) in zip(lanes, [plain, grouped]) {
            #expect(try MarbleParser.parseEvents(lane.text).events.map(\.description) == events.map(\.description))
        }
    }

    @Test func theLegendNeverRunsOut() throws {
        var legend = MarbleLegend()
        let events = (0..<300).map { TimedEvent(.milliseconds(Int64($0)), .next(.int(100 + $0))) }
        let lane = MarbleRenderer.render(events, legend: &legend)
        #expect(!lane.text.contains("?"))
        #expect(lane.symbols.count == 300)
        let values = Dictionary(uniqueKeysWithValues: legend.entries.map { (String($0.symbol), $0.value) })
        #expect(try MarbleParser.parseEvents(lane.text, values: values).events.map(\.description) == events.map(\.description))
    }

    @Test func subscriptionLogs() {
        #expect(MarbleRenderer.render(SubscriptionLog(subscribed: .milliseconds(Int64(2)), unsubscribed: .milliseconds(Int64(5)))) == "--^--!")
        #expect(MarbleRenderer.render(SubscriptionLog(subscribed: .zero, unsubscribed: nil)) == "^")
        #expect(MarbleRenderer.render(SubscriptionLog(subscribed: .milliseconds(Int64(1)), unsubscribed: .milliseconds(Int64(1)))) == "-(^!)")
    }
}

@Suite struct ExpectationFailureTests {
    func failures(_ body: (MarbleRun) throws -> Void) rethrows -> [String] {
        let run = MarbleRun()
        try body(run)
        return run.run().map(\.message)
    }

    @Test func aWrongValueIsShownAlignedWithACaret() throws {
        let messages = try failures { run in
            try run.expect(ColdStream("-a--b|", values: ["a": 1, "b": 3]), toBe: "-a--b|", values: ["a": 1, "b": 2])
        }
        #expect(messages == ["""
            expected: -a--b|
            actual:   -a--3|
                          ^ value differs at frame 4: expected next(2) 'b', got next(3)
            legend:   a = 1, b = 2
            """])
    }

    @Test func aWrongFrameOrKindIsNamed() throws {
        let frame = try failures { run in try run.expect(ColdStream("--a|"), toBe: "-a-|") }
        #expect(frame.first?.contains("frame differs: expected next(\"a\") at frame 1, got it at frame 2") == true)
        let kind = try failures { run in try run.expect(ColdStream("-a#"), toBe: "-a|") }
        #expect(kind.first?.contains("kind differs: expected completion at frame 2, got error(\"error\") at frame 2") == true)
        let missing = try failures { run in try run.expect(ColdStream("-a"), toBe: "-a|") }
        #expect(missing.first?.contains("missing event: expected completion at frame 2") == true)
        let extra = try failures { run in try run.expect(ColdStream("-a-b"), toBe: "-a") }
        #expect(extra.first?.contains("unexpected event: next(\"b\") at frame 3") == true)
    }

    @Test func errorsMatchAnyUnlessAValueIsGiven() throws {
        #expect(try failures { try $0.expect(ColdStream("-#", error: "x"), toBe: "-#") }.isEmpty)
        #expect(try failures { try $0.expect(ColdStream("-#", error: "x"), toBe: "-#", error: "x") }.isEmpty)
        #expect(try failures { try $0.expect(ColdStream("-#", error: "x"), toBe: "-#", error: "y") }.count == 1)
    }

    @Test func subscriptionLogMismatch() throws {
        let messages = try failures { run in
            let cold = try ColdStream("-a|")
            try run.expect(cold, toBe: "-a|")
            try run.expectSubscriptions(cold, toBe: ["^-!", "^-!"])
        }
        #expect(messages.first?.contains("subscriptions differ (first at entry 2)") == true)
    }

    @Test func aRunThatNeverEndsFailsSayingSo() throws {
        let run = MarbleRun()
        run.actionLimit = 1000
        try run.expect(.interval(.milliseconds(Int64(1))), toBe: "-0")
        let messages = run.run().map(\.message)
        #expect(messages.first?.contains("the run never went idle") == true)
    }
}

@Suite struct MarbleHintTests {
    func mismatch(expected: String, actual: String, _ values: [String: Value]) throws -> MarbleMismatch? {
        let e = try MarbleParser.parseEvents(expected).events
        let a = try MarbleParser.parseEvents(actual, values: values).events
        return MarbleComparison.compare(expected: e, actual: a)
    }

    @Test func aValueOfSeveralCharactersWrittenInlineGetsAHint() throws {
        let found = try #require(try mismatch(expected: "-10-|", actual: "-a-|", ["a": 10]))
        #expect(found.hint == #"each character of a marble is one event: write 10 as one symbol with its value, as in toBe("-a-", a: 10)"#)
        #expect(found.description.hasSuffix("\n" + "hint:     " + found.hint!))
    }

    @Test func theRightEventAtTheWrongFrameGetsAHint() throws {
        let group = try #require(try mismatch(expected: "(ab)c|", actual: "[ab]c|", [:]))
        #expect(group.hint?.hasPrefix("the event is right but 3 frames too late in the expected lane") == true)
        #expect(group.hint?.contains("[ab] is a group of one frame") == true)
        let early = try #require(try mismatch(expected: "a-|", actual: "-a|", [:]))
        #expect(early.hint?.hasPrefix("the event is right but 1 frame too early") == true)
    }

    @Test func otherDifferencesGetNoHint() throws {
        #expect(try mismatch(expected: "-12-|", actual: "-a-|", ["a": 10])?.hint == nil)
        #expect(try mismatch(expected: "--a|", actual: "-a-|", ["a": 1])?.hint == nil)
    }
}
