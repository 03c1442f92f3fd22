import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowMarbles
import FlowREPL
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Exit codes of the contract.
enum ExitStatus: Int32 {
    case success = 0
    case failed = 1
    case usage = 2
    case invalidScript = 3
}

@main
struct Flow: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "flow",
        abstract: "Run dataflow scripts written like RxSwift and Combine code.",
        discussion: """
            Examples:
              flow script.flow                     run a script on the live clock (in virtual
                                                   time if every source is a marble)
              flow run --virtual script.flow       run it in virtual time, instantly
              flow test examples Tests/scripts     run every test block, print N passed, N failed
              flow check script.flow               report every error without running
              flow doc debounce                    an operator, with its example drawn by the engine
              flow serve examples                  a web page where scripts redraw as they are edited
              flow slides lesson.flow --out deck   a slide per diagram: SVG, PNG and an offline index.html
              echo 'just(1).print()' | flow -      run standard input
              flow                                 the interactive REPL (on a terminal)

            Exit codes: 0 success, 1 a failed expectation or a stream that ended in
            an error, 2 bad usage, 3 a syntax or resolution error.
            """,
        version: version,
        subcommands: [Run.self, Test.self, Grade.self, GradeFile.self, Check.self, Doc.self, Format.self, LanguageServerCommand.self, Repl.self, Serve.self, Slides.self],
        defaultSubcommand: Run.self)

    /// The REPL's first line.
    static let banner = "flow \(version): type a stream to watch it run; :help for commands, :doc NAME for an operator, Ctrl-D to exit"

    static func main() {
        // A closed pipe on standard output is an error to report, not a
        // signal that kills the process silently.
        signal(SIGPIPE, SIG_IGN)
        // The same for the file-size limit (RLIMIT_FSIZE): a write past it
        // fails with EFBIG, which the writer reports and recovers from
        // (file.write keeps the old file whole), instead of a silent kill.
        signal(SIGXFSZ, SIG_IGN)
        // Started with standard input closed (`<&-`, some supervisors): it
        // reads as empty, and the first file flow opens cannot take its
        // place and be read as the script's input.
        if fcntl(0, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDONLY)
            if null > 0 {
                dup2(null, 0)
                close(null)
            }
        }
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            // Scripts may nest deeply: run on a thread with a large stack.
            if let settings = RunSettings(scriptAlone: arguments) {
                try withLargeStack { try settings.run() }
            } else {
                var command = try parseAsRoot(PermissionOptions.normalized(arguments))
                try withLargeStack { try command.run() }
            }
            exitAfterOutputFailure(instead: ExitStatus.success.rawValue)
        } catch let status as ExitCode {
            exitAfterOutputFailure(instead: status.rawValue)
            Glibc.exit(status.rawValue)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Output.err(fullMessage(for: error))
                Glibc.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}

extension Flow {
    /// Output that could not be written is a failure (exit 1), whatever the
    /// run would otherwise have reported, short of a worse status.
    static func exitAfterOutputFailure(instead status: Int32) {
        guard let reason = StandardStreams.outputFailure else { return }
        guard status == ExitStatus.success.rawValue || status == 130 || status == 143 else { return }
        Output.err("flow: cannot write to standard output: \(reason)")
        Glibc.exit(ExitStatus.failed.rawValue)
    }
}

/// Where the commands write.
enum Output {
    static func out(_ text: String) { StandardStreams.out(text) }
    static func err(_ text: String) { StandardStreams.err(text) }

    static var colorOnStandardError: Bool { StandardStreams.wantsColor(2) }
    static var colorOnStandardOutput: Bool { StandardStreams.wantsColor(1) }

    static var console: Console { Console(out: { out($0) }, err: { err($0) }, color: colorOnStandardError) }
}

