import FlowRuntime

/// `flow doc` for what is not an operator: the list of every operator by
/// family, and the language's own words for testing and drawing (`cold`,
/// `hot`, `expect`, `marbles`, `time`) and the marble notation.
extension OperatorDocs {
    /// Every operator by family, each family's names wrapped to `width`.
    public static func index(width: Int, bold: (String) -> String = { $0 }) -> String {
        var lines: [String] = []
        for family in OperatorSpec.Family.allCases {
            let names = operatorTable.entries.filter { $0.family == family }.map(\.name)
            guard !names.isEmpty else { continue }
            lines.append(bold(family.rawValue))
            lines += wrap(names.joined(separator: ", "), width: width - 2).map { "  " + $0 }
        }
        lines.append(bold("the language") + "\n  " + languageEntries.keys.sorted().joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + word.count + 1 > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The entries of the language's own words, by name.
    public static let languageEntries: [String: String] = [
        "cold": """
            cold(marbles, a: value, ..., error: value) → Stream
              A stream that plays the marbles for each subscriber, from the moment it subscribes.
              Each character is a frame (1 ms): - nothing, a symbol a value, | completion,
              # error, ( ) events in one frame. Symbols without a value argument are themselves
              (a digit is an Int). See `flow doc notation`.
            example:
              let s = cold("-a-b|", a: 1, b: 2)
              expect(s.map { $0 * 10 }).toBe("-a-b|", a: 10, b: 20)
            """,
        "hot": """
            hot(marbles, a: value, ...) → Stream
              A stream that plays the marbles once, on the clock, whoever listens: a subscriber
              sees only what comes after it subscribes. ^ marks frame 0, the moment the test
              starts; events before it have happened already. Hot streams made earlier fire
              first within a frame, as in RxJS.
            example:
              let clicks = hot("--a-^-b-c|")
              expect(clicks).toBe("--b-c|")
            """,
        "expect": """
            expect(stream, subscription: marbles, unsubscribe: marbles).toBe(marbles, a: value, ..., error: value)
              In a test block: subscribes (at frame 0, or at ^ of subscription:), runs the virtual
              clock until nothing is left to do, and compares every event and its frame.
              expect(s.subscriptions).toBe("^--!") compares when a source was subscribed and left.
              toBe("???") marks an exercise not answered yet: answered by placing marbles in
              flow serve; reveal: true shows its right lane once an answer is checked
              (in a learner's own playground; a class sees a lane only after giving up).
              A stream of streams (groupBy, window) is expected with cold(...) values, each
              timed from when it was emitted: toBe("-a-b|", a: cold("1-3|"), b: cold("2|")).
            example:
              test "take ends early" {
                expect(cold("-a-b-c|").take(2)).toBe("-a-(b|)")
              }
            """,
        "marbles": """
            marbles(stream, ..., title: text) → nothing
              Draws the streams' lanes, aligned on one time axis, as the run observed them. A
              lane is labelled with its stream's name (a label, `marbles(doubled: d)`, names it
              too); `title:` names the diagram. `flow run --svg FILE` (or `--png FILE`) draws
              them as a picture.
            example:
              let s = cold("-1-2-3|")
              marbles(title: "map doubles each value", s, s.map { $0 * 2 })
            """,
        "EMPTY": """
            EMPTY → Stream
              RxJS's constant for a stream that completes at once: `empty()` as a value.
            example:
              expect(EMPTY).toBe("|")
              expect(merge(EMPTY, cold("-a|"))).toBe("-a|")
            """,
        "NEVER": """
            NEVER → Stream
              RxJS's constant for a stream that never emits nor ends: `never()` as a value.
            example:
              expect(cold("-a|").takeUntil(NEVER)).toBe("-a|")
              expect(race(NEVER, cold("--b|"))).toBe("--b|")
            """,
        "type": """
            type(of: value) → the value's type
              Its type as Swift prints it: the declared type where one is known here (a `Double`
              parameter, an `Int?`, a `(Int) -> Int` closure), else the value's own kind (its struct,
              enum or class; `Array<Int>`). Equal to `T.self`: `type(of: x) == Double.self`.
            example:
              let price: Double = 5
              print(type(of: price), type(of: [1, 2]), type(of: price) == Double.self)
            """,
        "time": """
            time(marbles) → Duration
              The frame of the first event in a marble string, as a duration: a subscription or a
              delay written with the same notation as the lanes.
            example:
              let at = time("---^")
              expect(cold("-a|").delaySubscription(at)).toBe("----a|")
            """,
        "notation": """
            The marble notation (RxJS's, in run mode)
              -        one frame (1 ms) in which nothing happens
              a, 1, x  an event: a symbol, given a value by an argument (a: 42); alone, a digit
                       is an Int and a letter its own String
              |        completion          #   error (its value from error:, else "error")
              (ab)     events in one frame; the group takes as many frames as its characters
              [ab]     flow's one-frame group: events in one frame, and the group takes one frame
              ^        the subscription (hot streams, subscription: marbles); ! unsubscription
              space    ignored: it lines lanes up
              10ms     time progression: that much time passes (also 1.5s, 2m, 1h)
              ???      an expected lane not written yet (an exercise)
            example:
              expect(cold("-a 10ms b|")).toBe("-a 10ms b|")
              expect(merge(cold("(ab)|"), cold("-c|"))).toBe("[ab]c--|")
            """,
    ]
}
