import ArgumentParser
import FlowServe

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A local web page: edit a script and its diagrams redraw; drag input marbles along the time axis.")

    @Argument(help: "A script, or a folder of scripts (the current folder by default).")
    var path: String = "."

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port: Int = 8080

    @Option(name: .long, help: "The address to listen on: loopback unless told otherwise.")
    var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a number from 0 to 65535, not \(port)") }
        guard !host.isEmpty, !host.contains("/") else { throw ValidationError("--host takes an address such as 127.0.0.1, not '\(host)'") }
    }

    func run() throws {
        do {
            try PlaygroundServer.run(.init(path: path, host: host, port: port)) { address in
                Output.out("flow serve: \(address) (Ctrl-C stops it)")
            }
        } catch let refused as CustomStringConvertible where !(refused is ExitCode) {
            Output.err("flow serve: \(refused)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
