import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Files as streams. Reading happens on the scheduler's thread in chunks,
/// one scheduled step at a time: memory stays constant on a large file and
/// the loop keeps serving timers between chunks.
enum Files {
    static let chunkSize = 64 * 1024

    /// Opens a file for reading, or explains why not, naming the path.
    static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FlowError("cannot read \(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw FlowError("cannot read \(path): it is a directory")
        }
        return fd
    }

    static func status(_ path: String) -> (size: Int64, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

/// Splits bytes into lines, keeping an unfinished line for the next chunk.
public struct LineSplitter {
    private var pending: [UInt8] = []

    public init() {}

    /// Bytes of a line whose newline has not come yet.
    public var hasPartialLine: Bool { !pending.isEmpty }

    public mutating func lines(in chunk: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        var start = chunk.startIndex
        for i in chunk.indices where chunk[i] == UInt8(ascii: "\n") {
            pending.append(contentsOf: chunk[start..<i])
            if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
            start = i + 1
        }
        pending.append(contentsOf: chunk[start...])
        return lines
    }

    /// The last line, if the input did not end with a newline.
    public mutating func rest() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}

/// `file.lines(path)` (and `file.read(path)`, which joins them): reads in
/// scheduled chunks; cancelling closes the file.
final class FileLinesNode: Observable {
    let path: String
    let wholeFile: Bool
    /// Where the script asked for the file: its errors point there.
    let location: SourceLocation?

    init(path: String, wholeFile: Bool, location: SourceLocation?) {
        self.path = path
        self.wholeFile = wholeFile
        self.location = location
        super.init(operatorName: wholeFile ? "file.read" : "file.lines")
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let fd: Int32
        do { fd = try Files.open(path) } catch {
            observer.onSubscribe(NopDisposable.shared)
            return observer.onError(FlowError.wrap(error).located(at: location))
        }
        ChunkReader(fd: fd, path: path, observer: observer, scheduler: scheduler, wholeFile: wholeFile).start()
    }
}

/// Reads a descriptor chunk by chunk, emitting lines (or the whole text).
final class ChunkReader: Disposable {
    private var fd: Int32
    private let path: String
    private let observer: Observer
    private let scheduler: Scheduler
    private let wholeFile: Bool
    private var splitter = LineSplitter()
    private var whole: [UInt8] = []
    private let step = SerialDisposable()
    private var isDone = false

    init(fd: Int32, path: String, observer: Observer, scheduler: Scheduler, wholeFile: Bool) {
        self.fd = fd
        self.path = path
        self.observer = observer
        self.scheduler = scheduler
        self.wholeFile = wholeFile
    }

    func start() {
        observer.onSubscribe(self)
        readChunk()
    }

    private func readChunk() {
        guard !isDone else { return }
        var buffer = [UInt8](repeating: 0, count: Files.chunkSize)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            let reason = String(cString: strerror(errno))
            return finish { $0.onError(FlowError("cannot read \(self.path): \(reason)")) }
        }
        if n == 0 {
            return finish { [self] observer in
                if wholeFile {
                    observer.onNext(.string(String(decoding: whole, as: UTF8.self)))
                } else if let last = splitter.rest() {
                    observer.onNext(.string(last))
                }
                if !isDone { observer.onCompleted() }
            }
        }
        if wholeFile {
            whole.append(contentsOf: buffer[0..<n])
        } else {
            for line in splitter.lines(in: buffer[0..<n]) {
                if isDone { return }
                observer.onNext(.string(line))
            }
        }
        step.disposable = scheduler.schedule(after: .zero) { [weak self] in self?.readChunk() }
    }

    private func finish(_ last: (Observer) -> Void) {
        closeFile()
        last(observer)
        isDone = true
    }

    private func closeFile() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    func dispose() {
        isDone = true
        step.dispose()
        closeFile()
    }
}

/// Polls a file on the scheduler's clock: `file.watch` emits its status when
/// it changes; `file.tail` emits the lines appended since subscription.
final class FilePollNode: Observable {
    enum Mode { case watch, tail }
    let path: String
    let period: TimeSpan
    let mode: Mode

    init(path: String, period: TimeSpan, mode: Mode) {
        self.path = path
        self.period = period
        self.mode = mode
        super.init(operatorName: mode == .watch ? "file.watch" : "file.tail")
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        var last = Files.status(path)
        var offset = last?.size ?? 0
        var splitter = LineSplitter()
        let path = self.path, mode = self.mode
        let timer = scheduler.schedulePeriodic(first: scheduler.now + period, period: period) {
            let now = Files.status(path)
            switch mode {
            case .watch:
                guard now?.size != last?.size || now?.modified != last?.modified else { return }
                last = now
                observer.onNext(.record(["path": .string(path), "exists": .bool(now != nil),
                                         "size": .int(Int(now?.size ?? 0))]))
            case .tail:
                guard let size = now?.size else { return }
                if size < offset { offset = 0 }
                guard size > offset, let fd = try? Files.open(path) else { return }
                defer { close(fd) }
                lseek(fd, off_t(offset), SEEK_SET)
                var buffer = [UInt8](repeating: 0, count: Int(Swift.min(size - offset, Int64(Files.chunkSize * 16))))
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                offset += Int64(n)
                for line in splitter.lines(in: buffer[0..<n]) { observer.onNext(.string(line)) }
            }
        }
        observer.onSubscribe(timer)
    }
}

/// `file.write(path)` / `file.append(path)`: given to `sink`, writes each
/// value as a line and flushes it; closes the file when the stream ends or
/// is cancelled.
final class FileWriter: Function, StreamConsumer {
    private var handle: UnsafeMutablePointer<FILE>?
    private let path: String

    init(path: String, append: Bool) throws {
        self.path = path
        guard let handle = fopen(path, append ? "a" : "w") else {
            throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        super.init(name: append ? "file.append" : "file.write", parameterCount: 1)
    }

    override func call(_ a: Value) throws -> Value {
        guard let handle else { throw FlowError("cannot write \(path): the file is closed") }
        let line = a.description + "\n"
        guard fputs(line, handle) >= 0, fflush(handle) == 0 else {
            throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return .null
    }

    override func call(_ args: [Value]) throws -> Value { try call(args.count == 1 ? args[0] : .tuple(args)) }

    func finish() {
        if let handle { fclose(handle) }
        handle = nil
    }

    deinit { finish() }
}
