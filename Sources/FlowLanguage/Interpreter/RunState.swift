import FlowMarbles
import FlowRuntime

/// One run of statements: the script's top level, or one test block.
/// Compiled code reaches it through the `Environment`.
public final class RunState {
    public let name: String
    /// Where `print`/`sink` subscriptions run: live or virtual.
    public let scheduler: Scheduler
    /// The virtual-time run that records `expect` and `marbles`.
    public let marbles: MarbleRun
    /// The run's steps of work so far (iterations of every loop, objects
    /// made), counted a stride at a time: a virtual-time run's work budget
    /// is for all its loops and objects together, so nested loops cannot
    /// multiply it.
    var workSteps = 0
    /// The most steps a virtual-time run makes in all.
    static let workBudget = 10 * VirtualScheduler.synchronousValueLimit
    /// Lanes registered by `marbles(...)`, drawn when the run ends.
    var lanes: [[(label: String, recorder: EventRecorder)]] = []
    /// `marbles(title: ...)`: the title of a group of `lanes`, by index.
    var laneTitles: [Int: String] = [:]
    /// Where each recorder of `lanes` was asked for: the `marbles(...)`
    /// call a diagram comes from.
    private var recordedAt: [ObjectIdentifier: SourceLocation] = [:]
    /// Lanes drawn on the live clock (`marbles(...)`, `flow run --marbles`):
    /// each from the subscriptions the run made itself (a request is not
    /// made again to draw it), or recorded where the run made none.
    var observedGroups: [(title: String?, lanes: [(label: String, lane: ObservedLane)])] = []
    /// The `marbles(...)` call of each of `observedGroups` that has one, by position.
    var observedGroupLocations: [Int: SourceLocation] = [:]
    enum ObservedLane {
        case observed(Observable)
        case recorded(EventRecorder)
    }

    /// The streams `marbles(...)` calls draw, in either form.
    var drawnStreams: Set<ObjectIdentifier> {
        var drawn = Set(lanes.joined().compactMap { $0.recorder.stream.map(ObjectIdentifier.init) })
        for group in observedGroups {
            for (_, lane) in group.lanes {
                switch lane {
                case .observed(let node): drawn.insert(ObjectIdentifier(node))
                case .recorded(let recorder): if let stream = recorder.stream { drawn.insert(ObjectIdentifier(stream)) }
                }
            }
        }
        return drawn
    }

    /// Once the top level has run (and made its subscriptions): the lanes
    /// of streams the run did not subscribe are recorded now.
    func recordUnobservedLanes() {
        for g in observedGroups.indices {
            for l in observedGroups[g].lanes.indices {
                guard case .observed(let node) = observedGroups[g].lanes[l].lane,
                      scheduler.tracer?.subscriptions(of: node).isEmpty != false else { continue }
                observedGroups[g].lanes[l].lane = .recorded(record(node))
            }
        }
    }
    /// The files this run's sinks write, kept for the whole run.
    let claims = RunClaims()
    /// What this run's sinks committed: rows, lines, files.
    public let commits = CommitLedger()
    /// Expectations registered in this run (a test block with none passes trivially).
    var expectationCount = 0
    /// Exercises' `toBe("???")` lanes met while answering exercises.
    var unanswered: [UnansweredLane] = []
    /// Stream errors that reached a subscriber with no error handler (and
    /// failed deinits, dispatched closures, late commits): the first
    /// `Diagnostic.cap`, as a script's compile errors are kept.
    var streamErrors: [FlowError] = []
    /// Those past the cap: counted, not kept or shown; the first one's place.
    private var errorsNotShown = 0
    private var firstNotShown: SourceLocation?
    /// A session's run lasts as long as the session, and shows every error.
    var capsErrors = true

    /// A stream error of this run: kept and shown (`report`) while fewer
    /// than `Diagnostic.cap` are, then only counted, so 300 000 failing
    /// deinits print a screenful, not 41 MB.
    func failed(_ error: FlowError, report: (FlowError) -> Void) {
        guard capsErrors, streamErrors.count >= Diagnostic.cap else {
            streamErrors.append(error)
            return report(error)
        }
        if errorsNotShown == 0 { firstNotShown = error.location }
        errorsNotShown += 1
    }

