import Dispatch
import NIOConcurrencyHelpers
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// A compiled script, ready to run on the live clock, in virtual time, or as tests.
public final class Program {
    public let file: SourceFile
    let environment: Environment
    private let topLevel: [Code]
    private let tests: [Compiler.CompiledTest]
    private let globalSize: Int
    /// Top-level `let` names and their slots, in the order written.
    private let bindings: [(name: String, slot: Int)]
    private let console: Console
    /// What compiles and runs but probably does not do what was meant
    /// (`flow check` reports it).
    public let warnings: [Diagnostic]

    /// Parses and compiles; throws every diagnostic at once. With
    /// `isolatingTests` (`flow test`), errors inside a test block fail that
    /// test alone (`problems(ofTest:)`) and only the others are thrown.
    /// With a `dialect`, the script follows it whatever its imports say.
    public init(file: SourceFile, console: Console, arguments: [String] = [], modules: [BuiltinModule] = [],
                isolatingTests: Bool = false, dialect: Dialect? = nil) throws {
        let env = Environment(file: file, output: console.out, run: .virtual(name: file.path), arguments: arguments, modules: modules)
        if let dialect {
            env.dialect = dialect
            env.dialectIsChosen = true
        }
        let scope = Scope(kind: .script, parent: nil)
        let compiled = try FrontEnd.compile(file, in: scope, environment: env, isolatingTests: isolatingTests)
        self.warnings = compiled.warnings
        self.file = file
        self.environment = env
        self.topLevel = zip(compiled.statements, compiled.body).map { statement, code in
            Self.printingStreams(of: statement, code, file: file, environment: env)
        }
        self.tests = compiled.tests
        self.testFile = file
        self.continuesAfterErrors = false
        self.topLevelNames = []
        self.namesUsedByTest = []
        self.brokenTests = compiled.brokenTests
        self.testPoints = compiled.testPoints
        self.facts = compiled.facts
        self.globalSize = scope.count
        self.bindings = scope.declaredNames
        self.console = console
        env.reportStreamError = { [console, file, unowned env] error in
            // After `exit`, what fails is the script's way out.
            if env.exitStatus == nil { console.err(Report.streamError(error, file: file, color: console.color)) }
        }
        env.errorOutput = console.err
        // Notes about output files are the run's, not the script's output.
        env.note = { [console] note in console.err("flow: " + note) }
    }

    /// A student's file graded on a key's tests (`flow grade --key`). The
    /// two are parsed as the units they are, each with its own lines. The
    /// key's declarations (the given inputs) are compiled first and stand:
    /// the student's declarations of the same names are not compiled. The
    /// student's file is compiled under them, without its own test blocks.
    /// The key's tests see the student's names except those the language
    /// itself defines (`expect`, `cold`, `hot`, ...), so a student's own
    /// `func expect` never replaces the key's vocabulary; a name the key
    /// needs and the student did not define fails that test alone.
    public init(grading student: SourceFile, on key: SourceFile, console: Console, modules: [BuiltinModule] = []) throws {
        let env = Environment(file: student, output: console.out, run: .virtual(name: student.path), arguments: [], modules: modules)
        let root = Scope(kind: .script, parent: nil)
        let given = try FrontEnd.compile(key, in: root, environment: env, including: { !$0.isTest })
        let givenNames = Set(root.declaredNames.map(\.name)).union(root.types.keys).union(root.typeAliases.keys).union(root.protocols.keys)
        let studentScope = Scope(scriptSharingFrameOf: root)
        let own = try FrontEnd.compile(student, in: studentScope, environment: env, isolatingTests: true, including: { statement in
            statement.isDeclaration && !(statement.declaredName.map(givenNames.contains) ?? false)
        })
        let testScope = Scope(scriptSharingFrameOf: root)
        let language = Set(Builtins.allNames).union(env.modules.keys)
        testScope.adopt(studentScope) { !language.contains($0) && !givenNames.contains($0) }
        let tests = try FrontEnd.compile(key, in: testScope, environment: env, isolatingTests: true, including: \.isTest)
        self.warnings = own.warnings
        self.file = student
        self.testFile = key
        self.environment = env
        self.topLevel = zip(given.statements, given.body).map { Self.printingStreams(of: $0, $1, file: key, environment: env) }
            + zip(own.statements, own.body).map { Self.printingStreams(of: $0, $1, file: student, environment: env) }
        self.tests = tests.tests
        self.brokenTests = tests.brokenTests
        self.testPoints = tests.testPoints
        var facts = own.facts
        for other in [given.facts, tests.facts] {
            facts.playsMarbles = facts.playsMarbles || other.playsMarbles
            facts.needsLiveClock = facts.needsLiveClock || other.needsLiveClock
            facts.drawsMarbles = facts.drawsMarbles || other.drawsMarbles
            facts.usedModules.formUnion(other.usedModules)
        }
        self.facts = facts
        // Each top-level statement of a graded file runs whatever the one
        // before did: a leftover failing line costs nothing by itself, and a
        // failed declaration fails the tests that use it (`runTest`).
        self.continuesAfterErrors = true
        self.topLevelNames = given.statements.map { _ in nil } + own.statements.map(\.declaredName)
        self.namesUsedByTest = tests.tests.map { test in
            var lexer = Lexer(file: key, range: test.span.start..<test.span.end)
            return Set(lexer.tokenize().compactMap { if case .identifier(let name) = $0.kind { name } else { nil } })
        }
        self.globalSize = root.count
        self.bindings = studentScope.declaredNames + root.declaredNames
        self.console = console
        env.reportStreamError = { [console, student] error in console.err(Report.streamError(error, file: student, color: console.color)) }
        env.note = { [console] note in console.err("flow: " + note) }
    }

