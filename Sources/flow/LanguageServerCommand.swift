import ArgumentParser
import FlowLanguageServer

/// `flow lsp`: the language server an editor starts, over standard input
/// and output.
struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "A language server over standard input and output, for editors.",
        discussion: """
            Speaks the Language Server Protocol (JSON-RPC, Content-Length framing): diagnostics
            as flow check gives them, on open and on each change; hover with an operator's
            signature, summary and example drawn as lanes, on a name how and where it is
            declared and the type the compiler knows of it, and on a stream bound from
            marbles the lane it produces (run in virtual time, no I/O, stopped when the
            request is cancelled); completion of operators after '.', functions, keywords
            and the script's names in scope at the cursor; definition and references; "did
            you mean" as a quick fix; document symbols; formatting as flow fmt. Positions
            count UTF-16 code units unless the client offers UTF-8.
            It logs to standard error only.
            """)

    func run() throws {
        let status = StdioTransport.run(LanguageServer())
        if status != 0 { throw ExitCode(status) }
    }
}
