import CReadline
import Dispatch
import FlowIO
import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// The REPL on a terminal: GNU readline's callback interface, driven from
/// the event loop, so that typing, stream events and Ctrl-C are all handled
/// on the loop's one thread.
///
/// A watcher thread waits for standard input to become readable and hops
/// onto the loop, where readline reads what is there. Output arriving while
/// the prompt is shown clears the edited line, prints, and redraws it.
final class ReadlineTerminal: Screen {
    /// The terminal readline's C callbacks report to: C function pointers
    /// cannot capture it. Set and read only on the event loop's thread.
    nonisolated(unsafe) private static var current: ReadlineTerminal?
    /// Characters that end the word Tab completes; allocated once, as
    /// readline keeps the pointer.
    nonisolated(unsafe) private static let wordBreaks = strdup(" \t\n\"'`@$><=;|&{([,.+-*/%!?)]}")

    private let scheduler: LiveScheduler
    private let history: HistoryFile?
    private var controller: Controller!
    /// The prompt and the edited line are on the screen (not while a line
    /// is being handled, when readline has moved past them).
    private var promptVisible = false
    private var stopped = false
    private let stopFlag = NIOLockedValueBox(false)
    /// Set by Ctrl-C on the signal's thread, at once, so that a stream
    /// printing synchronously on the loop stops (`Session.stopRequested`).
    private let interruptPending = NIOLockedValueBox(false)
    private var signalWatchers: [SignalWatcher] = []
    private var onExit: () -> Void = {}

    init(scheduler: LiveScheduler, history: HistoryFile?) {
        self.scheduler = scheduler
        self.history = history
    }

    func start(_ controller: Controller, onExit: @escaping () -> Void) {
        self.controller = controller
        self.onExit = onExit
        let interruptPending = self.interruptPending
        controller.session.stopRequested = { interruptPending.withLockedValue { $0 } }
        Self.current = self
        flow_rl_leave_signals_to_application()
        flow_rl_set_readline_name("flow")
        flow_rl_set_word_breaks(Self.wordBreaks)
        flow_rl_set_completion { text, start, end in ReadlineTerminal.current?.complete(start: Int(start), end: Int(end)) }
        history?.load()
        rl_callback_handler_install(controller.prompt) { raw in
            let line = raw.map { String(cString: $0) }
            free(raw)
            ReadlineTerminal.current?.received(line)
        }
        promptVisible = true
        watchInput()
        watchSignals()
    }

    // MARK: - Output

    func show(_ text: String) { write(text, to: 1) }
    func showError(_ text: String) { write(text, to: 2) }

    private func write(_ text: String, to fd: Int32) {
        guard promptVisible, !stopped else { return StandardStreams.write(fd, text + "\n") }
        rl_clear_visible_line()
        flow_rl_flush_output()
        StandardStreams.write(fd, text + "\n")
        rl_on_new_line()
        rl_redisplay()
    }

    // MARK: - Input

    /// Hands readline every byte that is waiting (a paste arrives at once).
    private func readAvailable() {
        guard !stopped else { return }
        repeat { rl_callback_read_char() } while !stopped && StandardStreams.inputWaiting()
        guard !stopped else { return }
        controller.inputSettled()
    }

    /// A whole line, or nil at the end of input (Ctrl-D on an empty line).
    private func received(_ line: String?) {
        promptVisible = false
        guard let line else {
            StandardStreams.write(1, "\n")
            return finish()
        }
        history?.add(line)
        flow_rl_keep_terminal_prepared()
        controller.receive(line, moreInputWaiting: StandardStreams.inputWaiting())
        guard !stopped else { return }
        // readline shows the prompt once this handler returns.
        rl_set_prompt(controller.prompt)
        promptVisible = true
    }

    private func watchInput() {
        let done = DispatchSemaphore(value: 0)
        let readable = scheduler.makeCallback { [self] (_: Bool) in
            readAvailable()
            done.signal()
        }
        let stopFlag = self.stopFlag
        startBackgroundThread {
            while true {
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 200) > 0
                // Under the lock, so nothing is posted to a loop that has stopped.
                let running = stopFlag.withLockedValue { stopped -> Bool in
                    if !stopped && ready { readable(true) }
                    return !stopped
                }
                guard running else { return }
                if ready { done.wait() }
            }
        }
    }

    // MARK: - Completion

    private func complete(start: Int, end: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        let bytes = Array(String(cString: flow_rl_line_buffer()).utf8)
        let start = Swift.min(Swift.max(0, start), bytes.count), end = Swift.min(Swift.max(start, end), bytes.count)
        let before = String(decoding: bytes[..<start], as: UTF8.self)
        let word = String(decoding: bytes[start..<end], as: UTF8.self)
        switch controller.completer.offer(before: before, word: word, boundNames: controller.session.boundNames) {
        case .files:
            return nil
        case .words(let words):
            flow_rl_completion_over()
            flow_rl_set_append_character(before.allSatisfy(\.isWhitespace) && word.hasPrefix(":") ? 32 : 0)
            return Self.matchList(words)
        }
    }

    /// readline's match list: the common prefix, then each match, then
    /// NULL; all malloc'd, as readline frees them.
    private static func matchList(_ words: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let first = words.first else { return nil }
        var common = Substring(first)
        for word in words.dropFirst() {
            while !word.hasPrefix(common) { common = common.dropLast() }
        }
        let entries = words.count == 1 ? [first] : [String(common)] + words
        guard let raw = malloc((entries.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride) else { return nil }
        let list = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() { list[index] = strdup(entry) }
        list[entries.count] = nil
        return list
    }

    // MARK: - Signals

    private func watchSignals() {
        let interrupt = scheduler.makeCallback { [self] (_: Bool) in interrupted() }
        let resize = scheduler.makeCallback { [self] (_: Bool) in if !stopped { rl_resize_terminal() } }
        let interruptPending = self.interruptPending
        let onInterrupt: @Sendable () -> Void = {
            interruptPending.withLockedValue { $0 = true }
            interrupt(true)
        }
        let onResize: @Sendable () -> Void = { resize(true) }
        for (number, handler) in [(SIGINT, onInterrupt), (SIGWINCH, onResize)] {
            if let watcher = SignalWatcher(signal: number, handler) { signalWatchers.append(watcher) }
        }
    }

    /// Ctrl-C: `^C` after the edited line, then the controller decides
    /// (cancel streams, drop the line, or exit), then a fresh prompt.
    private func interrupted() {
        interruptPending.withLockedValue { $0 = false }
        guard !stopped else { return }
        let lineWasEmpty = flow_rl_end() == 0
        flow_rl_set_point(flow_rl_end())
        rl_redisplay()
        flow_rl_flush_output()
        promptVisible = false
        StandardStreams.write(1, "^C\n")
        rl_callback_sigcleanup()
        rl_replace_line("", 1)
        if controller.interrupt(lineWasEmpty: lineWasEmpty) == .exit { return finish() }
        rl_set_prompt(controller.prompt)
        rl_on_new_line()
        promptVisible = true
        rl_redisplay()
    }

    /// Restores the terminal and ends the session.
    func finish() {
        guard !stopped else { return }
        stopped = true
        promptVisible = false
        stopFlag.withLockedValue { $0 = true }
        rl_callback_handler_remove()
        rl_deprep_terminal()
        history?.save()
        for watcher in signalWatchers { watcher.cancel() }
        onExit()
    }
}
