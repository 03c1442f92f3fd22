import FlowRuntime

extension Compiler {
    /// An `import` line: a library's module chooses its dialect for the
    /// run, unless `--dialect` or `:dialect` chose one; other modules
    /// (`Foundation`) are accepted and mean nothing.
    func imported(_ module: String, at span: Span) {
        guard let dialect = Dialect(module: module) else { return }
        if let (earlier, at) = importedDialect, earlier != dialect {
            let line = file.lineAndColumn(of: at.start).line
            error("this script already follows \(earlier.rawValue) (import on line \(line)); one script follows one library's semantics",
                  span, help: "keep one of the imports, or choose with flow run --dialect \(dialect.rawValue)")
            return
        }
        importedDialect = (dialect, span)
        if !environment.dialectIsChosen { environment.dialect = dialect }
    }
}
