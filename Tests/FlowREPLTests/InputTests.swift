@testable import FlowREPL
import Testing

@Suite struct InputAssemblerTests {
    @Test func aCompleteLineIsAnInputAndACommandIsACommand() {
        var assembler = InputAssembler()
        #expect(assembler.add("let x = 1", moreInputWaiting: false) == [.input("let x = 1")])
        #expect(assembler.add("  :doc map ", moreInputWaiting: false) == [.command(":doc map")])
        #expect(assembler.add("   ", moreInputWaiting: false) == [])
    }

    @Test func anOpenBracketAsksForMoreLines() {
        var assembler = InputAssembler()
        #expect(assembler.add("of(1, 2).map {", moreInputWaiting: false) == [])
        #expect(assembler.isContinuing)
        #expect(assembler.add("  [$0,", moreInputWaiting: false) == [])
        #expect(assembler.add("   $0 * 2] }", moreInputWaiting: false) == [.input("of(1, 2).map {\n  [$0,\n   $0 * 2] }")])
        #expect(!assembler.isContinuing)
    }

    @Test func aLineEndingWithAnOperatorAsksForMore() {
        var assembler = InputAssembler()
        #expect(assembler.add("let total = 1 +", moreInputWaiting: false) == [])
        #expect(assembler.isContinuing)
        #expect(assembler.add("  2", moreInputWaiting: false) == [.input("let total = 1 +\n  2")])
        #expect(assembler.add("let label =", moreInputWaiting: false) == [])
        #expect(assembler.add("\"x\"", moreInputWaiting: false) == [.input("let label =\n\"x\"")])
        // A finished line is not held: `x!` and `a > b` end where they are.
        #expect(assembler.add("let y = 2 > 1", moreInputWaiting: false) == [.input("let y = 2 > 1")])
        // A ternary's `?` waits for its branches; an optional's does not.
        #expect(assembler.add("let z = y ?", moreInputWaiting: false) == [])
        #expect(assembler.add("  1 : 2", moreInputWaiting: false) == [.input("let z = y ?\n  1 : 2")])
        #expect(assembler.add("let w = self?.x", moreInputWaiting: false) == [.input("let w = self?.x")])
    }

    @Test func bracketsInStringsAndCommentsDoNotCount() {
        var assembler = InputAssembler()
        #expect(assembler.add(#"just("(").print() # {"#, moreInputWaiting: false) == [.input(#"just("(").print() # {"#)])
        // An input the lexer rejects is finished, so its error shows at once.
        #expect(assembler.add(#"of("{"#, moreInputWaiting: false) == [.input(#"of("{"#)])
        #expect(assembler.add("just(1) // {", moreInputWaiting: false) == [.input("just(1) // {")])
        // A block comment left open goes on to the next line, as a bracket does.
        #expect(assembler.add("just(2) /* a note", moreInputWaiting: false) == [])
        #expect(assembler.isContinuing)
        #expect(assembler.add("   over two lines */", moreInputWaiting: false) == [.input("just(2) /* a note\n   over two lines */")])
    }

    @Test func aMultiLineStringAsksForLinesUntilItCloses() {
        var assembler = InputAssembler()
        #expect(assembler.add(#"let json = """"#, moreInputWaiting: false) == [])
        #expect(assembler.isContinuing)
        #expect(assembler.add(#"  {"a": (1)}"#, moreInputWaiting: false) == [])
        #expect(assembler.add(#"  """"#, moreInputWaiting: false) == [.input("let json = \"\"\"\n  {\"a\": (1)}\n  \"\"\"")])
        #expect(!assembler.isContinuing)
    }

    @Test func aLineStartingWithADotAmendsTheInputBefore() {
        var assembler = InputAssembler()
        #expect(assembler.add("interval(1s)", moreInputWaiting: false) == [.input("interval(1s)")])
        #expect(assembler.add("  .take(2)", moreInputWaiting: false) == [.amended("interval(1s)\n  .take(2)")])
        #expect(assembler.add(".map {", moreInputWaiting: false) == [])
        #expect(assembler.add("$0 }", moreInputWaiting: false) == [.amended("interval(1s)\n  .take(2)\n.map {\n$0 }")])
    }

    @Test func aPastedChainIsHeldUntilItsLastLine() {
        var assembler = InputAssembler()
        #expect(assembler.add("let s = of(1)", moreInputWaiting: true) == [])
        #expect(assembler.add("  .map { $0 }", moreInputWaiting: true) == [])
        #expect(assembler.add("s", moreInputWaiting: true) == [.input("let s = of(1)\n  .map { $0 }")])
        #expect(assembler.add(":subs", moreInputWaiting: false) == [.input("s"), .command(":subs")])
        #expect(assembler.add("of(2)", moreInputWaiting: true) == [])
        #expect(assembler.flush() == [.input("of(2)")])
        #expect(assembler.flush() == [])
    }

    @Test func ctrlCDropsTheOpenInput() {
        var assembler = InputAssembler()
        _ = assembler.add("of(1, {", moreInputWaiting: false)
        assembler.discard()
        #expect(!assembler.isContinuing)
        #expect(assembler.add("2", moreInputWaiting: false) == [.input("2")])
    }
}

@Suite struct CompleterTests {
    let completer = Completer(commands: Controller.commands.map(\.name), modules: REPL.modules(.unrestricted))

    func words(_ before: String, _ word: String, bound: [String] = []) -> [String] {
        guard case .words(let words) = completer.offer(before: before, word: word, boundNames: bound) else { return [] }
        return words
    }

    @Test func commandsAtTheStartOfALine() {
        #expect(words("", ":do") == [":doc"])
        #expect(words("", ":d") == [":dialect", ":doc"])
        #expect(words("", ":") == Controller.commands.map(\.name).sorted())
        #expect(words("", ":zz").isEmpty)
    }

    @Test func operatorsAfterADot() {
        let offered = words("ticks.", "deb", bound: ["ticks"])
        #expect(offered.contains("debounce"))
        #expect(offered.allSatisfy { $0.hasPrefix("deb") })
        #expect(words("of(1).", "switchL") == ["switchLatest"])
        // Sources are not methods.
        #expect(!words("of(1).", "inter").contains("interval"))
    }

    @Test func namesInScopeSourcesAndKeywordsElsewhere() {
        #expect(words("", "tic", bound: ["ticks", "total"]) == ["ticks"])
        #expect(words("let a = ", "inter").contains("interval"))
        #expect(words("", "le") == ["let"])
        #expect(words("merge(a, ", "b", bound: ["b1", "a"]).contains("b1"))
    }

    @Test func aModulesFunctionsAfterItsName() {
        #expect(words("file.", "ta") == ["tail"])
        #expect(words("", "ht") == ["http"])
        // A binding named like a module hides it.
        #expect(!words("file.", "ta", bound: ["file"]).contains("tail"))
    }

    @Test func commandArguments() {
        #expect(completer.offer(before: ":load ", word: "exa", boundNames: []) == .files)
        #expect(words(":graph ", "t", bound: ["ticks", "s"]) == ["ticks"])
        #expect(words(":doc ", "switchL") == ["switchLatest"])
        #expect(words(":doc http.", "g") == ["get"])
        #expect(words(":marble of(1).", "ma") .contains("map"))
    }
}
