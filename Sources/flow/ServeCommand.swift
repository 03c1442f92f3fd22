import ArgumentParser
import FlowLive
import FlowRuntime
import FlowServe

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "A local web page: edit a script and its diagrams redraw; drag input marbles along the time axis; run scripts with timers, files or requests live.")

    @Argument(help: "A script, or a folder of scripts (the current folder by default).")
    var path: String = "."

    @Option(name: .long, help: ArgumentHelp("Serve one exercise file to a class: students answer its toBe(\"???\") lanes by placing marbles, without the editor, and save their answers.", valueName: "FILE"))
    var exercise: String?

    @Option(name: .long, help: ArgumentHelp("With --exercise: where each student's answers are saved, one .flow file each, for flow grade (default: FILE's name + -answers, beside it).", valueName: "FOLDER"))
    var answers: String?

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port: Int = 8080

    @Option(name: .long, help: "The address to listen on: loopback unless told otherwise.")
    var host: String = "127.0.0.1"

    @OptionGroup(title: "Permissions of the scripts run from the page (default: read and write the served folder, no network)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    /// A path as a POSIX shell reads it back, quoted only when it must be.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+,:@%=".unicodeScalars.contains($0) }
        return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a number from 0 to 65535, not \(port)") }
        guard !host.isEmpty, !host.contains("/") else { throw ValidationError("--host takes an address such as 127.0.0.1, not '\(host)'") }
        if exercise != nil, path != "." { throw ValidationError("--exercise serves its one file: give no other script or folder") }
        if answers != nil, exercise == nil { throw ValidationError("--answers goes with --exercise FILE") }
    }

    func run() throws {
        memory.apply()
        do {
            // Resolved before the server changes into the served folder.
            let flags = permissions.absolute()
            var options = PlaygroundServer.Options(path: exercise ?? path, host: host, port: port) { flags.applied(to: .served(folder: $0)) }
            options.exercise = exercise != nil
            options.answers = answers
            let serving = options
            try PlaygroundServer.run(serving) { address in
                Output.out("flow serve: \(address) (Ctrl-C stops it)")
                if serving.exercise {
                    let folder = Self.shellQuoted(serving.answersFolder)
                    Output.out("flow serve: answers are saved in \(folder); grade them with: flow grade \(folder)")
                }
                if !serving.isLoopback {
                    Output.err("flow serve: listening beyond loopback, so scripts run from the page cannot use the file and http modules")
                }
            }
        } catch let refused as CustomStringConvertible where !(refused is ExitCode) {
            Output.err("flow serve: \(refused)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
