import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// What `flow run` is asked to do: read from its options by ArgumentParser
/// (`Run.settings`), or from a command line of a script alone.
///
/// ArgumentParser reflects over every option of the command before it
/// parses a word: about 30 M instructions (protocol-conformance look-ups,
/// each a scan of every conformance record of the binary), more than half
/// of what a hello script costs from start to exit. A command line that
/// names a script and nothing else, `flow hello.flow` or `flow run
/// hello.flow ARGUMENTS`, is the commonest and asks for every default, so
/// it is read here without it (docs/performance.md, "Start-up").
struct RunSettings: Equatable {
    var virtual: Bool
    var live: Bool
    var marbles: Bool
    var frame: String?
    var wide: Bool
    var trace: Bool
    var subscriptions: Bool
    var dryRun: Bool
    var svg: String?
    var png: String?
    var width: Int?
    /// The permissions as the flags adjusted `defaultPermissions`.
    var permissions: Permissions
    var maxMemory: String?
    var dialect: Dialect?
    var logLevel: LogLevel
    var script: String?
    var arguments: [String]

    /// What `flow run` may reach when no flag says otherwise.
    static let defaultPermissions = Permissions.everything(command: "flow run")

    func run() throws {
        if dryRun {
            let file = try Loader.load(script)
            let access = Access(permissions)
            _ = try Loader.compile(file, access: access, arguments: arguments, dialect: dialect, logLevel: logLevel)
            try DryRunReport.run(file, arguments: arguments, access: access)
            return
        }
        MemoryOption.apply(maxMemory: maxMemory, watchesProcess: true)
        // A bad --svg path is reported before the run, not after it.
        if let svg { try Loader.checkWritable(svg) }
        if let png {
            try Loader.checkWritable(png)
            try PNGWriter.checkRenderer()
        }
        let file = try Loader.load(script)
        let program = try Loader.compile(file, access: Access(permissions), arguments: arguments, dialect: dialect, logLevel: logLevel)
        program.marblesForBindings = marbles
        program.tracesEverything = trace
        program.stopsOnInterrupt = true
        program.showsSubscriptions = subscriptions
        program.laneOptions = LaneDiagram.Options(frame: frame.flatMap(Loader.duration), wide: wide, color: Output.colorOnStandardOutput)
        program.laneOptions.terminalWidth = StandardStreams.terminalWidth(1)
        // A script of marbles alone means virtual time: its lanes are then
        // exact, the same every run (the README's first picture).
        let virtual = self.virtual || (!live && program.isDrivenByMarblesAlone)
        if virtual && !self.virtual {
            Output.err("flow: every source here is a marble: ran in virtual time (--live for the wall clock)")
        }
        program.beforeForcedExit = { commits, interrupt in
            PartialFiles.shared.removeAll()
            Self.reportCommitted(commits, ending: "stopped by " + interrupt.name)
        }
        var interrupts: InterruptWatch?
        if virtual {
            // Virtual time has no loop to hop onto: an interrupt ends the
            // process at once, leaving no unfinished output file behind.
            interrupts = LiveWorld().watchInterrupts { interrupt in
                PartialFiles.shared.removeAll()
                Output.err("flow: stopped")
                _exit(interrupt.exitStatus)
            }
        } else {
            // Nowhere left to write: stop the live run as Ctrl-C would.
            StandardStreams.onOutputFailure = { kill(getpid(), SIGINT) }
        }
        let outcome = program.run(on: virtual ? .virtual : .live(LiveWorld()))
        interrupts?.cancel()
        // A statement stopped with the run is cancelled on its server
        // before the process goes.
        if outcome.interrupted != nil { DatabaseCancels.abandonBatches() }
        DatabaseCancels.settle()
        if svg != nil || png != nil {
            let picture = SVGDiagram(outcome.laneDiagrams, title: file.path, width: width.map(Double.init)).text
            if let svg { try Loader.write(picture, to: svg) }
            if let png { try PNGWriter.write(svg: picture, to: png) }
        }
        for failure in outcome.failures {
            Output.err(Report.expectationFailure(failure, file: file, color: Output.colorOnStandardError))
        }
        // The script's own `exit(code)` decides, over anything it stopped.
        if let status = outcome.exitStatus { throw ExitCode(status) }
        if let interrupt = outcome.interrupted {
            Self.reportCommitted(outcome.commits, ending: "stopped by " + interrupt.name)
            throw ExitCode(interrupt.exitStatus)
        }
        // However a run ends, what its sinks committed is said: always
        // after a failure, as after a stop; after a completed run as a line
        // of the log's info level (psql's `COPY 4340342`).
        if !outcome.passed {
            Self.reportCommitted(outcome.commits, ending: "failed")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        if logLevel <= .info { Self.reportCommitted(outcome.commits, ending: "done") }
    }

    /// What the sinks committed when the run ended, one line each: what an
    /// operator needs to know to resume the job, or to check it.
    static func reportCommitted(_ commits: CommitLedger, ending: String) {
        if let summary = commits.summary(ending: ending) { Output.err("flow: " + summary) }
    }
}

extension RunSettings {
    /// The settings of `flow [run] SCRIPT.flow [ARGUMENTS]` where no word
    /// starts with `-`: ArgumentParser would give the script, the words
    /// after it as its arguments (all of them, also a `help` or a `run`),
    /// and every option's default, and no check of `validate()` can fail
    /// on defaults. nil for any other command line, which ArgumentParser
    /// reads (a dash anywhere may be an option, `--help`, or the request of
    /// a completion script, which it answers wherever it stands).
    init?(scriptAlone words: [String]) {
        guard !words.contains(where: { $0.hasPrefix("-") }) else { return nil }
        let rest = words.first == "run" ? words.dropFirst() : words[...]
        guard let script = rest.first, script.hasSuffix(".flow") else { return nil }
        self.init(virtual: false, live: false, marbles: false, frame: nil, wide: false, trace: false, subscriptions: false, dryRun: false,
                  svg: nil, png: nil, width: nil, permissions: Self.defaultPermissions, maxMemory: nil, dialect: nil, logLevel: .info,
                  script: script, arguments: Array(rest.dropFirst()))
    }
}
