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