    public var testNames: [String] { tests.map(\.name) }
    /// Whose semantics the script follows: `--dialect`'s, its import's, or flow's.
    public var dialect: Dialect { environment.dialect }

    /// Compiles a script for its diagnostics alone (`flow check`): what
    /// `init` would throw is thrown, and its warnings are returned. No code
    /// is kept, so a long script is checked in the memory of its syntax.
    public static func check(_ file: SourceFile, modules: [BuiltinModule] = []) throws -> [Diagnostic] {
        let env = Environment(file: file, output: { _ in }, run: .virtual(name: file.path), arguments: [], modules: modules)
        return try FrontEnd.compile(file, in: Scope(kind: .script, parent: nil), environment: env, keepingCode: false).warnings
    }

    /// The types the compiler knows of the script's `let`s and `var`s, in
    /// Swift's spelling (`Int`, `[Double]`, `Observable<String>`), by the
    /// byte offset where each name is written: what an editor's hover says
    /// of a name. Read from the same compilation `check` makes, so a type is
    /// never guessed again elsewhere; a binding whose type is only partly
    /// known (`Observable<Any>`) is left out, and so is what follows an
    /// error the compiler could not get past. Nothing runs.
    public static func bindingTypes(_ file: SourceFile, modules: [BuiltinModule] = []) -> [Int: String] {
        editorFacts(file, modules: modules).bindingTypes
    }

    /// The members of the script's types that its member names mean, where
    /// the compiler knows the receiver's type (`w.total()`, `self.count`,
    /// `.usd`, a bare `total()` in a method or an extension, at any depth:
    /// `a.wallet.total()`, `$0.total()`), and the funcs its calls reach
    /// (among overloads, the one chosen): the span of each such name, to
    /// the span of the member's or func's declared name. What an
    /// editor's definition, references and hover follow. Read from the same
    /// compilation `check` makes; nothing runs.
    public static func memberUses(_ file: SourceFile, modules: [BuiltinModule] = []) -> [Span: Span] {
        editorFacts(file, modules: modules).memberUses
    }

    /// `bindingTypes` and `memberUses` from one compilation: what an editor
    /// asks of a document each time its text changes.
    public static func editorFacts(_ file: SourceFile, modules: [BuiltinModule] = [])
        -> (bindingTypes: [Int: String], memberUses: [Span: Span]) {
        let env = Environment(file: file, output: { _ in }, run: .virtual(name: file.path), arguments: [], modules: modules)
        env.bindingTypes = [:]
        env.memberUses = [:]
        _ = try? FrontEnd.compile(file, in: Scope(kind: .script, parent: nil), environment: env, keepingCode: false)
        return ((env.bindingTypes ?? [:]).filter { $0.value.isWhollyKnown }.mapValues(\.swiftName), env.memberUses ?? [:])
    }

