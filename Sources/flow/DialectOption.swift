import ArgumentParser
import FlowRuntime

/// `--dialect NAME`: whose semantics a script follows where the reactive
/// libraries disagree, whatever its imports say.
struct DialectOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Follow this library's semantics where the libraries disagree, whatever the script imports: \(Dialect.names).",
        valueName: "name"))
    var dialect: Dialect?
}

extension Dialect: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
