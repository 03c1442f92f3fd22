import FlowMarbles
import FlowRuntime

/// What a session reports as it evaluates, in the order it happens: the
/// REPL turns these into lines on the terminal.
public protocol SessionListener: AnyObject {
    /// A `let` bound a name.
    func session(_ session: Session, bound name: String, to value: Value)
    /// An expression statement's value (not a stream, not nil).
    func session(_ session: Session, evaluated value: Value)
    /// An event of a stream the session subscribed for the user.
    func session(_ session: Session, job: Job, received event: Event, at time: TimeSpan)
    /// A stream the session subscribed is still running after its input.
    func session(_ session: Session, started job: Job)
    /// Lanes an input drew (`marbles(...)`).
    func session(_ session: Session, drew diagram: LaneDiagram)
    /// A `test` block ran in virtual time: its failures, rendered.
    func session(_ session: Session, ranTest name: String, failures: [String])
    /// What the sinks of an input committed, once nothing it started runs
    /// (`CommitLedger.summary`): right after the input, or when its last
    /// subscription ends or is cancelled.
    func session(_ session: Session, committed summary: String)
}

/// An interactive session: inputs are compiled one at a time against the
/// bindings of the inputs before them, and run on one scheduler that lives
/// as long as the session.
///
/// Each input gets a scope and a frame whose parents are the previous
/// input's, so a new `let` shadows an old one (the old binding lives on in
/// closures that captured it), and compiled code still reads a variable by
/// an index into a frame.
public final class Session {
    public let scheduler: Scheduler
    public weak var listener: SessionListener?
    /// How `marbles(...)` lanes are drawn.
    public var laneOptions = LaneDiagram.Options()

    private let console: Console
    private let environment: Environment
    private var scope: Scope
    private var frame: Frame
    /// Every input so far by path, to show the line an error points at.
    private var files: [String: SourceFile] = [:]
    private var inputCount = 0
    /// Subscriptions the session started, oldest first (ended ones included
    /// until they are pruned).
    public private(set) var jobs: [Job] = []
    private var nextJobID = 1
    /// Asked before each value of a stream typed at the prompt: true when
    /// Ctrl-C was pressed, which must stop even a stream that runs
    /// synchronously (`range(1, 100_000_000)`) before the loop could
    /// handle the interrupt.
    public var stopRequested: () -> Bool = { false } {
        didSet {
            let asked = stopRequested
            environment.interruptRequested = asked
        }
    }
    /// Jobs stopped that way, for the interrupt to report.
    private var stoppedByRequest: [Job] = []

    /// Whose semantics the session follows where the libraries disagree:
    /// `:dialect` sets it, and so does an `import RxSwift` typed later.
    public var dialect: Dialect {
        get { environment.dialect }
        set { environment.dialect = newValue }
    }

    public init(scheduler: Scheduler, console: Console, modules: [BuiltinModule] = []) {
        self.scheduler = scheduler
        self.console = console
        let placeholder = SourceFile(path: "<session>", text: "")
        environment = Environment(file: placeholder, output: console.out, run: Self.liveRun(named: "<session>", on: scheduler), arguments: [],
                                  modules: modules)
        scope = Scope(kind: .script, parent: nil)
        frame = Frame(count: 0, parent: nil)
        environment.reportStreamError = { [weak self] error in
            guard let self else { return }
            console.err(describe(error))
        }
    }

    /// A run on the session's scheduler whose `marbles(...)` lanes are drawn
    /// at once, in virtual time.
    private static func liveRun(named name: String, on scheduler: Scheduler) -> RunState {
        let run = RunState(name: name, scheduler: scheduler, marbles: MarbleRun())
        run.lanesInVirtualTime = true
        run.capsErrors = false
        return run
    }

    // MARK: - Inputs

    /// Compiles and runs one input. Compile errors are thrown together and
    /// nothing of the input runs; a statement that fails at run time is
    /// reported and stops the rest of its input.
    public func evaluate(_ text: String, path: String? = nil) throws {
        inputCount += 1
        let file = SourceFile(path: path ?? "<input-\(inputCount)>", text: text)
        files[file.path] = file
        let inputScope = Scope(kind: .script, parent: scope)
        let compiled = try FrontEnd.compile(file, in: inputScope, environment: environment)
        scope = inputScope
        frame = Frame(count: inputScope.count, parent: frame)
        let run = Self.liveRun(named: file.path, on: scheduler)
        environment.run = run
        let firstJob = nextJobID
        defer {
            run.onTrack = nil
            reportCommits(of: run, jobs: jobs.filter { $0.id >= firstJob && $0.isRunning }.map(\.id))
        }
        var stopped = false
        for (statement, code) in zip(compiled.statements, compiled.body) {
            // Ctrl-C stops the rest of the line, as it stops a loop, also
            // when what it stopped did not fail its statement: a deinit
            // chain reports its error as the run's, and its statement ends.
            guard execute(statement, code, in: file, run: run), !stopRequested() else {
                stopped = true
                break
            }
        }
        if !stopped { for test in compiled.tests { runTest(test, in: file) } }
        environment.run = run
        let (failures, diagrams) = run.conclude(laneOptions: laneOptions, showsSubscriptions: false,
                                                    hotStreams: environment.liveHotStreams)
        for diagram in diagrams { listener?.session(self, drew: diagram) }
        for failure in failures { console.err(Report.expectationFailure(failure, file: file, color: console.color)) }
        pruneJobs()
    }


