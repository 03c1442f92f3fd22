import FlowLanguage
import Testing

/// `Program.memberUses`: for each member name whose receiver's type the
/// compiler knows (one of the script's types or protocols), and each call
/// of a script's func, where the member or func the code reaches is
/// declared (among overloads, the one chosen), as an editor's definition,
/// references and hover follow it.
@Suite struct MemberUseTests {
    static let script = """
        enum Coin { case usd, eur }
        struct Wallet {
          var coins: Int
          var currency: Coin = .usd
          func total() -> Int { coins * 2 }
          mutating func add(_ n: Int) { self.coins += n }
        }
        extension Wallet {
          func doubledTotal() -> Int { total() * 2 }
        }
        var w = Wallet(coins: 3, currency: .usd)
        w.add(2)
        print(w.total(), w.coins, w.doubledTotal())
        func total() -> Int { 0 }
        print(total())
        switch w.currency {
        case .usd: print("dollars")
        case .eur: print("euros")
        }

        """

    /// Each use as `line:name` (lines from 1), to the line of its declaration.
    static func uses(_ text: String) -> [String: Int] {
        let file = SourceFile(path: "t.flow", text: text)
        var byUse: [String: Int] = [:]
        for (use, declaration) in Program.memberUses(file) {
            let name = String(decoding: Array(text.utf8)[use.start..<use.end], as: UTF8.self)
            byUse["\(file.lineAndColumn(of: use.start).line):\(name)"] = file.lineAndColumn(of: declaration.start).line
        }
        return byUse
    }

    @Test func membersOfValuesSelfCasesAndExtensionsMeanTheirDeclarations() {
        let found = Self.uses(Self.script)
        #expect(found["13:total"] == 5, "w.total() is Wallet's method, not the script's func")
        #expect(found["13:coins"] == 3)
        #expect(found["13:doubledTotal"] == 9, "a method an extension adds")
        #expect(found["12:add"] == 6)
        #expect(found["6:coins"] == 3, "self.coins")
        #expect(found["5:coins"] == 3, "a bare property in a method")
        #expect(found["9:total"] == 5, "a bare method called in an extension of its type")
        #expect(found["11:usd"] == 1, "an enum case by implicit member")
        #expect(found["4:usd"] == 1)
        #expect(found["17:usd"] == 1, "a case in a switch's pattern")
        #expect(found["16:currency"] == 4)
        #expect(found["15:total"] == 14, "a call of the script's own func means it, not the method")
    }

    @Test func aCallMeansTheOverloadTheCompilerChose() {
        let found = Self.uses("""
            struct Meter {
              var value: Int
              func scaled(by factor: Int) -> Int { value * factor }
              func scaled(to unit: String) -> String { unit }
              static func make(_ n: Int) -> Meter { Meter(value: n) }
              static func make(text: String) -> Meter { Meter(value: 1) }
            }
            func area(_ side: Int) -> Int { side }
            func area(_ name: String) -> String { name }
            let m = Meter.make(text: "a")
            print(m.scaled(to: "cm"))
            print(m.scaled(by: 2))
            print(area("x"))
            print(area(3))

            """)
        #expect(found["11:scaled"] == 4, "scaled(to:), the second of its name")
        #expect(found["12:scaled"] == 3)
        #expect(found["10:make"] == 6)
        #expect(found["13:area"] == 9, "area(_: String), the second of its name")
        #expect(found["14:area"] == 8)
    }

    @Test func aReceiverTypedWhileCompilingMeansItsTypesMember() {
        let found = Self.uses("""
            struct Wallet { func total() -> Int { 2 } }
            struct Person { var wallet: Wallet; func purse() -> Wallet { wallet } }
            protocol Shape { func area() -> Double }
            struct Square: Shape { func area() -> Double { 4 } }
            let p = Person(wallet: Wallet())
            print(p.wallet.total())
            print(p.purse().total())
            print([Wallet()].map { $0.total() })
            let s: Shape? = Square()
            print(s?.area() ?? 0)

            """)
        #expect(found["6:total"] == 1, "a property's value")
        #expect(found["7:total"] == 1, "a method's result")
        #expect(found["8:total"] == 1, "$0 of a typed array's map")
        #expect(found["10:area"] == 3, "a protocol's requirement, not one conforming type's method")
    }

    @Test func aReceiverOfNoKnownScriptTypeNamesNoMember() {
        let found = Self.uses("""
            struct Box { var count: Int }
            let names = ["a", "b"]
            print(names.count)
            let boxes = [Box(count: 1)]
            print(boxes.map { $0.count })

            """)
        #expect(found["3:count"] == nil, "an array's count is the language's")
    }

    /// Noting member uses is the editor's alone: checking and running the
    /// script are as before.
    @Test func checkAndRunAreUnchanged() throws {
        #expect(try Program.check(SourceFile(path: "t.flow", text: Self.script)).isEmpty)
        _ = Program.memberUses(SourceFile(path: "t.flow", text: Self.script))
        let run = try runScript(Self.script)
        #expect(run.out == ["10 5 20", "0", "dollars"])
        #expect(run.err.isEmpty)
    }
}
