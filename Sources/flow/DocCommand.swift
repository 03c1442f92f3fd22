import ArgumentParser
import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

struct Doc: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doc",
        abstract: "Show an operator: its signature, description, aliases, and its example drawn by the engine.")

    @Argument(help: "An operator's name or alias (map, switchMap, ...), a module (http), a module's function (http.get), a word of the language (cold, hot, expect, marbles, time) or notation. Alone: every operator by family.")
    var name: String?

    @Flag(help: "Every operator.")
    var all = false

    @Flag(help: "Every operator as Markdown (the source of docs/operators.md).")
    var markdown = false

    @Option(help: "Write the example's diagram as SVG: to this file, or with --all, one file per operator into this folder.")
    var svg: String?

    func run() throws {
        if name == nil && !all && !markdown {
            // Alone: every operator by family, and the language's own entries.
            Output.out(OperatorDocs.index(width: 96, bold: Paint(enabled: Output.colorOnStandardOutput).bold)
                       + "\nflow doc NAME shows one, with its example drawn")
            return
        }
        if let svg, all {
            mkdir(svg, 0o755)
            for spec in operatorTable.entries {
                guard let document = OperatorDocs.svg(for: spec) else { continue }
                try Loader.write(document, to: svg + "/" + spec.name + ".svg")
            }
            Output.out("wrote \(operatorTable.entries.count) diagrams to \(svg)")
            return
        }
        if markdown {
            Output.out(OperatorDocs.markdown())
            return
        }
        if all {
            Output.out(operatorTable.entries.map(OperatorDocs.text).joined(separator: "\n\n"))
            return
        }
        switch OperatorDocs.text(forName: name ?? "", modules: IOModules.unrestricted) {
        case .success(let text):
            Output.out(text)
            if let svg, case .success(let spec) = OperatorDocs.lookup(name ?? ""), let document = OperatorDocs.svg(for: spec) {
                try Loader.write(document, to: svg)
            }
        case .failure(let problem):
            Output.err("flow: " + problem.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
