import FlowLanguage

/// Gathers typed lines into whole inputs.
///
/// - An open `{`, `(` or `[` asks for more lines (the `...` prompt).
/// - A line starting with `.` continues the chain before it: while more
///   input is already waiting (a paste), a finished input is held back in
///   case the next line continues it; typed by hand after the input ran, it
///   amends that input, which runs again in place of the first.
/// - A line starting with `:` is a command.
struct InputAssembler {
    enum Ready: Equatable {
        case command(String)
        case input(String)
        /// The previous input with more chain added: replaces it.
        case amended(String)
    }

    private var lines: [String] = []
    private var amends = false
    /// `lines` is a finished input held back while more input is waiting.
    private var held = false
    /// The last input released, which a `.` line amends.
    private(set) var lastInput: String?

    /// An input is open: prompt with `...`.
    var isContinuing: Bool { !lines.isEmpty && !held }

    mutating func add(_ line: String, moreInputWaiting: Bool) -> [Ready] {
        var ready: [Ready] = []
        if held {
            if InputCompleteness.continuesChain(line) {
                held = false
                lines.append(line)
                return ready + settle(moreInputWaiting: moreInputWaiting)
            }
            ready += release()
        }
        if !lines.isEmpty {
            lines.append(line)
            return ready + settle(moreInputWaiting: moreInputWaiting)
        }
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty { return ready }
        if trimmed.hasPrefix(":") { return ready + [.command(trimmed)] }
        if InputCompleteness.continuesChain(line), let last = lastInput {
            lines = [last, line]
            amends = true
        } else {
            lines = [line]
            amends = false
        }
        return ready + settle(moreInputWaiting: moreInputWaiting)
    }

    /// No more input is waiting: a held input goes.
    mutating func flush() -> [Ready] { held ? release() : [] }

    /// Ctrl-C: the open input is dropped.
    mutating func discard() {
        lines = []
        held = false
    }

    /// Forgets the last input (after `:reset`, a `.` line has nothing to amend).
    mutating func forgetLast() { lastInput = nil }

    private mutating func settle(moreInputWaiting: Bool) -> [Ready] {
        if InputCompleteness.needsMoreInput(lines.joined(separator: "\n")) { return [] }
        if moreInputWaiting {
            held = true
            return []
        }
        return release()
    }

    private mutating func release() -> [Ready] {
        let text = lines.joined(separator: "\n")
        lines = []
        held = false
        lastInput = text
        return [amends ? .amended(text) : .input(text)]
    }
}
