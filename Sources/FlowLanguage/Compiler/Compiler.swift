import Collections
import FlowMarbles
import FlowRuntime

/// Resolves every name of a script and compiles it to Swift closures over
/// frame slots, before anything runs. All problems are collected, so one
/// `flow check` reports every unknown name, bad call and duplicate `let`.
///
/// Closures are compiled once: calling `{ $0 * 2 }` a million times walks
/// no tree and looks up no name.
final class Compiler {
    let file: SourceFile
    let environment: Environment
    /// Namespaces of functions from the layers above (`file`, `json`).
    let modules: [String: BuiltinModule]
    private(set) var diagnostics: [Diagnostic] = []
    /// The dialect this file's first library import chose, and where.
    var importedDialect: (Dialect, Span)?

    init(file: SourceFile, environment: Environment) {
        self.file = file
        self.environment = environment
        modules = environment.modules
    }

    func error(_ message: String, _ span: Span, help: String? = nil) {
        diagnostics.appendCapped(Diagnostic(message, in: file, at: span, help: help))
    }

    /// Compiles code that only some values reach (what a method name means
    /// for values not of the script's types, beside the script's own
    /// method): its errors are not reported; whether there were any is
    /// returned, so the code can fail when reached instead.
    func compileQuietly(_ body: () -> Code) -> (code: Code, failed: Bool) {
        let before = diagnostics.count
        let code = body()
        let failed = diagnostics.count > before
        if failed { diagnostics.removeSubrange(before...) }
        return (code, failed)
    }

    /// Code that runs but probably does not do what was meant; `flow
    /// check` reports these, and they never stop a script from running.
    private(set) var warnings: [Diagnostic] = []

    func warning(_ message: String, _ span: Span, help: String? = nil) {
        warnings.append(Diagnostic(message, in: file, at: span, help: help, severity: .warning))
    }

    /// "did you mean" for the first hundred problems only: a file with
    /// thousands of errors is still reported at once.
    private var suggestionsLeft = 100
    /// Whether the script declares a `typealias` at all: most do not, and a
    /// call then needs no alias lookup.
    var declaresAliases = false
    /// The `let`s whose values are being compiled, innermost last.
    var namesBeingBound: [String] = []
    /// What the script as a whole turns out to need.
    var facts = ScriptFacts()
    /// The points the expectations of the test block being compiled carry.
    var expectationPointsInTest: Int?
    /// The types of the parameters of the closure about to be compiled, where
    /// its call tells them (a stream's elements for `sink` and `map`).
    var closureParameterTypes: [StaticType]?
    /// The result type written for the closure about to be compiled.
    var closureResultType: StaticType?
    /// For a hover only (`Program.bindingTypes`): the types the closure
    /// about to be compiled is likely given where they are not sure (the
    /// elements of `let prices = [1, 2]`); compiling does not use them.
    var closureParameterHints: [StaticType]?
    /// Whether each closure literal is read for what calling it may do
    /// (`ClosureEffects`), which an operator given its function asks: not
    /// where the code is dropped once compiled (`flow check`, an editor's
    /// facts), so nothing can ask. Reading every closure was 2.8% of
    /// checking a long script.
    var readsClosureEffects = true
    /// For an editor only (`Program.memberUses`): the script's extensions
    /// of its protocols, whose methods a value of the protocol's type has.
    var protocolExtensions: [TypeDeclaration] = []

    func suggestion(for name: String, among candidates: @autoclosure () -> [String]) -> String? {
        guard suggestionsLeft > 0 else { return nil }
        suggestionsLeft -= 1
        return Suggestions.didYouMean(name, among: candidates())
    }

    func location(_ span: Span) -> SourceLocation { file.location(of: span.start, hint: &lineHint) }
    private var lineHint = 0

    private struct MeaningKey: Hashable {
        let name: String
        let labels: [String?]
    }

    /// What each method name and labels mean, found once per script: a
    /// long script calls the same few operators thousands of times.
    private var meanings: [MeaningKey: MethodMeaning?] = [:]

    func methodMeaning(_ name: String, labels: [String?]) -> MethodMeaning? {
        let key = MeaningKey(name: name, labels: labels)
        if let known = meanings[key] { return known }
        let meaning = MethodMeaning(name, labels: labels, modules: modules)
        meanings[key] = meaning
        return meaning
    }
}
