import FlowLanguage
import Testing

/// `Program.bindingTypes`: what the compiler knows of each `let` and `var`,
/// by where its name is written, as an editor's hover shows it.
@Suite struct BindingTypeTests {
    static func types(_ text: String) -> [String: String] {
        let file = SourceFile(path: "t.flow", text: text)
        var byName: [String: String] = [:]
        for (offset, type) in Program.bindingTypes(file) {
            let name = text.utf8.dropFirst(offset).prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ":") }
            byName[String(decoding: name, as: UTF8.self)] = type
        }
        return byName
    }

    @Test func literalsTypedCollectionsStreamsAndFuncResults() {
        let found = Self.types("""
            let x = 5
            let d = 5.0
            let prices: [Double] = [1.5, 2.0]
            let total = prices.map { $0 * 2 }
            let ticks = PassthroughSubject<Int, Never>()
            let labels = ticks.map { "tick \\($0)" }
            struct Price { var amount: Double }
            func cheapest() -> Price { Price(amount: 1) }
            var c = cheapest()

            """)
        #expect(found["x"] == "Int")
        #expect(found["d"] == "Double")
        #expect(found["prices"] == "[Double]")
        #expect(found["total"] == "[Double]")
        #expect(found["ticks"] == "Observable<Int>")
        #expect(found["labels"] == "Observable<String>")
        #expect(found["c"] == "Price")
    }

    @Test func partlyKnownTypesAreLeftOutAndAnErrorKeepsWhatCameBefore() {
        let found = Self.types("""
            let clicks = cold("-a-b|")
            let n = 3
            let broken = clicks.debunce(2ms)
            let s = "after"

            """)
        #expect(found["clicks"] == nil, "Observable<Any> says nothing")
        #expect(found["n"] == "Int")
        #expect(found["s"] == "String")
    }
}
