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
            let mixed = [1, "a"]
            let n = 3
            let broken = clicks.debunce(2ms)
            let s = "after"

            """)
        #expect(found["mixed"] == nil, "[Any] says nothing")
        #expect(found["n"] == "Int")
        #expect(found["s"] == "String")
    }

    @Test func parametersLoopVariablesAndConditionBindings() {
        let found = Self.types("""
            let prices = [1, 2, 3]
            let doubled = prices.map { p in p * 2 }
            let halves = prices.map { (q: Double) in q / 2 }
            func scaled(_ amount: Int, by factor: Double) -> Double { Double(amount) * factor }
            for price in prices { print(price) }
            let maybe: String? = "x"
            if let word = maybe { print(word) }
            func first(_ names: [String]) -> String {
              guard let name = names.first else { return "" }
              return name
            }

            """)
        #expect(found["p"] == "Int", "a closure's parameter is given the array's elements")
        #expect(found["q"] == "Double", "a written type holds")
        #expect(found["amount"] == "Int")
        #expect(found["factor"] == "Double")
        #expect(found["price"] == "Int")
        #expect(found["word"] == "String", "if let unwraps the optional")
        #expect(found["name"] == "String", "guard let unwraps the optional")
    }

    @Test func shorthandArgumentsByWhereEachIsWritten() {
        let text = """
            let ticks = PassthroughSubject<Double, Never>()
            let labels = ticks.map { "\\($0)" }
            let names = ["a", "b"]
            let loud = names.map { $0.uppercased() }

            """
        let types = Program.bindingTypes(SourceFile(path: "t.flow", text: text))
        let uses = text.ranges(of: "$0").map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) }
        #expect(uses.count == 2)
        #expect(uses.map { types[$0] } == ["Double", "String"])
    }

    @Test func aMarbleStreamHasTheTypeOfItsValues() {
        let found = Self.types("""
            let letters = cold("-a-b|")
            let digits = cold("-1-2-|")
            let labelled = hot("-a-^-b|", a: 1.5, b: 2.5)
            let mixed = cold("-a-b|", a: 1, b: "two")
            let empty = cold("---|")
            test "in a block" {
              let inner = cold("-a|", a: true)
              expect(inner.map { $0 }).toBe("-a|", a: true)
            }

            """)
        #expect(found["letters"] == "Observable<String>")
        #expect(found["digits"] == "Observable<Int>")
        #expect(found["labelled"] == "Observable<Double>")
        #expect(found["mixed"] == nil, "values of two types")
        #expect(found["empty"] == nil, "no value to say")
        #expect(found["inner"] == "Observable<Bool>")
        #expect(found["$0"] == "Bool", "the closure on a marble stream is given its values")
    }
}
