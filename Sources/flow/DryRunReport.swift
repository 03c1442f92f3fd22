import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
#if canImport(Glibc)
import Glibc
#endif

/// What `flow run --dry-run` prints: each thing the script reaches, checked
/// or left to the run, one line each on standard output with its place;
/// each problem a located error on standard error, with its fix. Exit 1
/// when there is a problem, as the run itself would have failed there.
enum DryRunReport {
    static func run(_ file: SourceFile, arguments: [String], access: Access) throws {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") { environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
            entry += 1
        }
        let findings = DryRun.check(file, arguments: arguments, environment: environment, access: access)
        var lines = ["\(file.path): a dry run: nothing was run, written or connected to"]
        for finding in findings where finding.kind != .problem {
            let place = file.location(of: finding.span.start)
            lines.append("  \(finding.kind == .checked ? "ok" : "? ") \(place.line):\(place.column)  \(finding.message)"
                         + (finding.kind == .unknown ? "; not checked" : ""))
        }
        let problems = findings.filter { $0.kind == .problem }
        let checked = findings.filter { $0.kind == .checked }.count, unknown = findings.count - checked - problems.count
        var summary = "\(checked) checked"
        if unknown > 0 { summary += ", \(unknown) decided as the script runs" }
        if findings.isEmpty { summary = "it reaches no environment variable, file, database or host" }
        if problems.isEmpty {
            lines.append("\(file.path): ready to run: \(summary)")
            Output.out(lines.joined(separator: "\n"))
            return
        }
        Output.out(lines.joined(separator: "\n"))
        for problem in problems {
            Output.err(Diagnostic(problem.message, in: file, at: problem.span, help: problem.help).render(color: Output.colorOnStandardError))
        }
        Output.err("\(problems.count) problem\(problems.count == 1 ? "" : "s") (\(summary)): the run would fail")
        throw ExitCode(ExitStatus.failed.rawValue)
    }
}
