import FlowMarbles
import FlowRuntime

/// Operator documentation drawn by the engine: signature, description,
/// aliases, and the lanes of the operator's example, computed by running it
/// in virtual time.
public enum OperatorDocs {
    /// Runs an operator's example in virtual time; nil when there is none
    /// or it does not compile.
    public static func run(_ spec: OperatorSpec, tracing: Bool = false) -> Program.Outcome? {
        guard let example = spec.example,
              let program = try? Program(file: SourceFile(path: "example of \(spec.name)", text: example),
                                         console: Console(out: { _ in }, err: { _ in }, color: false)) else { return nil }
        program.drawsLanes = false
        program.tracesEverything = tracing
        return program.run(on: .virtual)
    }

    /// The example's output (its lanes, and anything it prints), or the
    /// problem that kept it from running.
    public static func diagram(for spec: OperatorSpec, dialect: Dialect = .flow) -> String {
        guard let example = spec.example else { return "(no example)" }
        final class Lines: @unchecked Sendable {
            // Filled by the run on this thread, read after it.
            var out: [String] = []
        }
        let lines = Lines()
        let console = Console(out: { lines.out.append($0) }, err: { lines.out.append("error: " + $0) }, color: false)
        do {
            let program = try Program(file: SourceFile(path: "example of \(spec.name)", text: example), console: console, dialect: dialect)
            _ = program.run(on: .virtual)
        } catch let list as DiagnosticList {
            return list.diagnostics.map(\.description).joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
        return lines.out.joined(separator: "\n")
    }

    /// The example's diagram under every dialect, those that draw the same
    /// lanes together, flow's group first: one group when the libraries
    /// agree on the example.
    public static func diagramsByDialect(for spec: OperatorSpec) -> [(dialects: [Dialect], diagram: String)] {
        var groups: [(dialects: [Dialect], diagram: String)] = []
        for dialect in Dialect.allCases {
            let drawn = diagram(for: spec, dialect: dialect)
            if let i = groups.firstIndex(where: { $0.diagram == drawn }) {
                groups[i].dialects.append(dialect)
            } else {
                groups.append(([dialect], drawn))
            }
        }
        return groups
    }

    /// "flow, RxJS" for a group's heading: flow's own choice is named as
    /// the default it is.
    static func heading(_ dialects: [Dialect]) -> String {
        dialects.map { $0 == .flow ? "flow (no import)" : "import " + $0.rawValue }.joined(separator: ", ")
    }

    /// The example's diagrams as one SVG document.
    public static func svg(for spec: OperatorSpec) -> String? {
        guard let outcome = run(spec), !outcome.laneDiagrams.isEmpty else { return nil }
        return SVGDiagram(outcome.laneDiagrams, title: spec.signatureDescriptions.joined(separator: " or ")).text
    }

    /// What `flow doc NAME` prints.
    public static func text(for spec: OperatorSpec) -> String {
        var lines = spec.signatureDescriptions.map { $0 + " — " + spec.summary }
        lines.append("  family: \(spec.family.rawValue); aliases: " + (spec.aliases.isEmpty ? "none" : spec.aliases.map(\.description).joined(separator: ", ")))
        if let differences = spec.differences { lines.append("  across libraries: " + differences) }
        if let example = spec.example {
            lines.append("")
            lines += example.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            let groups = diagramsByDialect(for: spec)
            for group in groups {
                lines.append("")
                if groups.count > 1 { lines.append("  " + heading(group.dialects) + ":") }
                let indent = groups.count > 1 ? "    " : "  "
                lines += group.diagram.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The spec of a name or alias, or a suggestion when there is none.
    public static func lookup(_ name: String) -> Result<OperatorSpec, DocError> {
        if let spec = operatorTable.lookup(name) { return .success(spec) }
        return .failure(DocError(message: "no operator or method '\(name)'" +
            (Suggestions.didYouMean(name, among: operatorTable.allNames + ValueMethods.groups.keys).map { "; \($0)" } ?? "")))
    }

    /// A module's functions (`http`), or one of them (`http.get`); nil when
    /// `name` names no module.
    public static func moduleText(_ name: String, modules: [BuiltinModule]) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = parts.first, let module = modules.first(where: { $0.name == first }) else { return nil }
        func describe(_ spec: OperatorSpec, prefix: String) -> String {
            let lines = spec.signatureDescriptions.map { prefix + $0 + " — " + spec.summary }
            guard let example = module.examples[spec.name] else { return lines.joined(separator: "\n") }
            let indent = String(repeating: " ", count: prefix.prefix { $0 == " " }.count + 4)
            return (lines + [indent + "e.g. " + example]).joined(separator: "\n")
        }
        // A module's method transforms a stream (`decode`) or reads a value
        // (a response's `json()`).
        func receiver(_ method: OperatorSpec) -> String { method.family == .transformation ? "stream." : "value." }
        if parts.count == 1 {
            return (["\(module.name): \(module.summary)"]
                + module.functions.map { describe($0, prefix: "  \(module.name).") }
                + module.methods.map { describe($0, prefix: "  " + receiver($0)) }).joined(separator: "\n")
        }
        if let function = module.function(parts[1]) { return describe(function, prefix: "\(module.name).") }
        return module.methods.first(where: { $0.name == parts[1] }).map { describe($0, prefix: receiver($0)) }
    }

    /// Documentation for an operator, a module or a module's function, or
    /// what is wrong with the name (with a suggestion).
    public static func text(forName name: String, modules: [BuiltinModule]) -> Result<String, DocError> {
        if let text = languageEntries[name] { return .success(text) }
        if operatorTable.lookup(name) == nil, let text = vocabularyText(name) { return .success(text) }
        if let text = moduleText(name, modules: modules) { return .success(text) }
        if name.contains(".") {
            // A dotted name is a module function: suggest among those rather than among operators.
            let qualified = modules.flatMap { module in module.functions.map { "\(module.name).\($0.name)" } }
            let hint = Suggestions.didYouMean(name, among: qualified).map { "; " + $0 } ?? ""
            return .failure(DocError(message: "no module function '\(name)'" + hint))
        }
        if let function = FreeFunctions.named(name), function.body.runsAsWritten {
            let example = function.example.split(separator: "\n").map { "  " + $0 }
            let printed = printed(by: function.example).split(separator: "\n", omittingEmptySubsequences: false).map { "  → " + $0 }
            let text = ([function.formsDescription + " — " + function.summary, ""] + example + printed).joined(separator: "\n")
            // `flow doc String`: the conversion, then the type's methods.
            guard let receiver = ValueMethod.Receiver(rawValue: name) else { return .success(text) }
            return .success(text + "\n\n" + ValueMethods.text(for: receiver))
        }
        // `flow doc Array`: a receiver's methods.
        if let receiver = ValueMethod.Receiver(rawValue: name) { return .success(ValueMethods.text(for: receiver)) }
        if operatorTable.lookup(name) == nil {
            // A module's method (`decode`, `json`), found by its name alone.
            for module in modules {
                if module.methods.contains(where: { $0.name == name }), let text = moduleText("\(module.name).\(name)", modules: modules) {
                    return .success(text + "\n(from the \(module.name) module)")
                }
            }
            if let methods = ValueMethods.group(named: name) { return .success(ValueMethods.text(for: methods, run: printed(by:))) }
        }
        return lookup(name).map { spec in
            // The same name on arrays and strings is a method of values too.
            guard let methods = ValueMethods.group(named: name) else { return text(for: spec) }
            let receivers = methods.methods.map(\.receiver.rawValue).joined(separator: ", ")
            return text(for: spec) + "\n\nOn values (\(receivers)): \(methods.formsDescription); flow doc Array says more"
        }
    }

    /// What an example prints, run in virtual time (its errors too).
    static func printed(by example: String) -> String {
        final class Lines: @unchecked Sendable { var text: [String] = [] }
        let lines = Lines()
        let console = Console(out: { lines.text.append($0) }, err: { lines.text.append($0) }, color: false)
        do {
            _ = try Program(file: SourceFile(path: "example.flow", text: example), console: console).run(on: .virtual)
        } catch {
            lines.text.append("\(error)")
        }
        return lines.text.joined(separator: "\n")
    }

    public struct DocError: Error {
        public let message: String
    }

    /// docs/operators.md: every operator by family, with its diagram.
    public static func markdown() -> String {
        var out = """
            # Operators

            Generated from the runtime's operator table by `swift run flow doc --markdown > docs/operators.md`;
            a test fails when this file is stale. Every diagram was computed by running the example in
            virtual time. Canonical names are RxSwift's; aliases are Combine's and RxJS's names.
            Each operator's source, spec and example are in
            `Sources/FlowRuntime/Operators/<Family>/<Operator>.swift`.

            \(OperatorSpec.Family.commonRules)

            """
        for family in OperatorSpec.Family.allCases {
            let specs = operatorTable.entries.filter { $0.family == family }
            guard !specs.isEmpty else { continue }
            out += "\n## \(family.title)\n\n\(family.summary)\n"
            for spec in specs {
                out += "\n### \(spec.name)\n\n"
                out += spec.signatureDescriptions.map { "`\($0)`" }.joined(separator: " or ") + ": \(spec.summary)."
                if !spec.aliases.isEmpty { out += " Aliases: " + spec.aliases.map { "`\($0)`" }.joined(separator: ", ") + "." }
                out += "\n"
                if let differences = spec.differences { out += "\nAcross libraries: \(differences)\n" }
                if let example = spec.example {
                    out += "\n```\n\(example)\n```\n"
                    let groups = diagramsByDialect(for: spec)
                    for group in groups {
                        if groups.count > 1 { out += "\n" + heading(group.dialects) + ":\n" }
                        out += "\n```\n\(group.diagram)\n```\n"
                    }
                }
            }
        }
        return out
    }
}
