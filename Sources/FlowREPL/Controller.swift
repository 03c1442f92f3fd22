import FlowLanguage
import FlowMarbles
import FlowRuntime

/// Where the REPL writes: a terminal under readline (which redraws the
/// line being edited around the output), or plain standard streams.
protocol Screen: AnyObject {
    func show(_ text: String)
    func showError(_ text: String)
}

/// The REPL's behaviour, apart from the terminal: gathers lines into
/// inputs, evaluates them in a session, runs commands, and prints what the
/// session reports. Everything runs on the session's scheduler's thread.
final class Controller: SessionListener {
    let session: Session
    let screen: Screen
    /// Colour for standard output (lanes, labels) and standard error (errors).
    let paint: Paint
    let errorColor: Bool
    let modules: [BuiltinModule]
    private(set) var assembler = InputAssembler()
    /// Jobs the last input started: an amended input replaces them.
    private var lastInputJobs: [Int] = []
    /// A Ctrl-C on an empty line arms the next one to exit.
    private var armedToExit = false
    /// `:quit`.
    var onQuit: () -> Void = {}
    /// After `:quit`, lines already read (piped input) are not run.
    private(set) var hasQuit = false

    init(session: Session, screen: Screen, color: Bool, errorColor: Bool, modules: [BuiltinModule]) {
        self.session = session
        self.screen = screen
        self.paint = Paint(enabled: color)
        self.errorColor = errorColor
        self.modules = modules
        session.laneOptions = LaneDiagram.Options(color: color)
    }

    static let prompt = "flow> "
    static let continuationPrompt = "...   "

    var prompt: String { assembler.isContinuing ? Self.continuationPrompt : Self.prompt }

    var completer: Completer { Completer(commands: Self.commands.map(\.name), modules: modules) }

    // MARK: - Input

    func receive(_ line: String, moreInputWaiting: Bool) {
        guard !hasQuit else { return }
        armedToExit = false
        for ready in assembler.add(line, moreInputWaiting: moreInputWaiting) where !hasQuit { perform(ready) }
    }

    /// No more input is waiting: an input held back in case the next line
    /// continued its chain runs now.
    func inputSettled() {
        guard !hasQuit else { return }
        for ready in assembler.flush() { perform(ready) }
    }

    private func perform(_ ready: InputAssembler.Ready) {
        switch ready {
        case .command(let text):
            runCommand(text)
        case .input(let text):
            evaluate(text)
        case .amended(let text):
            for id in lastInputJobs {
                if let job = session.cancel(jobID: id) { screen.show(paint.dim("replaced " + describe(job))) }
            }
            evaluate(text)
        }
    }

    func quit() {
        hasQuit = true
        onQuit()
    }

    /// After `:reset`, a `.` line has no input to amend.
    func forgetLastInput() {
        assembler.forgetLast()
        lastInputJobs = []
    }

    func evaluate(_ text: String, path: String? = nil) {
        let known = Set(session.jobs.map(\.id))
        do {
            try session.evaluate(text, path: path)
        } catch {
            show(error)
        }
        lastInputJobs = session.jobs.map(\.id).filter { !known.contains($0) }
    }

    /// A compile error (with its caret) or a failure at run time.
    func show(_ error: Error) {
        if let list = error as? DiagnosticList {
            for diagnostic in list.diagnostics { screen.showError(diagnostic.render(color: errorColor)) }
        } else {
            screen.showError(session.describe(FlowError.wrap(error)))
        }
    }

    // MARK: - Ctrl-C

    enum InterruptOutcome: Equatable {
        /// Running streams were cancelled.
        case cancelled
        /// The line (or open input) was dropped.
        case discarded
        /// Nothing to stop: one more Ctrl-C exits.
        case armed
        case exit
    }

    func interrupt(lineWasEmpty: Bool) -> InterruptOutcome {
        let open = assembler.isContinuing
        assembler.discard()
        let stopped = session.cancelAll()
        if !stopped.isEmpty {
            armedToExit = false
            for job in stopped { screen.show(paint.dim("cancelled " + describe(job))) }
            return .cancelled
        }
        if !lineWasEmpty || open {
            armedToExit = false
            return .discarded
        }
        if armedToExit { return .exit }
        armedToExit = true
        screen.show(paint.dim("(Ctrl-C again or Ctrl-D to exit)"))
        return .armed
    }

    /// `#2 interval(100ms).take(50), after 1.203s, 12 values`
    func describe(_ job: Job) -> String {
        let elapsed = Self.format(session.scheduler.now - job.startedAt).dropFirst()
        let values = job.valueCount.map { $0 == 1 ? ", 1 value" : ", \($0) values" } ?? ""
        return "#\(job.id) \(Self.oneLine(job.label)), after \(elapsed)\(values)"
    }

    // MARK: - What the session reports

    func session(_ session: Session, bound name: String, to value: Value) {
        if case .stream = value {
            screen.show("\(name): Stream")
        } else {
            screen.show("\(name): \(value.typeName) = \(value.literal)")
        }
    }

    func session(_ session: Session, evaluated value: Value) {
        screen.show(value.literal)
    }

    func session(_ session: Session, job: Job, received event: Event, at time: TimeSpan) {
        let label = paint.cyan("#\(job.id)") + " " + paint.dim(Self.format(time)) + "  "
        switch event {
        case .next(let value): screen.show(label + value.literal)
        case .completed: screen.show(label + Value.event(.completed, session.dialect.completionSpelling).description)
        case .error(let error): screen.showError(label + session.describe(error))
        }
    }

    func session(_ session: Session, started job: Job) {
        screen.show(paint.dim("#\(job.id) running: :cancel \(job.id) or Ctrl-C stops it"))
    }

    func session(_ session: Session, drew diagram: LaneDiagram) {
        screen.show(diagram.render().text)
    }

    func session(_ session: Session, ranTest name: String, failures: [String]) {
        if failures.isEmpty {
            screen.show("test \(Value.quote(name)) passed")
        } else {
            screen.showError("test \(Value.quote(name)) failed")
            for failure in failures { screen.showError(failure) }
        }
    }

    /// Dimmed, as the REPL's other notes about its jobs are.
    func session(_ session: Session, committed summary: String) {
        screen.show(paint.dim(summary))
    }

    // MARK: - Formatting

    /// Time on the live clock since a subscription: `+120ms`, `+1.503s`.
    static func format(_ time: TimeSpan) -> String {
        let ms = Swift.max(0, time.nanoseconds / 1_000_000)
        if ms < 1000 { return "+\(ms)ms" }
        let fraction = String(ms % 1000)
        return "+\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }

    /// A statement on one line, shortened: for lists and messages.
    static func oneLine(_ text: String, limit: Int = 60) -> String {
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" })
        let line = words.joined(separator: " ")
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }
}