    /// The script plays marble strings and nothing in it needs the wall
    /// clock: run in virtual time, it does the same, instantly, and its
    /// lanes are exact (on the live clock they would show scheduling).
    public var isDrivenByMarblesAlone: Bool { facts.playsMarbles && !facts.needsLiveClock }

    /// The script has sources of events in real time: timers, or what a
    /// module reads from outside (files, requests, standard input).
    public var needsLiveClock: Bool { facts.needsLiveClock }

    /// The modules the script calls (`file`, `http`, …).
    public var usedModules: Set<String> { facts.usedModules }

    /// The compile errors inside test block `index`: it fails with them, and
    /// `runTest` does not run it.
    public func problems(ofTest index: Int) -> [Diagnostic] { tests[index].problems }

    /// What test block `index` is worth when a class is graded:
    /// `test "name" (points: n)`, else 1.
    public func points(ofTest index: Int) -> Int { testPoints[tests[index].span.start] ?? 1 }

    /// What test block `index` earned of `points(ofTest:)`: all of them if
    /// it passed; else what its expectations that carry points earned
    /// (`toBe(..., points: 2, partial: .perEvent)`), the rest nothing.
    public func earned(ofTest index: Int, _ outcome: Outcome) -> Int {
        let worth = points(ofTest: index)
        if outcome.passed { return worth }
        return min(worth, outcome.scores.map(\.earned).reduce(0, +))
    }
    private let testPoints: [Int: Int]
    /// Where the test blocks are written: the file, or a grading key.
    private let testFile: SourceFile
    /// A graded file's top level: an error stops its statement alone.
    private let continuesAfterErrors: Bool
    /// The name each top-level statement declares, when graded.
    private let topLevelNames: [String?]
    /// The names each test block mentions, when graded.
    private let namesUsedByTest: [Set<String>]
    /// The graded file's declarations that failed when the top level ran,
    /// with their errors, in the order they failed.
    public private(set) var failedDeclarations: [(name: String, error: FlowError)] = []
    /// What compiling found the script needs: how it is run.
    private let facts: ScriptFacts

    /// With `isolatingTests`: the test blocks that did not parse, with their
    /// errors. They count as failed.
    public let brokenTests: [(name: String, problems: [Diagnostic])]

    /// A stream written as a statement on its own at the top of a script
    /// runs, and its values print, one a line, as the REPL shows them (an
    /// error fails the run, as one nobody handles does). Inside a test
    /// block a stream is only described, until something subscribes it.
    private static func printingStreams(of statement: Statement, _ code: @escaping Code, file: SourceFile, environment: Environment) -> Code {
        guard case .expression(let expr) = statement, !Compiler.subscribesItself(expr) else { return code }
        let location = file.location(of: expr.span.start)
        return { frame in
            let value = try code(frame)
            if case .stream(let stream) = value {
                var handlers = Handlers()
                handlers.next = Function.unary(name: "print") { value in
                    environment.output(value.description)
                    return .null
                }
                environment.subscribe(stream, at: location, handlers: handlers)
            }
            return value
        }
    }

    /// The outcome of a run: how many expectations failed, whether a stream
    /// or a statement ended in an error.
    public struct Outcome {
        public var failures: [MarbleRun.ExpectationFailure] = []
        public var errors: [FlowError] = []
        public var expectations = 0
        /// The diagrams of the run (`marbles(...)`, `--marbles`, traces), as drawn.
        public var diagrams: [LaneDiagram.Rendered] = []
        /// The same diagrams, to draw again in another form (SVG).
        public var laneDiagrams: [LaneDiagram] = []
        /// Where a run in virtual time that never went idle was stopped (by
        /// `laneBudget`, or a limit): its lanes hold what came before.
        public var cutAt: TimeSpan?
        /// What stopped the live run from outside (Ctrl-C, SIGTERM), if anything did.
        public var interrupted: Interrupt?
        /// The status the script's `exit(code)` asked for, if it called it:
        /// the run stopped there, and its errors are not counted.
        public var exitStatus: Int32?
        /// With `answersExercises`: the exercises' unanswered lanes, in the
        /// order they were checked.
        public var questions: [ExerciseQuestion] = []
        /// What each expectation that carries points earned of them.
        public var scores: [(earned: Int, possible: Int)] = []
        /// What the run's sinks committed (rows, lines, files): its
        /// `summary` is what each command says of it.
        public var commits = CommitLedger()
        public var passed: Bool { failures.isEmpty && errors.isEmpty }
    }