    /// Says what an input's sinks committed once nothing it started runs:
    /// at once when its subscriptions ended with it, else when the last of
    /// them ends or is cancelled (`jobs`: those still running after it).
    private func reportCommits(of run: RunState, jobs: [Int]) {
        guard !run.isIdle else { return sayCommits(of: run, ending: nil) }
        // Named by its jobs; work that is not one (`asyncAfter`) goes unnamed.
        let named = jobs.isEmpty ? nil : jobs.map { "#\($0)" }.joined(separator: ", ")
        run.onIdle = { [weak self, unowned run] in
            run.onIdle = nil
            // Told as the last subscription is let go of: its sinks are
            // told how it ended (a file put in place) just after.
            _ = self?.scheduler.schedule(after: .zero) { [weak self, run] in
                self?.sayCommits(of: run, ending: named.map { $0 + (run.wasCancelled ? " cancelled" : " ended") })
            }
        }
    }

    /// `summary` once the sinks have settled what they received and the
    /// commits sent to a server are answered (polled: the loop the answers
    /// hop onto must not wait), or after ten minutes at most.
    private func sayCommits(of run: RunState, ending: String?, waited: Int = 0) {
        if run.commits.isWriting, waited < 30_000 {
            _ = scheduler.schedule(after: .milliseconds(Int64(20))) { [weak self] in
                self?.sayCommits(of: run, ending: ending, waited: waited + 1)
            }
            return
        }
        if let summary = run.commits.summary(ending: ending, waitingUpTo: 0) { listener?.session(self, committed: summary) }
    }

    /// Runs one statement; false when it failed.
    private func execute(_ statement: Statement, _ code: Code, in file: SourceFile, run: RunState) -> Bool {
        let job = Job(id: nextJobID, label: file.text(of: statement.span), run: run, startedAt: scheduler.now)
        run.onTrack = { job.add($0) }
        defer {
            // A number is used once shown: on events, or while running.
            if !job.subscriptions.isEmpty && (job.isRunning || job.valueCount != nil) {
                nextJobID += 1
                jobs.append(job)
                if job.isRunning { listener?.session(self, started: job) }
            }
        }
        do {
            let value = try code(frame)
            switch statement {
            case .binding(let name, _, _, _, _, _):
                if let (_, slot) = scope.lookup(name) { listener?.session(self, bound: name, to: frame.slots[slot]) }
            case .expression(let expr):
                if Compiler.subscribesItself(expr) { break }
                if case .stream(let stream) = value {
                    subscribe(stream, as: job, at: file.location(of: expr.span.start))
                } else if !value.isNull, !value.isVoid, !value.isSubscription {
                    // A subscription (what `sink` returns) is shown by its
                    // events; `()`, what a call that returns nothing gives,
                    // is not shown, as Swift's REPL shows nothing for it.
                    listener?.session(self, evaluated: value)
                }
            default:
                break
            }
            return true
        } catch {
            console.err(describe(FlowError.wrap(error)))
            return false
        }
    }

    /// Subscribes a stream typed at the prompt: its events go to the listener.
    private func subscribe(_ stream: Observable, as job: Job, at location: SourceLocation) {
        job.valueCount = 0
        var handlers = Handlers()
        handlers.next = Function.unary(name: "job \(job.id)") { [weak self, job] value in
            guard let self else { return .null }
            if stopRequested() {
                stoppedByRequest.append(job)
                job.cancel()
                return .null
            }
            job.valueCount = (job.valueCount ?? 0) + 1
            deliver(.next(value), of: job)
            return .null
        }
        handlers.completion = Function.unary(name: "job \(job.id)") { [weak self, job] event in
            if case .event(let event, _) = event { self?.deliver(event, of: job) }
            return .null
        }
        environment.subscribe(stream, at: location, handlers: handlers)
    }

    private func deliver(_ event: Event, of job: Job) {
        listener?.session(self, job: job, received: event, at: scheduler.now - job.startedAt)
    }