    /// Once the run has stopped: the errors past the cap, counted as one
    /// more, at the first of them (as the compile errors' cap says it).
    func countErrorsNotShown(report: (FlowError) -> Void) {
        guard errorsNotShown > 0 else { return }
        let n = errorsNotShown
        errorsNotShown = 0
        let summary = FlowError("and \(n) more error\(n == 1 ? "" : "s") after this point, not shown: fix these first", at: firstNotShown)
        streamErrors.append(summary)
        report(summary)
    }
    /// Subscriptions still running, so an interrupt can cancel them all.
    /// Each knows its slot, so adding and removing one costs no hashing:
    /// scripts that subscribe inside a closure do both per event.
    private var active: [RunningSubscription] = []
    /// Told of each subscription a statement starts (the REPL's jobs).
    var onTrack: ((RunningSubscription) -> Void)?
    /// Draw `marbles(...)` lanes in virtual time even on the live clock
    /// (the REPL draws them at once, as it does for `:marble`).
    var lanesInVirtualTime = false

    func track(_ subscription: some RunningSubscription) {
        subscription.runningSlot = active.count
        active.append(subscription)
        onTrack?(subscription)
    }

    func untrack(_ subscription: some RunningSubscription) {
        guard isActive(subscription) else { return }
        let last = active.removeLast()
        if subscription.runningSlot < active.count {
            active[subscription.runningSlot] = last
            last.runningSlot = subscription.runningSlot
        }
        subscription.runningSlot = -1
        if active.isEmpty { onIdle?() }
    }

    /// Whether nothing the run subscribed is still running.
    var isIdle: Bool { active.isEmpty }
    /// Told when the run's last running subscription ends (the REPL then
    /// says what a line's sinks committed). It is told as the subscription
    /// is let go of, before its sinks have been told how it ended.
    var onIdle: (() -> Void)?
    /// Whether the user stopped a subscription of it (the REPL's Ctrl-C or `:cancel`).
    var wasCancelled = false

    func isActive(_ subscription: some RunningSubscription) -> Bool {
        let slot = subscription.runningSlot
        return slot >= 0 && slot < active.count && active[slot] === subscription
    }

    /// Cancels every running subscription (Ctrl-C): requests are cancelled,
    /// files flushed and closed.
    func cancelAll() {
        let all = active
        active = []
        for subscription in all {
            subscription.runningSlot = -1
            subscription.dispose()
        }
    }

    /// The run's random numbers: seeded in virtual time, so runs repeat.
    lazy var random = RandomSource(seeded: scheduler.isVirtual)

    init(name: String, scheduler: Scheduler, marbles: MarbleRun) {
        self.name = name
        self.scheduler = scheduler
        self.marbles = marbles
    }

    /// Records a stream for a lane: in virtual time from frame 0, before
    /// anything else of that frame; on the live clock with real times.
    func record(_ stream: Observable, at location: SourceLocation? = nil) -> EventRecorder {
        if scheduler.isVirtual || lanesInVirtualTime {
            let recorder = marbles.observe(stream, subscription: SubscriptionLog(subscribed: .zero, unsubscribed: nil), location: location)
            if let location { recordedAt[ObjectIdentifier(recorder)] = location }
            return recorder
        }
        let recorder = EventRecorder(scheduler: scheduler)
        recorder.stream = stream
        if let location { recordedAt[ObjectIdentifier(recorder)] = location }
        track(RecordingSubscription(recorder))
        stream.subscribe(recorder, on: scheduler)
        return recorder
    }

    /// Runs the virtual clock to idle and checks the expectations; returns
    /// the failures and the diagrams to draw (`marbles(...)` lanes, then
    /// traces of the live clock, if any, then of virtual time).
    func conclude(
        laneOptions: LaneDiagram.Options, showsSubscriptions: Bool, hotStreams: [HotStream]
    ) -> (failures: [MarbleRun.ExpectationFailure], diagrams: [LaneDiagram]) {
        var failures = marbles.run(startingFirst: hotStreams)
        // A run stopped at its limit by a subscription (a `sink` on an
        // endless stream) rather than an expectation: point at the first
        // such subscription still running.
        let running = active.lazy.compactMap { ($0 as? ScriptSubscriber)?.subscribedAt }
            .min { ($0.line, $0.column) < ($1.line, $1.column) }
        for i in failures.indices where failures[i].location == nil { failures[i].location = running }
        return (failures, diagrams(laneOptions: laneOptions, showsSubscriptions: showsSubscriptions))
    }