    private var globals: Frame?

    /// Runs the top-level statements: subscriptions on the live clock (or
    /// virtual time), then expectations and `marbles` lanes in virtual time.
    /// Whether `marbles(...)` lanes are drawn (not while running tests).
    public var drawsLanes = true
    /// Whether errors are printed on standard error as they happen; `flow
    /// test` prints them with the test they fail instead (`Outcome.errors`).
    public var reportsErrors = true {
        didSet {
            let (console, file, reports, env) = (console, file, reportsErrors, environment)
            environment.reportStreamError = { [unowned env] error in
                if reports && env.exitStatus == nil { console.err(Report.streamError(error, file: file, color: console.color)) }
            }
        }
    }
    /// How lanes are drawn: time scale, wide values, colour.
    public var laneOptions = LaneDiagram.Options()
    /// For a run in virtual time that draws (an editor's hover): it stops
    /// once each lane has ended or holds this many events, so an endless
    /// stream's lane is its beginning (`Outcome.cutAt`), not nothing.
    public var laneBudget: Int?
    /// Draw a lane for every stream bound at the top level (`flow run --marbles`),
    /// and in a test block, by `runTest` (an editor's hover).
    public var marblesForBindings = false
    /// Trace every chain a statement subscribes or draws (`flow run --trace`).
    public var tracesEverything = false
    /// A test block's `toBe("???")` records the right answer in
    /// `Outcome.questions` instead of failing "not answered yet".
    public var answersExercises: Bool {
        get { environment.answersExercises }
        set { environment.answersExercises = newValue }
    }
    /// Where test block `index` is written, from `test` to its `}`.
    public func span(ofTest index: Int) -> Span { tests[index].span }
    /// A live run ends on Ctrl-C, cancelling its subscriptions (the command line).
    public var stopsOnInterrupt = false
    /// Asked, from the run's thread, by a run in virtual time every few
    /// thousand steps (its clock's actions, a loop's iterations): true stops
    /// it there, with an error saying so (an editor cancelled the hover
    /// the run is for). It may read what another thread sets.
    public var stopRequested: (() -> Bool)? {
        didSet {
            guard let stopRequested else { return }
            environment.interruptRequested = stopRequested
            environment.interruptedBy = { "the editor's cancellation" }
        }
    }
    /// With tracing, also draw when each source was subscribed (`--subscriptions`).
    public var showsSubscriptions = false
    /// Follows and stops a live run from another thread (`flow serve`).
    public var remote: LiveRunRemote?
    /// Runs just before the process is made to exit because a busy run did
    /// not stop in time, given what the run's sinks committed (the command
    /// line removes unfinished output files and says what was committed).
    public var beforeForcedExit: @Sendable (CommitLedger, Interrupt) -> Void = { _, _ in }

    /// Where a run's time comes from.
    public enum Clock {
        /// Deterministic virtual time: instant, exact lanes.
        case virtual
        /// The wall clock, on a loop the host starts.
        case live(any LiveHost)
    }

