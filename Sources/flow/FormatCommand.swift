import ArgumentParser
import FlowFormat
import FlowIO
import FlowLanguage
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `flow fmt`: scripts in the one canonical layout, rewritten in place,
/// checked (`--check`), shown as a diff (`--diff`) or filtered
/// (`--stdin`). A file with a syntax error is never rewritten.
struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Lay scripts out in flow's one canonical layout.",
        discussion: """
            Rewrites each script in place: two spaces a level, blanks around operators,
            one statement a line, long chains one operator a line; comments stay where
            they stand and strings (marbles among them) are never touched.
            Folders are searched for *.flow; with no path, the current folder.
            Exit status: 0 nothing to change (or changed), 1 a file would change (with
            --check), 2 a script that does not parse (left as it is) or a file that
            cannot be read or written.
            """)

    @Flag(help: "Change nothing; name each file that would change, and exit 1 if any would.")
    var check = false

    @Flag(help: "Change nothing; print what would change as a unified diff.")
    var diff = false

    @Flag(help: "Format standard input and write the result to standard output.")
    var stdin = false

    @Argument(help: "Scripts, and folders to search for *.flow (default: the current folder).")
    var paths: [String] = []

    func validate() throws {
        if stdin && !paths.isEmpty { throw ValidationError("--stdin formats standard input: give no paths with it") }
    }

    private enum FileResult {
        case unchanged, changed, failed
    }

    func run() throws {
        if stdin {
            let text = try Loader.readStandardInput()
            let result = handle(original: text, file: SourceFile(path: "<stdin>", text: text), path: nil)
            try finish([result])
            return
        }
        let files = try ScriptFinder.scripts(in: paths.isEmpty ? ["."] : paths)
        var results: [FileResult] = []
        for path in files {
            results.append(format(path))
        }
        if check {
            let changed = results.filter { $0 == .changed }.count
            if changed > 0 {
                Output.err("\(changed) of \(files.count) file\(files.count == 1 ? "" : "s") would be reformatted")
            }
        }
        try finish(results)
    }

    private func finish(_ results: [FileResult]) throws {
        if results.contains(.failed) { throw ExitCode(ExitStatus.usage.rawValue) }
        if check, results.contains(.changed) { throw ExitCode(ExitStatus.failed.rawValue) }
    }

    private func format(_ path: String) -> FileResult {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: SourceFile.maximumBytes)
        } catch {
            Output.err("flow: \(error)")
            return .failed
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            Output.err("flow: cannot format \(path): the file is not UTF-8 text")
            return .failed
        }
        return handle(original: text, file: SourceFile(path: path, text: text), path: path)
    }

    /// Formats one text; `path` is nil for standard input.
    private func handle(original: String, file: SourceFile, path: String?) -> FileResult {
        let name = path ?? "<stdin>"
        let formatted: String
        switch SourceFormatter.format(file, modules: Set(IOModules.unrestricted.map(\.name))) {
        case .syntaxErrors(let diagnostics):
            Loader.report(DiagnosticList(diagnostics))
            Output.err("flow: \(name) does not parse: left as it is")
            return .failed
        case .refused(let reason):
            Output.err("flow: \(name) left as it is: \(reason) (a fault in flow fmt; please report it with the file)")
            return .failed
        case .formatted(let text):
            formatted = text
        case .keptAsWritten:
            formatted = original
        }
        let changed = formatted != original
        if diff, changed {
            let shown = path ?? "<stdin>"
            StandardStreams.write(1, UnifiedDiff.between(original, formatted, oldName: shown, newName: shown + " (formatted)"))
        }
        if check || diff {
            if check, changed, path != nil, !diff { Output.out(name) }
            return changed ? .changed : .unchanged
        }
        guard let path else {
            StandardStreams.write(1, formatted)
            return changed ? .changed : .unchanged
        }
        guard changed else { return .unchanged }
        do {
            try FileBytes.replace(path, with: formatted)
        } catch {
            Output.err("flow: \(error)")
            return .failed
        }
        return .changed
    }
}

/// Whole files read and replaced for `flow fmt`.
enum FileBytes {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        do { return try SourceFile.bytes(ofFileAt: path, limit: limit) } catch {
            throw Failure(description: FlowError.wrap(error).message)
        }
    }

    /// Replaces the file a path names (through symlinks) with `text`: a new
    /// file beside it, with its permissions, written and synced, renamed over
    /// it, so the file is whole at every moment.
    static func replace(_ path: String, with text: String) throws {
        let fail = { (reason: String) in Failure(description: "cannot write \(path): \(reason)") }
        guard let resolved = realpath(path, nil) else { throw fail(String(cString: strerror(errno))) }
        let target = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(target, &info) == 0 else { throw fail(String(cString: strerror(errno))) }
        var template = Array((target + ".fmt-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw fail(String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = false
        defer { if !written { unlink(temporary) } }
        fchmod(descriptor, info.st_mode & 0o7777)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw fail(reason)
            }
            offset += n
        }
        guard fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw fail(reason)
        }
        close(descriptor)
        guard rename(temporary, target) == 0 else { throw fail(String(cString: strerror(errno))) }
        written = true
    }
}
