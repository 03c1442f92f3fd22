import FlowLanguage
import Testing

/// `Program.memberUses`: for each member name whose receiver is one of the
/// script's types, known at compile time, where that member is declared,
/// as an editor's definition, references and hover follow it.
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
        #expect(found["15:total"] == nil, "the script's own func is no member")
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
