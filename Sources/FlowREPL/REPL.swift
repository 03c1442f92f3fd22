import Dispatch
import FlowIO
import FlowLive
import FlowLanguage
import FlowRuntime
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The interactive REPL: `flow` on a terminal, or `flow repl`.
public enum REPL {
    /// Runs a session until `:quit`, Ctrl-D or two Ctrl-Cs (on a terminal),
    /// or until the end of standard input and of the streams still running.
    /// Returns false when a piped session showed an error.
    /// With a `dialect`, the session starts in it (`:dialect` and an
    /// `import` change it later).
    public static func run(banner: String, access: Access, dialect: Dialect? = nil) -> Bool {
        let interactive = isatty(0) == 1
        // The session lives as long as the loop: its streams' callbacks only
        // refer to it weakly.
        var running: Controller?
        var piped: PlainInput?
        defer { withExtendedLifetime(running) {} }
        LiveScheduler.run { scheduler, handle in
            let keepAlive = scheduler.hold()
            let color = StandardStreams.wantsColor(1)
            let errorColor = StandardStreams.wantsColor(2)
            let readline = interactive ? ReadlineTerminal(scheduler: scheduler, history: HistoryFile.locate()) : nil
            let plain = interactive ? nil : PlainInput(scheduler: scheduler)
            piped = plain
            let screen: Screen = readline ?? plain!
            let console = console(for: screen, on: scheduler.eventLoop, color: errorColor)
            let modules = Self.modules(access)
            let session = Session(scheduler: scheduler, console: console, modules: modules)
            if let dialect { session.dialect = dialect }
            let controller = Controller(session: session, screen: screen, color: color, errorColor: errorColor, modules: modules)
            session.listener = controller
            // Read when the REPL starts: lanes fit the terminal it opened in.
            session.laneOptions.terminalWidth = StandardStreams.terminalWidth(1)
            running = controller
            let stop = {
                session.cancelAll()
                keepAlive.dispose()
                handle.stop()
            }
            if let readline {
                StandardStreams.out(banner)
                controller.onQuit = { readline.finish() }
                readline.start(controller, onExit: stop)
            } else if let plain {
                controller.onQuit = stop
                // At the end of the input, the loop runs until the streams still running end.
                plain.start(controller, atEnd: { keepAlive.dispose() })
                interruptEndsPlainSession(scheduler: scheduler, session: session, stop: stop)
            }
        }
        return (piped?.errorsShown ?? 0) == 0
    }

    /// The session's `print` and stream errors go through the screen, on the loop.
    private static func console(for screen: Screen, on loop: EventLoop, color: Bool) -> Console {
        let bound = NIOLoopBound(screen, eventLoop: loop)
        return Console(out: { bound.value.show($0) }, err: { bound.value.showError($0) }, color: color)
    }

    /// Without a terminal, Ctrl-C cancels running streams and ends the session.
    private static func interruptEndsPlainSession(scheduler: LiveScheduler, session: Session, stop: @escaping () -> Void) {
        let interrupt = scheduler.makeCallback { (_: Bool) in
            stop()
            Glibc.exit(130)
        }
        _ = SignalWatcher(signal: SIGINT) { interrupt(true) }
    }

    /// The I/O modules, except that standard input belongs to the REPL itself.
    static func modules(_ access: Access) -> [BuiltinModule] { IOModules.all(access).map { $0.name == "stdin" ? standardInput : $0 } }

    static let standardInput = BuiltinModule(name: "stdin", summary: "standard input (the REPL reads it itself)", functions: [
        OperatorSpec("lines", .creation, .function, "each line of standard input; not in the REPL, which reads it itself", [
            Signature([]) { args in
                throw FlowError("standard input is the REPL's own input; read it from a script: flow run FILE.flow < input",
                                at: args.context.location)
            },
        ]),
    ])
}