    private func runTest(_ test: Compiler.CompiledTest, in file: SourceFile) {
        let run = RunState.virtual(name: test.name, location: file.location(of: test.span.start))
        environment.run = run
        var failures: [String] = []
        do {
            let testFrame = Frame(count: test.scope.count, parent: frame)
            for statement in test.body { _ = try statement(testFrame) }
        } catch {
            failures.append(describe(FlowError.wrap(error)))
        }
        let (expectationFailures, diagrams) = run.conclude(laneOptions: laneOptions, showsSubscriptions: false,
                                                    hotStreams: environment.liveHotStreams)
        for diagram in diagrams { listener?.session(self, drew: diagram) }
        failures += run.streamErrors.map(describe)
        failures += expectationFailures.map { failure in
            let file = failure.location.flatMap { files[$0.file] } ?? SourceFile(path: "<test>", text: "")
            return Report.expectationFailure(failure, file: file, color: console.color)
        }
        listener?.session(self, ranTest: test.name, failures: failures)
    }

    // MARK: - Subscriptions

    /// The jobs still running.
    public var runningJobs: [Job] { jobs.filter(\.isRunning) }

    /// Cancels every running subscription; returns the jobs it stopped,
    /// with any that `stopRequested` stopped since the last call.
    @discardableResult
    public func cancelAll() -> [Job] {
        let running = runningJobs
        for job in running { job.cancel() }
        pruneJobs()
        defer { stoppedByRequest = [] }
        return stoppedByRequest + running
    }

    /// Cancels one job; nil when no running job has that number.
    public func cancel(jobID: Int) -> Job? {
        guard let job = runningJobs.first(where: { $0.id == jobID }) else { return nil }
        job.cancel()
        pruneJobs()
        return job
    }

    private func pruneJobs() { jobs.removeAll { !$0.isRunning } }

    /// Forgets every binding and cancels every subscription.
    public func reset() {
        cancelAll()
        scope = Scope(kind: .script, parent: nil)
        frame = Frame(count: 0, parent: nil)
        files = [:]
        nextJobID = 1
    }

    // MARK: - Names

    /// Names bound so far, each once, most recent first.
    public var boundNames: [String] {
        var seen = Set<String>()
        return scope.visibleNames.filter { seen.insert($0).inserted }
    }

    /// The value a name is bound to now.
    public func value(of name: String) -> Value? {
        guard let (depth, slot) = scope.lookup(name) else { return nil }
        return frame.ancestor(depth).slots[slot]
    }

    /// `file:line:col: error: ...` with the line of the input it points at.
    public func describe(_ error: FlowError) -> String {
        let file = error.location.flatMap { files[$0.file] } ?? SourceFile(path: "<session>", text: "")
        return Report.streamError(error, file: file, color: console.color)
    }

    // MARK: - Diagrams in virtual time

    /// What `:marble` and `:trace` draw.
    public struct Drawing {
        public var diagrams: [LaneDiagram]
        /// The same, drawn: symbols are kept across drawings (`symbols`).
        public var rendered: [LaneDiagram.Rendered]
        /// Where drawing stopped a stream that had not ended.
        public var cutAt: TimeSpan?
    }

    /// Symbols given to values by the drawings of this session: `:marble`
    /// and `:trace` of the same streams name each value alike.
    private var drawnSymbols: [String: Value] = [:]

