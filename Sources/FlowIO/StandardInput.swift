import Dispatch
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `stdin.lines()`: the lines of standard input. On the live loop a
/// background reader blocks on the input and hops each line onto the loop,
/// holding the run open until the end of input; in virtual time the input
/// is read in chunks like a file.
final class StandardInputNode: Observable {
    init() { super.init(operatorName: "stdin.lines") }

    override var isHotSource: Bool { true }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        guard let live = scheduler as? LiveScheduler else {
            return ChunkReader(fd: dup(0), path: "standard input", observer: observer, scheduler: scheduler, wholeFile: false).start()
        }
        let subscription = BackgroundLines(observer: observer, hold: live.hold())
        observer.onSubscribe(subscription)
        let deliver = live.makeCallback { (line: String?) in subscription.deliver(line) }
        startBackgroundThread {
            var splitter = LineSplitter()
            var buffer = [UInt8](repeating: 0, count: Files.chunkSize)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                for line in splitter.lines(in: buffer[0..<n]) { deliver(line) }
            }
            if let last = splitter.rest() { deliver(last) }
            deliver(nil)
        }
    }
}

/// Lines arriving from the background reader, on the loop.
final class BackgroundLines: Disposable {
    private let observer: Observer
    private var hold: Disposable?

    init(observer: Observer, hold: Disposable) {
        self.observer = observer
        self.hold = hold
    }

    /// A line, or nil at the end of input.
    func deliver(_ line: String?) {
        guard hold != nil else { return }
        guard let line else {
            dispose()
            return observer.onCompleted()
        }
        observer.onNext(.string(line))
    }

    /// Cancelling lets the run end; the reader's blocked read is abandoned.
    func dispose() {
        let h = hold
        hold = nil
        h?.dispose()
    }
}
