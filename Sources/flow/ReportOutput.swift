import ArgumentParser
import FlowLanguage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the scripts of `flow test` and `flow grade` print, kept per test
/// instead of written out: under a report for a program, the report must be
/// the only thing on standard output. Each test keeps at most `cap` bytes.
final class CapturedOutput: Sendable {
    static let cap = 64 << 10

    private struct State {
        var current = ""
        var byTest: [String: String] = [:]
        var cut: Set<String> = []
    }
    private let state = Mutex(State())

    /// The console a captured program prints to: standard output is kept,
    /// standard error still goes to standard error.
    var console: Console {
        Console(out: { [self] text in append(text) }, err: { Output.err($0) }, color: false)
    }

    /// Output from now on belongs to `test`.
    func begin(_ test: String) { state.withLock { $0.current = test } }

    private func append(_ text: String) {
        state.withLock { state in
            let name = state.current
            guard !state.cut.contains(name) else { return }
            var kept = state.byTest[name, default: ""]
            if kept.utf8.count + text.utf8.count + 1 > Self.cap {
                state.cut.insert(name)
                kept += "… (output cut at \(Self.cap >> 10) KiB)\n"
            } else {
                kept += text + "\n"
            }
            state.byTest[name] = kept
        }
    }

    /// What `test` printed, without the last newline.
    func output(of test: String) -> String {
        var text = state.withLock { $0.byTest[test] ?? "" }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// Where a report goes: standard output as it is made, or (`--output
/// FILE`) a file written whole at the end.
final class ReportDestination {
    private let path: String?
    private var lines: [String] = []

    /// Fails (exit 2) unless `path` can be written, before anything runs.
    init(path: String?) throws {
        if let path { try Loader.checkWritable(path) }
        self.path = path
    }

    func write(_ text: String) {
        if path == nil { Output.out(text) } else { lines.append(text) }
    }

    func close() throws {
        guard let path else { return }
        try Loader.write(lines.map { $0 + "\n" }.joined(), to: path)
    }
}
