import FlowLanguage
import FlowMarbles
import FlowRuntime

/// The `:commands`.
struct CommandInfo {
    let name: String
    let argument: String
    let summary: String
}

extension Controller {
    static let commands: [CommandInfo] = [
        CommandInfo(name: ":help", argument: "", summary: "this list"),
        CommandInfo(name: ":doc", argument: "NAME", summary: "an operator (or module): signature, aliases, its example drawn by the engine"),
        CommandInfo(name: ":ops", argument: "", summary: "every operator, by family"),
        CommandInfo(name: ":marble", argument: "EXPR, ...", summary: "run streams in virtual time and draw their lanes"),
        CommandInfo(name: ":trace", argument: "EXPR", summary: "the same, with a lane for every operator stage"),
        CommandInfo(name: ":graph", argument: "NAME", summary: "the operator graph behind a binding"),
        CommandInfo(name: ":subs", argument: "", summary: "the subscriptions running"),
        CommandInfo(name: ":cancel", argument: "[N]", summary: "cancel subscription #N, or all of them"),
        CommandInfo(name: ":load", argument: "FILE", summary: "run a script's statements in this session"),
        CommandInfo(name: ":dialect", argument: "[NAME]", summary: "follow RxSwift, Combine, RxJS or CwlSignal where they disagree (flow: the default)"),
        CommandInfo(name: ":reset", argument: "", summary: "forget every binding, cancel every subscription"),
        CommandInfo(name: ":quit", argument: "", summary: "leave (Ctrl-D does too)"),
    ]

    func runCommand(_ text: String) {
        let name = String(text.prefix(while: { !$0.isWhitespace }))
        let argument = String(text.dropFirst(name.count)).trimmingWhitespace()
        switch name {
        case ":help": help()
        case ":doc": doc(argument)
        case ":ops": operatorsByFamily()
        case ":marble": draw(argument, traced: false)
        case ":trace": draw(argument, traced: true)
        case ":graph": graph(argument)
        case ":subs": subscriptions()
        case ":cancel": cancel(argument)
        case ":load": load(argument)
        case ":dialect": dialect(argument)
        case ":reset": reset()
        case ":quit", ":q", ":exit": quit()
        default: unknown(name)
        }
    }

    private func help() {
        let width = Self.commands.map { $0.name.count + $0.argument.count + 1 }.max() ?? 0
        var lines = Self.commands.map { command in
            let usage = command.argument.isEmpty ? command.name : command.name + " " + command.argument
            return "  " + usage.padding(to: width) + "  " + command.summary
        }
        lines += [
            "",
            "  let x = ...      binds a name (a new let replaces the old one)",
            "  a stream         runs at once; its events print as they arrive, #N +time value",
            "  an open ( [ {    continues on the next line (...); a line starting with . continues the chain",
            "  Ctrl-C           cancels running streams; twice on an empty line, or Ctrl-D, exits",
        ]
        screen.show(lines.joined(separator: "\n"))
    }

    private func doc(_ name: String) {
        guard !name.isEmpty else { return usage(":doc NAME", "an operator such as debounce, or a module such as http") }
        switch OperatorDocs.text(forName: name, modules: modules) {
        case .success(let text): screen.show(text)
        case .failure(let problem): screen.showError(problem.message)
        }
    }

    private func operatorsByFamily() {
        screen.show(OperatorDocs.index(width: 96, bold: paint.bold) + "\n" + paint.dim(":doc NAME shows one, with its example drawn"))
    }

    private func draw(_ expression: String, traced: Bool) {
        let command = traced ? ":trace" : ":marble"
        guard !expression.isEmpty else { return usage("\(command) EXPR", "for example \(command) cold(\"-a-b-|\").map { $0 + \"!\" }") }
        do {
            let drawing = try session.draw(expression, traced: traced, options: session.laneOptions)
            for diagram in drawing.rendered { screen.show(diagram.text) }
            if let cut = drawing.cutAt {
                screen.show(paint.dim("(the stream had not ended at \(cut): drawn that far; take(n) ends it)"))
            }
        } catch {
            show(error)
        }
    }

    private func graph(_ name: String) {
        guard !name.isEmpty else { return usage(":graph NAME", "the name of a stream bound with let") }
        guard let value = session.value(of: name) else {
            let hint = Suggestions.didYouMean(name, among: session.boundNames).map { "; " + $0 } ?? ""
            return screen.showError("no binding named '\(name)'" + hint)
        }
        guard case .stream(let stream) = value else {
            return screen.showError("'\(name)' is \(value.typeName) \(value.literal), not a stream")
        }
        screen.show(GraphTree.render(stream, name: name))
    }

    private func subscriptions() {
        let running = session.runningJobs
        guard !running.isEmpty else { return screen.show("no subscriptions running") }
        screen.show(running.map { "  " + describe($0) }.joined(separator: "\n"))
    }

    private func cancel(_ argument: String) {
        if argument.isEmpty {
            let stopped = session.cancelAll()
            if stopped.isEmpty { return screen.show("no subscriptions running") }
            for job in stopped { screen.show("cancelled " + describe(job)) }
            return
        }
        guard let id = Int(argument.hasPrefix("#") ? String(argument.dropFirst()) : argument) else {
            return usage(":cancel [N]", "N is the number a subscription's events are labelled with (#N)")
        }
        guard let job = session.cancel(jobID: id) else {
            return screen.showError("no running subscription #\(id) (:subs lists them)")
        }
        screen.show("cancelled " + describe(job))
    }

    private func load(_ path: String) {
        guard !path.isEmpty else { return usage(":load FILE", "a .flow script; its bindings stay in the session") }
        let before = Set(session.boundNames)
        do {
            let file = try SourceFile.load(path: path)
            evaluate(file.text, path: file.path)
        } catch {
            return show(error)
        }
        let added = session.boundNames.filter { !before.contains($0) }.sorted()
        screen.show(paint.dim("loaded \(path)" + (added.isEmpty ? "" : ": " + added.joined(separator: ", "))))
    }

    private func reset() {
        for job in session.cancelAll() { screen.show(paint.dim("cancelled " + describe(job))) }
        session.reset()
        forgetLastInput()
        screen.show("every binding forgotten")
    }

    private func dialect(_ name: String) {
        guard !name.isEmpty else {
            return screen.show("following \(session.dialect.rawValue) where the libraries disagree (:dialect NAME changes it: \(Dialect.names))")
        }
        guard let chosen = Dialect(name: name) else {
            let hint = Suggestions.didYouMean(name, among: Dialect.allCases.map(\.rawValue)).map { "; " + $0 } ?? ""
            return screen.showError("unknown dialect '\(name)'\(hint)\ndialects: \(Dialect.names)")
        }
        session.dialect = chosen
        screen.show("following \(chosen.rawValue) where the libraries disagree")
    }

    private func unknown(_ name: String) {
        let names = Self.commands.map(\.name)
        let hint = Suggestions.didYouMean(name, among: names).map { "; " + $0 } ?? ""
        screen.showError("unknown command '\(name)'\(hint)\ncommands: " + names.joined(separator: " "))
    }

    private func usage(_ form: String, _ explanation: String) {
        screen.showError("usage: \(form) — \(explanation)")
    }

    /// Words of `text` in lines of at most `width` characters.
}

extension String {
    func padding(to width: Int) -> String { self + String(repeating: " ", count: Swift.max(0, width - count)) }
}
