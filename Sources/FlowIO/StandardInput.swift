import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// `stdin.lines()`: the lines of standard input. On the live loop a
/// background reader blocks on the input and hops its lines onto the loop,
/// holding the run open until the end of input; in virtual time the input
/// is read in chunks like a file.
final class StandardInputNode: Observable {
    let access: Access

    init(access: Access) {
        self.access = access
        super.init(operatorName: "stdin.lines")
    }

    override var isHotSource: Bool { true }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        // A script that is graded or tested gets no input: it must not wait
        // on the grader's own standard input.
        guard access.readsStandardInput else {
            observer.onSubscribe(NopDisposable.shared)
            return observer.onCompleted()
        }
        guard let live = scheduler as? any LiveLoop else {
            return ChunkReader(fd: dup(0), path: "standard input", observer: observer, scheduler: scheduler, wholeFile: false).start()
        }
        BackgroundReader.start(name: "standard input", open: { 0 }, wholeFile: false, observer: observer, on: live)
    }
}

/// Reads a descriptor that may block (standard input, a FIFO, a device) on
/// a thread of its own, so the loop never waits on it and Ctrl-C is served
/// at once. Lines hop onto the loop one chunk's worth at a time, and the
/// reader waits while `window` chunks are still undelivered: a fast
/// producer meets a bounded buffer, not an ever-growing queue. While its
/// consumer has enough (demand), delivered chunks give no room back, so
/// the reader stops at most `window` chunks ahead.
final class BackgroundReader: Disposable, DemandControl {
    private let observer: Observer
    private var hold: Disposable?
    /// Chunks the reader may have handed over but the loop not yet delivered.
    private static let window = 4
    private let room = Permits(window)
    private let cancelled = NIOLockedValueBox(false)
    private var consumerWantsMore = true
    /// Room owed to the reader for chunks delivered while demand was off.
    private var owedRoom = 0

    private init(observer: Observer, hold: Disposable) {
        self.observer = observer
        self.hold = hold
    }

    enum Batch: Sendable {
        case lines([String])
        case end
        case failure(String)
    }

    /// `open` runs on the reader's thread (opening a FIFO waits for a
    /// writer) and returns a descriptor, or throws.
    static func start(name: String, open: @escaping @Sendable () throws -> Int32, wholeFile: Bool, splitter: LineSplitter = LineSplitter(),
                      observer: Observer, on live: any LiveLoop) {
        let reader = BackgroundReader(observer: observer, hold: live.hold())
        observer.onSubscribe(reader)
        let deliver = live.makeCallback { (batch: Batch) in reader.deliver(batch) }
        let room = reader.room, cancelled = reader.cancelled
        startBackgroundThread {
            let fd: Int32
            do { fd = try open() } catch { return deliver(.failure(FlowError.wrap(error).message)) }
            defer { if fd != 0 { close(fd) } }
            var splitter = splitter
            var whole: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: Files.chunkSize)
            while true {
                room.wait()
                if cancelled.withLockedValue({ $0 }) { return }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { room.signal(); continue }
                if n < 0 { return deliver(.failure("cannot read \(name): \(String(cString: strerror(errno)))")) }
                if n == 0 { break }
                do {
                    if wholeFile {
                        whole.append(contentsOf: buffer[0..<n])
                        if whole.count > Files.maximumWholeFile { throw Files.tooLargeToRead(name) }
                        room.signal()
                    } else {
                        deliver(.lines(try splitter.lines(in: buffer[0..<n])))
                    }
                } catch {
                    return deliver(.failure(FlowError.wrap(error).message))
                }
            }
            if wholeFile { deliver(.lines([String(decoding: whole, as: UTF8.self)])) }
            else if let last = splitter.rest() { deliver(.lines([last])) }
            deliver(.end)
        }
    }

    private func deliver(_ batch: Batch) {
        guard hold != nil else { return }
        switch batch {
        case .lines(let lines):
            for line in lines {
                guard hold != nil else { return }
                observer.onNext(.string(line))
            }
            if consumerWantsMore { room.signal() } else { owedRoom += 1 }
        case .end:
            release()
            observer.onCompleted()
        case .failure(let message):
            release()
            observer.onError(FlowError(message))
        }
    }

    func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        guard wantsMore else { return }
        for _ in 0..<owedRoom { room.signal() }
        owedRoom = 0
    }

    private func release() {
        let h = hold
        hold = nil
        h?.dispose()
    }

    /// Cancelling lets the run end at once. A reader blocked in `read` is
    /// abandoned (the process ends without it); one waiting for room wakes
    /// and stops.
    func dispose() {
        guard hold != nil else { return }
        release()
        cancelled.withLockedValue { $0 = true }
        room.signal()
    }
}

/// A counting semaphore on POSIX's `sem_t`. Dispatch's semaphore traps
/// when it is released with fewer permits than it started with, which is
/// how a reader cancelled mid-stream leaves it.
final class Permits: @unchecked Sendable {
    // sem_t is made for sharing between threads; it is only ever used
    // through its pointer.
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(_ count: Int) { sem_init(semaphore, 0, UInt32(count)) }

    func wait() { while sem_wait(semaphore) != 0, errno == EINTR {} }
    func signal() { sem_post(semaphore) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }
}