    /// The run's diagrams as they are now: `marbles(...)` lanes and each
    /// traced chain (mid-run on the live clock, for a page following it).
    func diagrams(laneOptions: LaneDiagram.Options, showsSubscriptions: Bool) -> [LaneDiagram] {
        // Times read from the wall clock are drawn in the nearest column: a
        // few microseconds late never moves an event a column.
        var liveOptions = laneOptions
        liveOptions.roundsToNearestFrame = true
        let recordedLive = !scheduler.isVirtual && !lanesInVirtualTime
        var diagrams = lanes.indices.filter { !lanes[$0].isEmpty }.map {
            var diagram = Report.lanes(lanes[$0], options: recordedLive ? liveOptions : laneOptions, title: laneTitles[$0])
            diagram.location = lanes[$0].first.flatMap { recordedAt[ObjectIdentifier($0.recorder)] }
            return diagram
        }
        for (index, group) in observedGroups.enumerated() where !group.lanes.isEmpty {
            var diagram = LaneDiagram(lanes: drawn(group.lanes), options: liveOptions, title: group.title)
            diagram.location = observedGroupLocations[index]
            diagrams.append(diagram)
        }
        var tracers = [scheduler.tracer, marbles.scheduler.tracer].compactMap { $0 }
        if scheduler === marbles.scheduler { tracers = Array(tracers.prefix(1)) }
        for tracer in tracers {
            let clock: Scheduler = tracer === scheduler.tracer ? scheduler : marbles.scheduler
            let options = clock === scheduler && !scheduler.isVirtual ? liveOptions : laneOptions
            diagrams += TraceDiagram.diagrams(from: tracer, subscriptions: showsSubscriptions, at: clock.now, options: options)
        }
        return drawable(diagrams)
    }

    /// The most events one diagram draws. A `range(0, 999999)` drawn took
    /// 64 s and 325 MB of SVG on the page, and two minutes as text; no
    /// one reads a diagram of more than a few hundred marks.
    static let mostEventsDrawn = 10_000
    /// The most bytes one diagram takes drawn: fewer events of long values
    /// (2 000 strings of 160 KB) made a diagram of 330 MB, drawn for
    /// minutes; 10 000 events of short values take 3 MB as SVG.
    static let mostBytesDrawn = 8 << 20
    /// The diagrams refused so far, by position: each is said once, also
    /// when the page asks for the diagrams again mid-run.
    private var refusedDiagrams = Set<Int>()

    /// The diagrams that can be drawn; each of the others is a located error
    /// of the run, at the `marbles(...)` call or the stream it draws.
    private func drawable(_ diagrams: [LaneDiagram]) -> [LaneDiagram] {
        var kept: [LaneDiagram] = []
        for (index, diagram) in diagrams.enumerated() {
            let events = diagram.lanes.reduce(0) { $0 + $1.events.count }
            let problem: String
            if events > Self.mostEventsDrawn {
                problem = "would draw \(events) events, more than the \(Self.mostEventsDrawn) a diagram draws: draw a part of the stream (take(100), a shorter range)"
            } else if diagram.drawnBytesAtLeast(upTo: Self.mostBytesDrawn) > Self.mostBytesDrawn {
                problem = "would take more than the \(Self.mostBytesDrawn >> 20) MB a diagram may take to draw (\(diagram.lanes.count) \(diagram.lanes.count == 1 ? "lane" : "lanes"), "
                    + "\(events) \(events == 1 ? "event" : "events"), each value written whole): draw a part of the stream (take(100)), or shorter values "
                    + "(map { String($0.prefix(40)) })"
            } else {
                kept.append(diagram)
                continue
            }
            guard refusedDiagrams.insert(index).inserted else { continue }
            let place = diagram.location ?? diagram.lanes.lazy.compactMap { $0.node?.location }.first
            failed(FlowError("the diagram\(diagram.title.map { " '\($0)'" } ?? "") " + problem, at: place), report: reportDiagramError)
        }
        return kept
    }
    /// Where a diagram refused is shown: the run's error report.
    var reportDiagramError: (FlowError) -> Void = { _ in }