    /// Runs stream expressions (one, or several separated by commas) in
    /// virtual time and draws them: a lane for each bound stream they
    /// read, then one for each (or, traced, a lane per stage). Bindings are
    /// read; nothing is bound.
    public func draw(_ text: String, traced: Bool, options: LaneDiagram.Options) throws -> Drawing {
        let run = RunState.virtual(name: "<input-\(inputCount + 1)>")
        let saved = environment.run
        environment.run = run
        defer { environment.run = saved }
        var results: [(label: String, stream: Observable)] = []
        var files: [SourceFile] = []
        for part in Self.splitAtTopLevelCommas(text) {
            inputCount += 1
            let file = SourceFile(path: "<input-\(inputCount)>", text: part)
            self.files[file.path] = file
            files.append(file)
            let (expr, code, exprScope) = try FrontEnd.compileExpression(
                file, under: scope, environment: environment, expected: "for example :marble cold(\"-a-b|\").map { $0 + \"!\" }")
            let exprFrame = Frame(count: exprScope.count, parent: frame)
            let evaluated: Value
            do { evaluated = try code(exprFrame) } catch { throw FlowError.wrap(error) }
            guard case .stream(let result) = evaluated else {
                throw DiagnosticList([Diagnostic("this is \(evaluated.typeName) \(evaluated.literal), not a stream", in: file, at: expr.span,
                                                 help: "draw a stream: cold(\"-a-b|\"), interval(1s).take(3), ...")])
            }
            results.append((part.trimmingWhitespace(), result))
        }
        var recorded: [(label: String, recorder: EventRecorder)] = []
        if traced {
            let tracer = Tracer()
            run.marbles.scheduler.tracer = tracer
            for (_, result) in results { tracer.trace(result) }
        } else {
            var seen = Set<String>()
            for file in files {
                for name in streamNames(readBy: file) where seen.insert(name).inserted {
                    if case .stream(let stream)? = value(of: name), !results.contains(where: { $0.stream === stream }) {
                        recorded.append((name, run.record(stream)))
                    }
                }
            }
        }
        let resultRecorders = results.map { run.record($0.stream) }
        recorded += zip(results, resultRecorders).map { ($0.label, $1) }
        let cutAt = Self.runUntilDrawn(run.marbles.scheduler, watching: resultRecorders)
        for (_, recorder) in recorded { recorder.dispose() }
        var options = options
        options.symbols = drawnSymbols
        let diagrams: [LaneDiagram]
        if let tracer = run.marbles.scheduler.tracer {
            diagrams = TraceDiagram.diagrams(from: tracer, at: run.marbles.scheduler.now, options: options)
        } else {
            diagrams = [Report.lanes(recorded, options: options)]
        }
        let rendered = diagrams.map { $0.render() }
        for diagram in rendered {
            for (symbol, value) in diagram.legend where drawnSymbols[String(symbol)] == nil { drawnSymbols[String(symbol)] = value }
        }
        return Drawing(diagrams: diagrams, rendered: rendered, cutAt: cutAt)
    }

    /// `a, b.map { $0 }` as `a` and `b.map { $0 }`: commas inside
    /// brackets, braces, parentheses and strings do not split.
    static func splitAtTopLevelCommas(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for c in text {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else {
                switch c {
                case "\"": inString = true
                case "(", "[", "{": depth += 1
                case ")", "]", "}": depth -= 1
                case "," where depth == 0:
                    parts.append(current)
                    current = ""
                    continue
                default: break
                }
            }
            current.append(c)
        }
        parts.append(current)
        // A stray comma (`:marble a,`) is left to the compiler to report.
        return parts.count > 1 && parts.allSatisfy({ !$0.trimmingWhitespace().isEmpty }) ? parts : [text]
    }

    /// Runs virtual time until the stream ends; an endless one is cut once
    /// it has shown enough (ten values, or a minute).
    private static func runUntilDrawn(_ clock: VirtualScheduler, watching recorders: [EventRecorder]) -> TimeSpan? {
        var limit = TimeSpan.milliseconds(Int64(100))
        let longest = TimeSpan.seconds(60)
        while true {
            guard clock.run(timeLimit: limit, actionLimit: clock.executedActions + 200_000) == .limitReached else { return nil }
            // Work still due before the limit: the action budget ran out.
            if clock.nextDueTime.map({ $0 <= limit }) == true { return clock.now }
            if recorders.allSatisfy({ $0.events.count >= 10 || $0.events.last?.event.isTerminal == true }) || limit >= longest { return limit }
            limit = limit + limit
        }
    }


    /// Bound names an input reads (not members after a `.`), in order.
    private func streamNames(readBy file: SourceFile) -> [String] {
        var lexer = Lexer(file: file)
        var names: [String] = []
        var previous: TokenKind?
        for token in lexer.tokenize() {
            if case .identifier(let name) = token.kind, previous != .symbol("."), !names.contains(name) { names.append(name) }
            previous = token.kind
        }
        return names
    }
}

/// A subscription the session started: a stream typed at the prompt, or a
/// statement that subscribes (`sink`, `.print()`).
public final class Job {
    public let id: Int
    /// The statement as typed.
    public let label: String
    /// When it was subscribed, on the session's clock.
    public let startedAt: TimeSpan
    /// Values delivered so far, for a stream typed at the prompt; nil for a
    /// statement that subscribes itself (`sink`), whose values the session
    /// does not see.
    public internal(set) var valueCount: Int?
    fileprivate private(set) var subscriptions: [RunningSubscription] = []
    private let run: RunState

    init(id: Int, label: String, run: RunState, startedAt: TimeSpan) {
        self.id = id
        self.label = label
        self.run = run
        self.startedAt = startedAt
    }

    fileprivate func add(_ subscription: RunningSubscription) { subscriptions.append(subscription) }

    public var isRunning: Bool { subscriptions.contains { run.isActive($0) } }

    func cancel() {
        if isRunning { run.wasCancelled = true }
        for subscription in subscriptions where run.isActive(subscription) {
            run.untrack(subscription)
            subscription.dispose()
        }
    }
}