/// Loads and compiles a script, reporting problems the way every command does.
enum Loader {
    static func load(_ path: String?) throws -> SourceFile {
        guard let path, path != "-" else {
            if path == nil, isatty(0) == 1 {
                Output.err("flow: give a script to run with these options (flow run OPTIONS FILE.flow); see flow --help")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            return SourceFile(path: "<stdin>", text: try readStandardInput())
        }
        do {
            return try SourceFile.load(path: path)
        } catch let list as DiagnosticList {
            report(list)
            throw ExitCode(ExitStatus.invalidScript.rawValue)
        } catch {
            Output.err("flow: " + FlowError.wrap(error).message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    /// A script's warnings, or its errors reported (exit 3).
    static func check(_ file: SourceFile) throws -> [Diagnostic] {
        do {
            return try Program.check(file, modules: IOModules.unrestricted)
        } catch let list as DiagnosticList {
            report(list)
            throw ExitCode(ExitStatus.invalidScript.rawValue)
        }
    }

    static func compile(_ file: SourceFile, access: Access, arguments: [String] = [], dialect: Dialect? = nil, logLevel: LogLevel = .info) throws -> Program {
        do {
            return try Program(file: file, console: Output.console, arguments: arguments, modules: IOModules.all(access, logLevel: logLevel),
                               dialect: dialect)
        } catch let list as DiagnosticList {
            report(list)
            throw ExitCode(ExitStatus.invalidScript.rawValue)
        }
    }

    /// Fails (exit 2) unless `path` can be created or replaced, so a run is
    /// not wasted on output that cannot be saved.
    static func checkWritable(_ path: String) throws {
        let fail = { (reason: String) -> ExitCode in
            Output.err("flow: cannot write \(path): \(reason)")
            return ExitCode(ExitStatus.usage.rawValue)
        }
        if path.utf8.contains(0) { throw fail("the path contains a NUL character") }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw fail("it is a directory") }
            if access(path, W_OK) != 0 { throw fail(String(cString: strerror(errno))) }
            return
        }
        let directory = path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : "."
        if access(directory, W_OK) != 0 { throw fail(String(cString: strerror(errno))) }
    }

    /// Writes a file, or fails with the path and the reason (exit 2).
    static func write(_ text: String, to path: String) throws {
        guard let handle = fopen(path, "wb") else {
            Output.err("flow: cannot write \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        defer { fclose(handle) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, handle) == bytes.count else {
            Output.err("flow: cannot write \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }

    /// A duration written as in scripts: `5ms`, `1.5s`, `2m`.
    static func duration(_ text: String) -> TimeSpan? { TimeSpan(written: text) }

    static func report(_ list: DiagnosticList) {
        for diagnostic in list.diagnostics { Output.err(diagnostic.render(color: Output.colorOnStandardError, showingCode: true)) }
        // The diagnostic that stands for those not shown counts as them.
        let shown = list.diagnostics.filter { $0.severity == .error }
        let errors = shown.count + shown.map { $0.omitted > 0 ? $0.omitted - 1 : 0 }.reduce(0, +)
        let warnings = list.diagnostics.count - shown.count
        Output.err("\(errors) error\(errors == 1 ? "" : "s")" + (warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"))
    }

    static func readStandardInput() throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(0, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > SourceFile.maximumBytes {
                Output.err("flow: standard input: \(SourceFile.tooLarge.message)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script on the live clock until every subscription has ended (the default command).")

    @Flag(name: .long, help: "Run in virtual time: instantly and deterministically (the default when every source is a marble).")
    var virtual = false

    @Flag(name: .long, help: "Run on the wall clock even when every source is a marble (which otherwise runs in virtual time).")
    var live = false

    @Flag(name: .long, help: "Draw a marble lane for every stream bound with let at the top level.")
    var marbles = false

    @Option(name: .long, help: "Time per column of the marble lanes (5ms, 100ms, 1s); chosen from the events if not given.")
    var frame: String?

    @Flag(name: .long, help: "Print values in place in the lanes, in columns wide enough for them, instead of a legend.")
    var wide = false

    @Flag(name: .long, help: "Draw a lane for every stage of each chain the script subscribes or draws, with inner streams.")
    var trace = false

    @Flag(name: .long, help: "With --trace or .trace(): also draw when each source was subscribed and unsubscribed.")
    var subscriptions = false

    @Flag(name: .long, help: ArgumentHelp(
        "Run nothing: check that every environment variable, file, database and host the script names (as its arguments and environment decide them) is there and granted; exit 1 on a problem."))
    var dryRun = false

    @Option(name: .long, help: "Also write the run's diagrams to this file as SVG.")
    var svg: String?

    @Option(name: .long, help: "Also write the run's diagrams to this file as PNG (needs rsvg-convert, from librsvg).")
    var png: String?

    @Option(name: .long, help: "The width of the SVG or PNG picture in pixels (a slide's width); the picture is scaled to it.")
    var width: Int?

    @OptionGroup(title: "Permissions (default: everything the user can reach)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    @OptionGroup var dialect: DialectOption

    @Option(name: .long, help: ArgumentHelp("Which log.debug/info/warn/error lines the script writes to standard error: debug, info (the default), warn, error or off.",
                                            valueName: "level"))
    var logLevel: LogLevel = .info

    @Argument(help: "The script to run; '-' or nothing (with a pipe) reads standard input.")
    var script: String?

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script, available to it as `args`.")
    var arguments: [String] = []

    func validate() throws {
        if virtual && live { throw ValidationError("--virtual and --live ask for two clocks: give one") }
        if dryRun, let drawing = [(svg != nil, "--svg"), (png != nil, "--png"), (marbles, "--marbles"), (trace, "--trace")].first(where: \.0) {
            throw ValidationError("--dry-run runs nothing, so there is nothing for \(drawing.1) to draw: give one of them")
        }
        if let width, !(16...100_000).contains(width) { throw ValidationError("--width takes a number of pixels from 16 to 100000, not \(width)") }
        if width != nil && svg == nil && png == nil { throw ValidationError("--width sizes the picture of --svg or --png: give one of them") }
        if let frame, Loader.duration(frame) == nil {
            throw ValidationError("--frame takes a duration such as 5ms, 100ms or 1s, not '\(frame)'")
        }
    }

    /// `flow` alone on a terminal is the REPL.
    private var startsREPL: Bool {
        script == nil && isatty(0) == 1 && !dryRun && !virtual && !live && !marbles && !trace && !subscriptions && !wide && frame == nil && svg == nil && png == nil
    }

    func run() throws {
        if startsREPL {
            memory.apply()
            _ = REPL.run(banner: Flow.banner, access: Access(permissions.applied(to: .everything(command: "flow"))), dialect: dialect.dialect)
            return
        }
        try settings.run()
    }

    /// What the options ask of a run of a script.
    var settings: RunSettings {
        RunSettings(virtual: virtual, live: live, marbles: marbles, frame: frame, wide: wide, trace: trace, subscriptions: subscriptions,
                    dryRun: dryRun, svg: svg, png: png, width: width, permissions: permissions.applied(to: RunSettings.defaultPermissions),
                    maxMemory: memory.maxMemory, dialect: dialect.dialect, logLevel: logLevel, script: script, arguments: arguments)
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Parse and resolve scripts without running them; report every error.")

    @Argument(help: "The scripts to check.")
    var scripts: [String]

    func validate() throws {
        if scripts.isEmpty { throw ValidationError("give at least one script to check") }
    }

    func run() throws {
        var status = ExitStatus.success
        for path in scripts {
            do {
                let warnings = try Loader.check(try Loader.load(path))
                for warning in warnings { Output.err(warning.render(color: Output.colorOnStandardError, showingCode: true)) }
                let count = warnings.count
                Output.out(count == 0 ? "\(path): no problems found" : "\(path): no errors, \(count) warning\(count == 1 ? "" : "s")")
            } catch let code as ExitCode {
                if code.rawValue > status.rawValue { status = ExitStatus(rawValue: code.rawValue) ?? .invalidScript }
            }
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}

struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "The interactive REPL, which `flow` alone starts on a terminal.",
        discussion: """
            With standard input not a terminal (flow repl < session.txt), lines are read \
            plainly, without a prompt or line editing; at the end of the input, streams \
            still running finish before flow exits.
            """)

    @OptionGroup(title: "Permissions (default: everything the user can reach)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    @OptionGroup var dialect: DialectOption

    func run() throws {
        memory.apply()
        let access = Access(permissions.applied(to: .everything(command: "flow repl")))
        if !REPL.run(banner: Flow.banner, access: access, dialect: dialect.dialect) { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

extension LogLevel: ExpressibleByArgument {}