    private func drawn(_ lanes: [(label: String, lane: ObservedLane)]) -> [LaneDiagram.Lane] {
        lanes.flatMap { label, lane -> [LaneDiagram.Lane] in
            switch lane {
            case .recorded(let recorder):
                return recorder.lanes(label: label)
            case .observed(let node):
                let subscriptions = scheduler.tracer?.subscriptions(of: node) ?? []
                return subscriptions.enumerated().map { n, record in
                    var lane = LaneDiagram.Lane(label: label + (subscriptions.count > 1 ? " #\(n + 1)" : ""),
                                                events: record.events.map { TimedEvent($0.time, $0.event) }, cancelled: record.cancelled)
                    lane.node = node
                    return lane
                }
            }
        }
    }

    /// A run entirely in virtual time; `location` is where it is written
    /// (a test block), for failures of the run as a whole.
    static func virtual(name: String, location: SourceLocation? = nil) -> RunState {
        let marbles = MarbleRun()
        marbles.location = location
        return RunState(name: name, scheduler: marbles.scheduler, marbles: marbles)
    }
}

/// A subscription a run cancels when it is interrupted; the run keeps
/// its place in `runningSlot` (-1 when not running).
protocol RunningSubscription: Disposable {
    var runningSlot: Int { get set }
}

/// A live `marbles(...)` lane's recorder, as a running subscription.
private final class RecordingSubscription: RunningSubscription {
    private let recorder: EventRecorder
    var runningSlot = -1
    init(_ recorder: EventRecorder) { self.recorder = recorder }
    func dispose() { recorder.dispose() }
}

/// What compiled code needs from the interpreter at run time.
public final class Environment {
    let file: SourceFile
    /// Where `print` writes.
    var output: (String) -> Void
    /// The run in progress.
    var run: RunState
    /// Arguments given to the script after its path.
    var arguments: [String]
    /// Shows a stream error as soon as it happens.
    var reportStreamError: (FlowError) -> Void = { _ in }
    /// Says what became of a consumer's output (a file left as it was):
    /// the script's output unless the program routes it elsewhere.
    lazy var note: (String) -> Void = { [unowned self] in output($0) }
    /// `flow run --trace`: every subscribed or drawn chain is traced.
    /// `NotificationCenter.default`: one per run.
    lazy var defaultNotificationCenter = NotificationCenterValue()
    var tracesEverything = false
    /// A `toBe("???")` records the right answer instead of failing (the
    /// page's exercises).
    var answersExercises = false
    /// Set by `Program.bindingTypes` (an editor's hover): the compiler
    /// notes here the type it knows of each `let` and `var`, by where its
    /// name is written.
    var bindingTypes: [Int: StaticType]?
    /// Set by `Program.memberUses` (an editor's definitions): where each
    /// member name of a script type known at compile time, and each call of
    /// a script's func, is written, and where what it reaches is declared.
    var memberUses: [Span: Span]?
    /// What `print(..., terminator:)` wrote after the last line it ended:
    /// written out with the next line, or when the run ends.
    private var unfinishedLine = ""

    /// Writes `text` and `terminator` to the output: everything up to the
    /// last line break now (one piece, as one print wrote it), the rest
    /// with the next line.
    func print(_ text: String, terminator: String) {
        let written = unfinishedLine + text + terminator
        guard let end = written.lastIndex(of: "\n") else {
            unfinishedLine = written
            return
        }
        unfinishedLine = String(written[written.index(after: end)...])
        output(String(written[..<end]))
    }

    /// Writes out a line `print` left unfinished.
    func finishPrinting() {
        guard !unfinishedLine.isEmpty else { return }
        let line = unfinishedLine
        unfinishedLine = ""
        output(line)
    }
    /// Whose semantics operators follow where the libraries disagree: the
    /// script's `import`, unless `--dialect` or `:dialect` chose.
    var dialect: Dialect = .flow
    /// Set by `--dialect` and `:dialect`: an `import` then chooses nothing.
    var dialectIsChosen = false
    /// On the live clock, with lanes to draw: each stream a top-level
    /// `let` binds has its subscriptions recorded, to draw it as the run
    /// saw it.
    var watchesBindings = false
    /// Asked now and then by running loops and by objects being made:
    /// true once Ctrl-C, SIGTERM or the page's Stop asked the run to stop.
    var interruptRequested: () -> Bool = { false }
    /// Who asked, for the error of a loop stopped that way.
    var interruptedBy: () -> String = { "Ctrl-C" }
    /// Steps of a script's work, each loop iteration and each object made,
    /// counted where they happen; every `workStride`th asks
    /// `checkWork`. One counter for all loops, so loops nested in loops
    /// are asked as often as one loop is, however short each is.
    @exclusivity(unchecked) var workSteps = 0
    static let workStride = 1024

