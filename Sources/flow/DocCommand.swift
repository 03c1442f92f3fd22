import ArgumentParser
import FlowLanguage
import FlowRuntime

struct Doc: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show an operator: its signature, description, aliases, and its example drawn by the engine.")

    @Argument(help: "An operator's name or alias (map, switchMap, ...).")
    var name: String?

    @Flag(help: "Every operator.")
    var all = false

    @Flag(help: "Every operator as Markdown (the source of docs/operators.md).")
    var markdown = false

    func validate() throws {
        if name == nil && !all && !markdown { throw ValidationError("give an operator's name, or --all") }
    }

    func run() throws {
        if markdown {
            Output.out(OperatorDocs.markdown())
            return
        }
        if all {
            Output.out(operatorTable.entries.map(OperatorDocs.text).joined(separator: "\n\n"))
            return
        }
        switch OperatorDocs.lookup(name ?? "") {
        case .success(let spec): Output.out(OperatorDocs.text(for: spec))
        case .failure(let problem):
            Output.err("flow: " + problem.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
