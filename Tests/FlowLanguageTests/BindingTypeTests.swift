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

    /// A stream made with operators has the type the operator's catalog
    /// gives from what its sources and closures likely carry.
    @Test func aStreamMadeWithOperatorsHasTheTypeItsOperatorsGive() {
        let found = Self.types("""
            let balance = cold("a----b---|", a: 5, b: 25)
            let price = just(10)
            let canBuy = balance.combineLatest(price).map { $0 >= $1 }
            let doubled = balance.map { $0 * 2 }
            let halves = balance.map { b in Double(b) / 2 }
            let total = balance.scan(0.0) { $0 + Double($1) }
            let pairs = balance.zip(price)
            let latest = balance.withLatestFrom(from(["a", "b"]))
            let merged = balance.merge(of(1, 2))
            let counted = balance.count()
            let all = balance.toArray()
            let inner = balance.flatMap { _ in just("x") }
            let both = combineLatest(balance, just(1.5))
            let clashing = balance.merge(just(1.5))
            let selected = balance.combineLatest(price) { a, b in a + b }
            let unsure = balance.combineLatest(price) { a, b in a.whatever(b) }
            let ticks = PassthroughSubject<Int, Never>()
            let sums = ticks.scan(0) { $0 + $1 }

            """)
        #expect(found["price"] == "Observable<Int>")
        #expect(found["canBuy"] == "Observable<Bool>", "the README's picture")
        #expect(found["doubled"] == "Observable<Int>")
        #expect(found["halves"] == "Observable<Double>")
        #expect(found["total"] == "Observable<Double>", "scan carries its seed's type")
        #expect(found["pairs"] == "Observable<(Int, Int)>")
        #expect(found["latest"] == "Observable<String>")
        #expect(found["merged"] == "Observable<Int>")
        #expect(found["counted"] == "Observable<Int>")
        #expect(found["all"] == "Observable<[Int]>")
        #expect(found["inner"] == "Observable<String>")
        #expect(found["both"] == "Observable<(Int, Double)>")
        #expect(found["clashing"] == nil, "Ints merged with Doubles have no one type")
        #expect(found["selected"] == "Observable<Int>", "the closure takes an element of each")
        #expect(found["unsure"] == nil, "a closure whose result is not known: not a tuple")
        #expect(found["sums"] == "Observable<Int>")
    }

    /// Operators called on `cold(...)` or `hot(...)` itself, not on a name
    /// bound to it, make what their marbles' values make.
    @Test func aMarbleSourceChainedAtOnceHasTheTypeItsOperatorsGive() {
        let found = Self.types("""
            let shout = cold("-a-b|").map { $0 + "!" }
            let doubled = hot("-1-^-2-3|").map { $0 * 2 }.filter { $0 > 2 }
            let counted = cold("-a-b|").count()
            let mixed = cold("-a-b|", a: 1, b: "x").map { $0 }

            """)
        #expect(found["shout"] == "Observable<String>")
        #expect(found["doubled"] == "Observable<Int>")
        #expect(found["counted"] == "Observable<Int>")
        #expect(found["mixed"] == nil, "values of two types: no one element type")
    }

    /// The likely types are the hover's alone: checking a script reads it
    /// as before (a marble's letters are likely Strings, and `$0 * 2` on
    /// them is no compile error, as it never was; nor is a scan whose
    /// closure's type the hover guesses).
    @Test func likelyTypesAreTheHoversAlone() throws {
        let text = """
            let numbers = cold("-a-b|", a: 1, b: 2)
            let letters = cold("-x-y|")
            let sums = numbers.map { $0 * 2 }.scan(0) { $0 + $1 }
            let twice = letters.map { $0 * 2 }
            let halves = numbers.map { n in n / 2.5 }
            let direct = cold("-x-y|").map { $0 * 2 }

            """
        #expect(try Program.check(SourceFile(path: "t.flow", text: text)).isEmpty)
        #expect(Self.types(text)["sums"] == "Observable<Int>")
    }
}
