import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct AggregationTests {
    @Test func reduceCountToArraySum() {
        marbles { m in
            let e1 = m.cold("-1-2-3|")
            m.expect(e1.reduce(0, add), "------(6|)")
            m.expect(e1.reduce(nil, add), "------(6|)")
            m.expect(m.cold("--|").reduce(7, add), "--(7|)")
            m.expect(m.cold("--|").reduce(nil, add), "--#", error: "no elements")
            m.expect(e1.count(), "------(3|)")
            m.expect(e1.count(pred { $0.i > 1 }), "------(2|)")
            m.expect(e1.toArray(), "------(x|)", ["x": [1, 2, 3]])
            m.expect(e1.sum(), "------(6|)")
            m.expect(m.cold("-1-#").sum(), "---#")
        }
    }

    @Test func minMax() {
        marbles { m in
            let e1 = m.cold("-3-1-2|")
            m.expect(e1.min(), "------(1|)")
            m.expect(e1.max(), "------(3|)")
            m.expect(m.cold("-|").min(), "-|")
            m.expect(m.cold("-1-a|").max(), "---#")
        }
    }

    @Test func predicatesDecideAsSoonAsTheyCan() {
        marbles { m in
            let e1 = m.cold("-1-2-3|")
            m.expect(e1.isEmpty(), "-(f|)", ["f": false])
            m.expect(m.cold("--|").isEmpty(), "--(t|)", ["t": true])
            m.expect(e1.contains(2), "---(t|)", ["t": true])
            m.expect(e1.contains(9), "------(f|)", ["f": false])
            m.expect(e1.allSatisfy(pred { $0.i < 2 }), "---(f|)", ["f": false])
            m.expect(e1.allSatisfy(pred { $0.i < 9 }), "------(t|)", ["t": true])
            m.expect(m.cold("--|").defaultIfEmpty(0), "--(0|)")
            m.expect(e1.defaultIfEmpty(0), "-1-2-3|")
            m.subscriptions(e1, "^!", "^--!", "^-----!", "^--!", "^-----!", "^-----!")
        }
    }
}
