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
            signature, summary and example drawn as lanes, on a name how it is declared, and
            on a stream bound from marbles the lane it produces (run in virtual time, no I/O);
            completion of operators after '.', functions, keywords and the script's names;
            definition and references; "did you mean" as a quick fix; document symbols;
            formatting as flow fmt. Positions count UTF-16 code units unless the client
            offers UTF-8.
            It logs to standard error only.
            """)

    func run() throws {
        let status = StdioTransport.run(LanguageServer())
        if status != 0 { throw ExitCode(status) }
    }
}