    public func run(on clock: Clock) -> Outcome {
        let frame = Frame(count: globalSize, parent: nil)
        globals = frame
        environment.exitStatus = nil
        defer { environment.requestExit = nil }
        guard case .live(let host) = clock else {
            let run = RunState.virtual(name: file.path)
            if let stopRequested { run.marbles.stopRequested = stopRequested }
            budget(run.marbles)
            environment.requestExit = { [unowned environment = self.environment] code in
                environment.exitStatus = code
                run.cancelAll()
            }
            if marblesForBindings {
                // Bound streams are drawn from the run's own subscriptions,
                // as on the live clock: drawing them subscribes nothing more.
                run.scheduler.tracer = run.scheduler.tracer ?? Tracer()
                environment.watchesBindings = true
            }
            return Self.exiting(execute(topLevel, in: frame, run: run), environment)
        }
        var outcome = Outcome()
        let marbles = MarbleRun()
        var liveRun: RunState?
        var interruption: InterruptWatch?
        var memoryWatch: InterruptWatch?
        let loopEnded = Watchdog()
        defer { loopEnded.disarm() }
        host.run { [self, console] scheduler, stop in
            let run = RunState(name: file.path, scheduler: scheduler, marbles: marbles)
            liveRun = run
            // Ctrl-C (or the page's stop) cancels every subscription on the
            // loop, then stops it.
            let hop = scheduler.makeCallback { (kind: Interrupt) in
                outcome.interrupted = kind
                run.cancelAll()
                stop()
            }
            // Asked first, from the caller's thread: a `range` or a loop
            // that keeps the loop busy sees it and gives the loop back.
            let asked = scheduler.interruption ?? Interruption()
            let interrupt: @Sendable (Interrupt) -> Void = { kind in
                asked.request(kind)
                hop(kind)
            }
            environment.interruptRequested = { asked.isRequested }
            environment.interruptedBy = { asked.requestedBy?.name ?? "Ctrl-C" }
            environment.requestExit = { [unowned environment = self.environment] code in
                environment.exitStatus = code
                asked.request()
                run.cancelAll()
                stop()
            }
            if stopsOnInterrupt {
                let (beforeForcedExit, commits) = (self.beforeForcedExit, run.commits)
                interruption = host.watchInterrupts { kind in
                    interrupt(kind)
                    // The loop may be busy with synchronous work that does
                    // not look at the request (a closure computing for
                    // long) and never reach the hop: the interrupt must
                    // still end the run.
                    loopEnded.arm(after: Program.interruptGrace) {
                        beforeForcedExit(commits, kind)
                        console.err("flow: stopped: the run was busy and did not stop within half a second")
                        _exit(kind.exitStatus)
                    }
                }
            }
            if MemoryBudget.processBytes > 0 {
                // Over --max-memory: the run ends with an error at the stage
                // holding the most values, as a stream error would end it.
                let overLimit = scheduler.makeCallback { [environment] (resident: Int) in
                    let error = MemoryBudget.processExceeded(resident: resident, holder: HeldValues.of(scheduler).largest)
                    run.streamErrors.append(error)
                    environment.reportStreamError(error)
                    run.cancelAll()
                    stop()
                }
                memoryWatch = host.watchMemory(limit: MemoryBudget.processBytes) { resident in
                    // A loop busy with a synchronous source gives it back.
                    asked.request()
                    overLimit(resident)
                }
            }
            if let remote {
                environment.interruptedBy = { "the page's Stop" }
                let (options, subscriptions) = (laneOptions, showsSubscriptions)
                remote.attach(stop: { _ in interrupt(.interrupt) }, snapshot: scheduler.makeCallback { (request: LiveRunRemote.Request) in
                    request.receive(run.diagrams(laneOptions: options, showsSubscriptions: subscriptions), run.streamErrors, run.commits)
                })
            }
            if marblesForBindings || facts.drawsMarbles {
                scheduler.tracer = scheduler.tracer ?? Tracer()
                environment.watchesBindings = true
            }
            outcome.errors += executeStatements(topLevel, in: frame, run: run)
            if marblesForBindings { run.observedGroups.append((nil, observedBindings(frame, names: bindings, run: run))) }
            run.recordUnobservedLanes()
        }
        interruption?.cancel()
        memoryWatch?.cancel()
        // The request was this run's: the test blocks run after it, each in
        // virtual time, whether or not it was stopped.
        environment.interruptRequested = { false }
        guard let run = liveRun else { return outcome }
        outcome.commits = run.commits
        let after = finish(run, bindings: (frame, bindings))
        run.countErrorsNotShown(report: environment.reportStreamError)
        outcome.errors += run.streamErrors
        outcome.failures = after.failures
        outcome.diagrams = after.diagrams.map { $0.render() }
        outcome.laneDiagrams = after.diagrams
        outcome.expectations = run.expectationCount
        return Self.exiting(outcome, environment)
    }

