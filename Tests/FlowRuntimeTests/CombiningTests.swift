import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct CombiningTests {
    @Test func mergeInterleavesAndCompletesWhenAllComplete() {
        marbles { m in
            let a = m.cold("-a---b|")
            let b = m.cold("--c-d---|")
            m.expect(.merge([a, b]), "-ac-db--|")
            let c = m.cold("-a#")
            let d = m.cold("--b")
            m.expect(.merge([c, d]), "-a#")
            m.subscriptions(d, "^-!")
        }
    }

    @Test func concatSubscribesEachAfterThePrevious() {
        marbles { m in
            let a = m.cold("-a|")
            let b = m.cold("-b|")
            m.expect(.concat([a, b]), "-a-b|")
            m.subscriptions(a, "^-!")
            m.subscriptions(b, "--^-!")
            let c = m.cold("-#")
            let d = m.cold("-b|")
            m.expect(.concat([c, d]), "-#")
            m.subscriptions(d)
        }
    }

    @Test func zipPairsByIndexAndCompletesWhenAnExhaustedSourceEnds() {
        marbles { m in
            let a = m.cold("-a-b-c|", ["a": 1, "b": 2, "c": 3])
            let b = m.cold("--x---y|", ["x": 10, "y": 20])
            m.expect(.zip([a, b]), "--x---y|", ["x": .tuple([1, 10]), "y": .tuple([2, 20])])
            m.expect(.zip([m.cold("-a|"), m.cold("---x---y|")]), "---(p|)", ["p": .tuple(["a", "x"])])
            m.expect(.zip([m.cold("-1-2|"), m.cold("-3-4|")], combine: add), "-4-6|")
            m.expect(.zip([m.cold("-1-#"), m.cold("-3-4|")]), "-x-#", ["x": .tuple([1, 3])])
        }
    }

    @Test func combineLatestEmitsOnceAllHaveAValue() {
        marbles { m in
            let a = m.cold("-a---b|", ["a": 1, "b": 2])
            let b = m.cold("--x-y---|", ["x": 10, "y": 20])
            m.expect(.combineLatest([a, b]), "--x-yz--|", ["x": .tuple([1, 10]), "y": .tuple([1, 20]), "z": .tuple([2, 20])])
            m.expect(.combineLatest([a, b], combine: add), "--x-yz--|", ["x": 11, "y": 21, "z": 22])
            let c = m.cold("--#")
            let d = m.cold("-1-2-3|")
            m.expect(.combineLatest([c, d]), "--#")
            m.subscriptions(d, "^-!")
        }
    }

    @Test func withLatestFromSamplesOthersOnEachSourceValue() {
        marbles { m in
            let source = m.cold("-a--b--c|")
            let other = m.cold("--x----y|")
            m.expect(source.withLatestFrom([other]), "----m--n|", ["m": .tuple(["b", "x"]), "n": .tuple(["c", "y"])])
            m.expect(m.cold("-a--b|").withLatestFrom([m.cold("--#")]), "--#")
        }
    }

    @Test func startWithAndEndWith() {
        marbles { m in
            m.expect(m.cold("-----a|").startWith([1, 2]), "(12)-a|")
            m.expect(m.cold("-a|").endWith([9]), "-a(9|)")
        }
    }

    @Test func ambFollowsTheFirstToSpeak() {
        marbles { m in
            let a = m.cold("---a|")
            let b = m.cold("-b-c|")
            m.expect(.amb([a, b]), "-b-c|")
            m.subscriptions(a, "^!")
            m.subscriptions(b, "^---!")
        }
    }
}
