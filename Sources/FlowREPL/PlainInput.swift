import Dispatch
import FlowIO
import FlowLive
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The REPL when standard input is not a terminal (`flow repl < session.txt`):
/// plain lines, no prompt, no line editing (readline would echo a prompt
/// and read control bytes in the data as keys). At the end of the input,
/// streams still running finish, as in a script.
final class PlainInput: Screen {
    private let scheduler: LiveScheduler

    init(scheduler: LiveScheduler) { self.scheduler = scheduler }

    /// Errors shown: a piped session with any ends with exit status 1,
    /// as a script would.
    private(set) var errorsShown = 0

    func show(_ text: String) { StandardStreams.out(text) }
    func showError(_ text: String) {
        errorsShown += 1
        StandardStreams.err(text)
    }

    /// Reads lines on a background thread and hands each to the controller
    /// on the loop, saying whether more were already waiting.
    func start(_ controller: Controller, atEnd: @escaping () -> Void) {
        let deliver = scheduler.makeCallback { (item: Line?) in
            guard let item else {
                controller.inputSettled()
                return atEnd()
            }
            if let error = item.error { return self.showError("flow: standard input: " + error) }
            controller.receive(item.text, moreInputWaiting: item.moreWaiting)
            if !item.moreWaiting { controller.inputSettled() }
        }
        startBackgroundThread {
            var splitter = LineSplitter()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(0, &buffer, buffer.count)
                if count <= 0 { break }
                guard let lines = try? splitter.lines(in: buffer[0..<count]) else {
                    // Not line-oriented input: what came before it still runs.
                    deliver(Line(text: "", moreWaiting: false, error: LineSplitter.lineTooLong.message))
                    return deliver(nil)
                }
                let moreWaiting = splitter.hasPartialLine || StandardStreams.inputWaiting()
                for (index, line) in lines.enumerated() {
                    deliver(Line(text: line, moreWaiting: index < lines.count - 1 || moreWaiting))
                }
            }
            if let last = splitter.rest() { deliver(Line(text: last, moreWaiting: false)) }
            deliver(nil)
        }
    }

    struct Line: Sendable {
        let text: String
        let moreWaiting: Bool
        var error: String?
    }
}