    /// The outcome of a run the script ended with `exit(code)`: that
    /// status, and none of the errors its stopping caused.
    private static func exiting(_ outcome: Outcome, _ environment: Environment) -> Outcome {
        guard let status = environment.exitStatus else { return outcome }
        var outcome = outcome
        outcome.exitStatus = status
        outcome.errors = []
        return outcome
    }

    /// How long Ctrl-C waits for a busy loop to stop cleanly.
    static let interruptGrace = 500_000_000

    /// Runs one test block in its own virtual-time run. The top level must
    /// have run first (its bindings are the block's outer scope).
    public func runTest(_ index: Int) -> Outcome {
        let test = tests[index]
        guard test.problems.isEmpty else {
            var outcome = Outcome()
            outcome.errors = test.problems.map { FlowError($0.message, at: $0.location) }
            return outcome
        }
        let globals = self.globals ?? Frame(count: globalSize, parent: nil)
        let frame = Frame(count: test.scope.count, parent: globals)
        let run = RunState.virtual(name: test.name, location: testFile.location(of: test.span.start))
        if let stopRequested { run.marbles.stopRequested = stopRequested }
        budget(run.marbles)
        if marblesForBindings {
            run.scheduler.tracer = run.scheduler.tracer ?? Tracer()
            environment.watchesBindings = true
        }
        var outcome = execute(test.body, in: frame, run: run, bindings: test.scope.declaredNames)
        if index < namesUsedByTest.count {
            let used = namesUsedByTest[index]
            outcome.errors = failedDeclarations.filter { used.contains($0.name) }.map(\.error) + outcome.errors
        }
        if !run.unanswered.isEmpty {
            // The marble streams bound by name, in the block and at the top.
            let named = (test.scope.declaredNames.map { ($0.name, frame.slots[$0.slot]) } + bindings.map { ($0.name, globals.slots[$0.slot]) })
                .compactMap { name, value -> (name: String, stream: Observable)? in
                    guard case .stream(let stream) = value else { return nil }
                    return (name, stream)
                }
            let text = testFile.text(of: test.span)
            outcome.questions = run.unanswered.map { $0.question(named: named, mentioned: text) }
        }
        return outcome
    }

    private func budget(_ marbles: MarbleRun) {
        marbles.laneBudget = laneBudget
    }

    /// `bindings`: the names of a test block's frame, drawn with `marblesForBindings`.
    private func execute(_ body: [Code], in frame: Frame, run: RunState, bindings: [(name: String, slot: Int)]? = nil) -> Outcome {
        var outcome = Outcome()
        outcome.errors = executeStatements(body, in: frame, run: run)
        let after = finish(run, bindings: frame === globals ? (frame, self.bindings) : bindings.map { (frame, $0) })
        outcome.failures = after.failures
        outcome.diagrams = after.diagrams.map { $0.render() }
        outcome.laneDiagrams = after.diagrams
        run.countErrorsNotShown(report: environment.reportStreamError)
        outcome.errors += run.streamErrors
        outcome.expectations = run.expectationCount
        outcome.scores = run.marbles.scores
        outcome.cutAt = run.marbles.cutAt
        outcome.commits = run.commits
        return outcome
    }

    /// Runs statements in order; a statement that throws stops the rest.
    private func executeStatements(_ body: [Code], in frame: Frame, run: RunState) -> [FlowError] {
        environment.run = run
        run.reportDiagramError = { [unowned environment] in environment.reportStreamError($0) }
        environment.tracesEverything = tracesEverything
        if tracesEverything {
            run.scheduler.tracer = run.scheduler.tracer ?? Tracer()
            run.marbles.scheduler.tracer = run.marbles.scheduler.tracer ?? Tracer()
        }
        if continuesAfterErrors && frame === globals {
            var errors: [FlowError] = []
            for (index, statement) in body.enumerated() {
                if environment.interruptRequested() { break }
                do {
                    _ = try statement(frame)
                } catch {
                    let failure = FlowError.wrap(error)
                    errors.append(failure)
                    if index < topLevelNames.count, let name = topLevelNames[index] { failedDeclarations.append((name, failure)) }
                }
            }
            return errors
        }
        do {
            for statement in body {
                // Stopped while a statement kept the loop busy: the rest
                // of the script does not start.
                if environment.interruptRequested() || environment.exitStatus != nil { break }
                _ = try statement(frame)
            }
            return []
        } catch {
            let failure = FlowError.wrap(error)
            if reportsErrors && environment.exitStatus == nil { console.err(Report.streamError(failure, file: file, color: console.color)) }
            return [failure]
        }
    }

