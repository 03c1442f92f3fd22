import FlowRuntime
import Testing

@testable import FlowLanguage

/// "did you mean ...?" only where the user plausibly meant it: a wrong
/// guess is worse than none.
@Suite struct SuggestionTests {
    static let vocabulary = operatorTable.entries.flatMap { [$0.name] + $0.aliasNames } + ["catch", "send", "sorted", "race", "Zip", "help"]

    @Test(arguments: ["pipe", "fetch", "sync", "formatted", "fact"])
    func namesUnlikeAnyKnownOneGetNoGuess(_ name: String) {
        #expect(Suggestions.closest(to: name, among: Self.vocabulary) == nil, "\(name) → \(Suggestions.closest(to: name, among: Self.vocabulary) ?? "")")
    }

    @Test(arguments: [("debounc", "debounce"), ("mapp", "map"), ("filtr", "filter"), ("swtchMap", "switchMap"), ("thrtle", "throttle"),
                      ("combinelatest", "combineLatest"), ("hepl", "help"), ("scn", "scan")])
    func typosAreStillCaught(_ typed: String, _ meant: String) {
        #expect(Suggestions.closest(to: typed, among: Self.vocabulary) == meant)
    }

    @Test func aScriptsUnknownMethodGetsNoWrongGuess() {
        let shown = diagnostics(of: "let s = just(1).lift()")
        #expect(shown.contains("lift"), "\(shown)")
        #expect(!shown.contains("did you mean"), "\(shown)")
    }
}

/// Short names: one edit is a third of a three-letter name, so a guess
/// must keep the first letter (or swap it with the second), and a name of
/// one or two letters gets none. Checked against the bound Swift's and
/// rustc's typo correction use, which alone would still guess `now` for `pow`.
@Suite struct ShortNameSuggestionTests {
    static let names = ["now", "min", "max", "map", "abs", "sqrt", "scan", "print", "floor", "ceil", "zip", "take", "hot", "cold", "log"]

    @Test(arguments: [("pow", "now"), ("sin", "min"), ("bow", "now"), ("ap", "map"), ("x", "max"), ("lap", "map"), ("cot", "hot"),
                      ("fold", "cold"), ("dog", "log")])
    func shortNamesDoNotGuessAnUnrelatedName(_ typed: String, _ unrelated: String) {
        #expect(Suggestions.closest(to: typed, among: [unrelated]) == nil, "\(typed) → \(unrelated)")
        #expect(Suggestions.closest(to: typed, among: Self.names) == nil, "\(typed) → \(Suggestions.closest(to: typed, among: Self.names) ?? "")")
    }

    /// nil where the first letter is the one edit of a short name: a
    /// dropped first letter is rarer than a different name.
    @Test(arguments: [("mpa", "map"), ("mapp", "map"), ("sqr", "sqrt"), ("prnt", "print"), ("flor", "floor"), ("ceill", "ceil"),
                      ("MAX", "max"), ("zpi", "zip"), ("tkae", "take"), ("rint", nil), ("loor", nil), ("lfoor", "floor")] as [(String, String?)])
    func typosOfShortNamesAreStillCaught(_ typed: String, _ meant: String?) {
        #expect(Suggestions.closest(to: typed, among: Self.names) == meant, "\(typed)")
    }

    @Test func anUnknownFunctionOfThreeLettersGetsNoWrongGuess() {
        let shown = diagnostics(of: "print(bow(2.0, 3.0))")
        #expect(shown.contains("unknown function 'bow'"), "\(shown)")
        #expect(!shown.contains("did you mean"), "\(shown)")
    }
}