    /// Counts one step of work; true when `checkWork` is due.
    @inline(__always)
    func countsAStride() -> Bool {
        workSteps &+= 1
        return workSteps & (Self.workStride - 1) == 0
    }

    /// Whether a deinit's failure ends its whole chain: the run was asked
    /// to stop, spent its budget, or the chain reached its depth. Every
    /// deinit the chain still holds would fail the same way.
    var deinitChainMustEnd: Bool {
        interruptRequested()
            || (run.scheduler.isVirtual && run.workSteps >= RunState.workBudget)
            || ObjectRelease.generationOfNewObjects > ObjectRelease.deepestGeneration
    }

    /// What every stride of work asks: in virtual time, which nothing else
    /// can interrupt, the run's work budget; everywhere, whether the run was
    /// asked to stop. `what` names the work for the error: "loop", "making
    /// a Node".
    func checkWork(_ what: String, at location: SourceLocation) throws {
        if run.scheduler.isVirtual {
            run.workSteps += Self.workStride
            if run.workSteps >= RunState.workBudget {
                throw FlowError("\(what) stopped: the run made \(RunState.workBudget) steps in all (loop iterations and objects made), "
                                + "the most a virtual-time run makes; are loops nested too deep, or does an init or deinit make objects without end?",
                                at: location)
            }
        }
        if interruptRequested() { throw FlowError("\(what) stopped by \(interruptedBy())", at: location) }
        do { try MemoryBudget.checkProcess(what == "loop" ? "running a loop" : what) } catch {
            throw FlowError.wrap(error).located(at: location)
        }
    }
    /// The modules the script is compiled with, by name.
    let modules: [String: BuiltinModule]
    /// Where `print(..., to: &standardError)` writes: the program's
    /// standard error.
    var errorOutput: (String) -> Void = { _ in }
    /// `exit(code)` in the run under way: stops it and records the status
    /// (`OperationsFunctions`); nil where a script cannot end the process
    /// (a test block, the REPL), where `exit` is a stream error instead.
    var requestExit: ((Int32) -> Void)?
    /// The status `exit` asked for in the run under way; from then on the
    /// run's errors are the script's way out, not reported.
    var exitStatus: Int32?
    /// Every `hot(...)` stream made so far, oldest first: a test run starts
    /// them in this order before its clock runs.
    private var hotStreams: [WeakHotStream] = []

    func made(_ hot: HotStream) {
        hotStreams.removeAll { $0.stream == nil }
        hotStreams.append(WeakHotStream(stream: hot))
    }

    var liveHotStreams: [HotStream] { hotStreams.compactMap(\.stream) }

    private struct WeakHotStream {
        weak var stream: HotStream?
    }

    init(file: SourceFile, output: @escaping (String) -> Void, run: RunState, arguments: [String], modules: [BuiltinModule]) {
        self.file = file
        self.output = output
        self.run = run
        self.arguments = arguments
        // The first of two modules with one name wins.
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What operator calls at one place need: made once, when compiling.
    func context(at location: SourceLocation) -> OperatorContext {
        CallSiteContext(environment: self, location: location)
    }

    /// The context of one call of an operator that shows values as text,
    /// made as it is called: its values shown as the script's `print` shows
    /// them, from the frame the call was made in.
    func context(at location: SourceLocation, describing describe: @escaping (Value) -> String) -> OperatorContext {
        CallSiteContext(environment: self, location: location, describing: describe)
    }
}

/// An operator call's context: its place, and the output and scheduler of
/// whichever run is in progress when it is called.
final class CallSiteContext: OperatorContext {
    private let environment: Environment
    private let describing: ((Value) -> String)?

    init(environment: Environment, location: SourceLocation, describing: ((Value) -> String)? = nil) {
        self.environment = environment
        self.describing = describing
        super.init(output: { _ in }, location: location)
    }

    override var output: (String) -> Void { environment.output }
    override var describe: (Value) -> String { describing ?? super.describe }
    override var scheduler: Scheduler? { environment.run.scheduler }
    override var dialect: Dialect { environment.dialect }
    override var runClaims: RunClaims? { environment.run.claims }
    override var commitLedger: CommitLedger? { environment.run.commits }

    override func reportLate(_ error: FlowError) {
        environment.run.failed(error, report: environment.reportStreamError)
    }
}