    /// Runs the virtual clock to idle, draws the lanes, checks expectations.
    private func finish(_ run: RunState, bindings: (frame: Frame, names: [(name: String, slot: Int)])?)
        -> (failures: [MarbleRun.ExpectationFailure], diagrams: [LaneDiagram]) {
        environment.run = run
        if marblesForBindings, let bindings, run.scheduler.isVirtual {
            run.observedGroups.append((nil, observedBindings(bindings.frame, names: bindings.names, run: run)))
            // What the run did not subscribe is recorded now, from frame 0.
            run.recordUnobservedLanes()
        }
        let (failures, diagrams) = run.conclude(laneOptions: laneOptions, showsSubscriptions: showsSubscriptions,
                                                    hotStreams: environment.liveHotStreams)
        // A line `print(..., terminator:)` left open ends with the run, before its lanes.
        environment.finishPrinting()
        if drawsLanes { for diagram in diagrams { console.out(diagram.render().text) } }
        return (failures, diagrams)
    }

    /// `--marbles`: a lane per stream bound by a top-level `let`, in order:
    /// what the run's own subscriptions of it saw (or, for a stream the run
    /// does not subscribe, a recording of it: `recordUnobservedLanes`).
    /// A stream a `marbles(...)` call draws already is not drawn twice.
    private func observedBindings(_ frame: Frame, names: [(name: String, slot: Int)], run: RunState)
        -> [(label: String, lane: RunState.ObservedLane)] {
        let drawn = run.drawnStreams
        return names.compactMap { name, slot in
            guard case .stream(let stream) = frame.slots[slot], !drawn.contains(ObjectIdentifier(stream)) else { return nil }
            return (name, .observed(stream))
        }
    }
}

/// Where a program's output goes.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    public var color: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, color: Bool) {
        self.out = out
        self.err = err
        self.color = color
    }
}

/// Runs an action on a thread of its own after a delay, unless disarmed
/// first: the last resort when the loop cannot be reached.
final class Watchdog: Sendable {
    private let disarmed = NIOLockedValueBox(false)

    func arm(after nanoseconds: Int, _ action: @escaping @Sendable () -> Void) {
        startBackgroundThread { [disarmed] in
            var pause = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
            var left = timespec()
            while nanosleep(&pause, &left) != 0 { pause = left }
            if !disarmed.withLockedValue({ $0 }) { action() }
        }
    }

    func disarm() { disarmed.withLockedValue { $0 = true } }
}

private extension Statement {
    /// `let`, `var`, `func`, a type, an extension, a `typealias`.
    var isDeclaration: Bool {
        switch self {
        case .binding, .destructuring, .function, .type, .typeAlias: true
        default: false
        }
    }

    /// The name a top-level declaration gives (`let`, `var`, `func`, a type,
    /// a `typealias`); nil for an extension and every other statement.
    var declaredName: String? {
        switch self {
        case .binding(let name, _, _, _, _, _), .typeAlias(let name, _, _, _, _): name
        case .function(let declaration): declaration.name
        case .type(let declaration): declaration.kind == .extension ? nil : declaration.name
        default: nil
        }
    }
}

extension StaticType {
    /// Known in every part: `[Int]`, not `[Any]`.
    var isWhollyKnown: Bool {
        switch self {
        case .unknown: false
        case .optional(let inner), .array(let inner), .stream(let inner): inner.isWhollyKnown
        case .dictionary(let key, let value): key.isWhollyKnown && value.isWhollyKnown
        case .tuple(let elements, _): elements.allSatisfy(\.isWhollyKnown)
        case .function(let parameters, let result): parameters.allSatisfy(\.isWhollyKnown) && result.isWhollyKnown
        default: true
        }
    }
}
