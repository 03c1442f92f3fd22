import FlowMarbles
import Testing

@testable import FlowRuntime

@Suite struct UtilityTests {
    @Test func doRunsSideEffectsInOrder() {
        var log: [String] = []
        let hook = { (name: String) in Function.variadic { args in log.append(name + args.map(\.description).joined()); return .null } }
        let stream = Observable.from([1, 2]).do(
            onNext: hook("next"), onError: hook("error"), onCompleted: hook("completed"),
            onSubscribe: hook("subscribe"), onDispose: hook("dispose"))
        _ = collect(stream)
        #expect(log == ["subscribe", "next1", "next2", "completed", "dispose"])
    }

    @Test func doHookErrorsBecomeStreamErrors() {
        marbles { m in
            m.expect(m.cold("-a-b|").do(onNext: fn { v in if v == "b" { throw FlowError("bad b") }; return .null }), "-a-#", error: "bad b")
        }
    }

    @Test func printUsesCombinesFormat() {
        var lines: [String] = []
        _ = collect(Observable.from(["a", 1]).print("x") { lines.append($0) })
        #expect(lines == [
            "x: receive subscription: (from)", "x: request unlimited", "x: receive value: (a)", "x: receive value: (1)",
            "x: receive finished",
        ])
        lines = []
        _ = collect(Observable.error(FlowError("boom")).print { lines.append($0) })
        #expect(lines.last == "receive error: (boom)")
        lines = []
        _ = collect(Observable.interval(.milliseconds(Int64(1))).print("t") { lines.append($0) }.take(1))
        #expect(lines.suffix(2) == ["t: receive value: (0)", "t: receive cancel"])
    }

    @Test func materializeAndDematerialize() {
        marbles { m in
            let e1 = m.cold("-a-#", error: "boom")
            m.expect(e1.materialize(), "-x-(y|)", ["x": .event(.next("a")), "y": .event(.error(FlowError("boom")))])
            m.expect(m.cold("-a|").materialize(), "-x(y|)", ["x": .event(.next("a")), "y": .event(.completed)])
            m.expect(e1.materialize().dematerialize(), "-a-#", error: "boom")
            m.expect(m.cold("-a|").dematerialize(), "-#")
        }
    }
}
