import ArgumentParser
import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

extension Doc {
    /// `flow doc http` (a module's functions) or `flow doc http.get`.
    func moduleDoc(_ name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard let module = IOModules.all.first(where: { $0.name == parts[0] }) else { return nil }
        func describe(_ spec: OperatorSpec, prefix: String) -> String {
            spec.signatureDescriptions.map { prefix + $0 + " — " + spec.summary }.joined(separator: "\n")
        }
        if parts.count == 1 {
            return (["\(module.name): \(module.summary)"]
                + module.functions.map { describe($0, prefix: "  \(module.name).") }
                + module.methods.map { describe($0, prefix: "  value.") }).joined(separator: "\n")
        }
        if let function = module.function(parts[1]) { return describe(function, prefix: "\(module.name).") }
        return module.methods.first(where: { $0.name == parts[1] }).map { describe($0, prefix: "value.") }
    }
}

extension Doc {
    /// A dotted name is a module function, so suggest among those rather than among operators.
    func moduleProblem(_ name: String) -> String? {
        guard name.contains(".") else { return nil }
        let qualified = IOModules.all.flatMap { module in module.functions.map { "\(module.name).\($0.name)" } }
        let hint = Suggestions.didYouMean(name, among: qualified).map { "; " + $0 } ?? ""
        return "no module function '\(name)'" + hint
    }
}

struct Doc: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show an operator: its signature, description, aliases, and its example drawn by the engine.")

    @Argument(help: "An operator's name or alias (map, switchMap, ...), a module (http), or a module's function (http.get).")
    var name: String?

    @Flag(help: "Every operator.")
    var all = false

    @Flag(help: "Every operator as Markdown (the source of docs/operators.md).")
    var markdown = false

    @Option(help: "Write the example's diagram as SVG: to this file, or with --all, one file per operator into this folder.")
    var svg: String?

    func validate() throws {
        if name == nil && !all && !markdown { throw ValidationError("give an operator's name, or --all") }
    }

    func run() throws {
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
        if let text = moduleDoc(name ?? "") {
            Output.out(text)
            return
        }
        switch OperatorDocs.lookup(name ?? "") {
        case .success(let spec):
            Output.out(OperatorDocs.text(for: spec))
            if let svg, let document = OperatorDocs.svg(for: spec) { try Loader.write(document, to: svg) }
        case .failure(let problem):
            Output.err("flow: " + (moduleProblem(name ?? "") ?? problem.message))
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
