import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct TransformationTests {
    @Test func mapValuesCompletionErrorsAndDisposal() {
        marbles { m in
            let e1 = m.cold("-a-b-|", ["a": 1, "b": 2])
            m.expect(e1.map(times(10)), "-a-b-|", ["a": 10, "b": 20])
            let e2 = m.cold("-a-#", ["a": 1])
            m.expect(e2.map(times(10)), "-a-#", ["a": 10])
            let e3 = m.cold("-a-b-|", ["a": 1, "b": 2])
            m.expect(e3.map(times(10)), "-a", ["a": 10], unsubscribe: "--!")
            m.subscriptions(e1, "^----!")
            m.subscriptions(e2, "^--!")
            m.subscriptions(e3, "^-!")
        }
    }

    @Test func aThrowingClosureBecomesAStreamError() {
        marbles { m in
            let e1 = m.cold("-a-b-|", ["a": 1, "b": 0])
            m.expect(e1.map(fn { try Value.divide(10, $0) }), "-a-#", ["a": 10], error: "division by zero")
            m.subscriptions(e1, "^--!")
        }
    }

    @Test func compactMapDropsNil() {
        marbles { m in
            let e1 = m.cold("-1-2-3-4|")
            m.expect(e1.compactMap(fn { $0.i % 2 == 0 ? $0 : .null }), "---2---4|")
        }
    }

    @Test func scanWithAndWithoutSeed() {
        marbles { m in
            let e1 = m.cold("-1-2-3|")
            m.expect(e1.scan(0, add), "-a-b-c|", ["a": 1, "b": 3, "c": 6])
            m.expect(e1.scan(nil, add), "-a-b-c|", ["a": 1, "b": 3, "c": 6])
            m.expect(e1.scan(10, add), "-a-b-c|", ["a": 11, "b": 13, "c": 16])
            m.expect(m.cold("-1-#").scan(0, add), "-1-#")
        }
    }

    @Test func bufferByCount() {
        marbles { m in
            let e1 = m.cold("-a-b-c-|")
            m.expect(e1.buffer(count: 2), "---x---(y|)", ["x": ["a", "b"], "y": ["c"]])
            m.expect(e1.buffer(count: 2, skip: 1), "---x-y-(z|)", ["x": ["a", "b"], "y": ["b", "c"], "z": ["c"]])
            m.expect(m.cold("-a-#").buffer(count: 2), "---#")
        }
    }

    @Test func bufferByTime() {
        marbles { m in
            m.expect(m.cold("-a-b---c-|").buffer(timeSpan: .milliseconds(Int64(3))), "---x--y--(z|)",
                     ["x": ["a"], "y": ["b"], "z": ["c"]])
            m.expect(m.cold("-a-b-c---|").buffer(timeSpan: .milliseconds(Int64(5)), count: 2), "---x----y(z|)",
                     ["x": ["a", "b"], "y": ["c"], "z": []])
        }
    }

    @Test func windowByCountAndTime() {
        marbles { m in
            let e1 = m.cold("-a-b-c-|")
            m.expect(e1.window(count: 2).flatMap(fn { try .stream($0.asStream().toArray()) }), "---x---(y|)",
                     ["x": ["a", "b"], "y": ["c"]])
            m.expect(m.cold("-a-b-c-|").window(timeSpan: .milliseconds(Int64(4))).flatMap(fn { try .stream($0.asStream().toArray()) }),
                     "----x--(y|)", ["x": ["a", "b"], "y": ["c"]])
        }
    }

    @Test func groupByRoutesValuesToOneStreamPerKey() {
        marbles { m in
            let e1 = m.cold("-1-2-3-4-|")
            let groups = e1.groupBy(fn { .int($0.i % 2) })
            m.expect(groups.flatMap(fn { try .stream($0.asStream().toArray()) }), "---------(xy|)", ["x": [1, 3], "y": [2, 4]])
            m.expect(groups.map(fn { try $0.member("key") }), "-1-0-----|")
        }
    }

    @Test func pairwiseEnumeratedTimestampTimeInterval() {
        marbles { m in
            let e1 = m.cold("-a-b-c|")
            m.expect(e1.pairwise(), "---x-y|", ["x": .tuple(["a", "b"]), "y": .tuple(["b", "c"])])
            m.expect(e1.pairwise(fn2 { try Value.add($0, $1) }), "---x-y|", ["x": "ab", "y": "bc"])
            m.expect(e1.enumerated(), "-x-y-z|", ["x": .tuple([0, "a"]), "y": .tuple([1, "b"]), "z": .tuple([2, "c"])])
            let e2 = m.cold("-a--b|")
            let ms = { (n: Int64) in Value.duration(.milliseconds(n)) }
            m.expect(e2.timestamp(), "-x--y|", ["x": .tuple(["a", ms(1)]), "y": .tuple(["b", ms(4)])])
            m.expect(e2.timeInterval(), "-x--y|", ["x": .tuple(["a", ms(1)]), "y": .tuple(["b", ms(3)])])
        }
    }

    @Test func enumeratedAndTimestampHaveNamedMembers() throws {
        let first = values(collect(Observable.just("a").enumerated()))[0]
        #expect(try first.member("index") == 0)
        #expect(try first.member("element") == "a")
    }
}
