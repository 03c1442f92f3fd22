import FlowLive
import FlowRuntime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Files as streams. Reading happens on the scheduler's thread in chunks,
/// one scheduled step at a time: memory stays constant on a large file and
/// the loop keeps serving timers between chunks.
enum Files {
    static let chunkSize = 64 * 1024
    /// The largest file `file.read` gathers into one string.
    static let maximumWholeFile = 256 << 20

    /// Opens a file for reading through the run's `Access` (judged on
    /// what is opened), or explains why not, naming the path. The
    /// descriptor is non-blocking, so that opening a FIFO with no writer
    /// cannot hold the loop; `isRegular` tells whether to read it here.
    static func open(_ path: String, access: Access, by operation: String) throws -> Int32 {
        let fd = try access.openForReading(path, by: operation)
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw FlowError("cannot read \(path): it is a directory")
        }
        return fd
    }

    /// Whether `fd` is a regular file (reading it never waits), as opposed
    /// to a FIFO, a device or a socket.
    static func isRegular(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Regular files never block: reads then behave as usual.
    static func makeBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    struct Status: Equatable {
        var size: Int64
        var modified: Int64
        /// Device and inode: which file the path names, to notice rotation.
        var identity: FileIdentity

        init(_ info: stat) {
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            identity = FileIdentity(info)
        }
    }

    /// What the path names now, judged as a read each time.
    static func status(_ path: String, access: Access, by operation: String) throws -> Status? {
        try access.status(of: path, by: operation).map(Status.init)
    }

    /// Seconds since 1970 on the wall clock, as file times are.
    static func wallClock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// When the open file was last written, in nanoseconds since 1970.
    static func modified(_ fd: Int32) -> Int64 {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return 0 }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    static func identity(of fd: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(info)
    }
}

struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Splits bytes into lines, keeping an unfinished line for the next chunk.
public struct LineSplitter: Sendable {
    private var pending: [UInt8] = []
    /// Whether a line keeps the CR of a CRLF ending: `csv.read` does, so
    /// that a CRLF inside a quoted field stays in the field.
    private let keepsCarriageReturns: Bool

    /// The longest line read: input with no newline in sight (`/dev/zero`,
    /// a binary file) fails instead of filling memory.
    public static let maximumLineBytes = 16 << 20

    public static let lineTooLong = FlowError("a line longer than 16 MiB: this input is not line-oriented text")

    public init(keepingCarriageReturns: Bool = false) { keepsCarriageReturns = keepingCarriageReturns }

    /// Bytes of a line whose newline has not come yet.
    public var hasPartialLine: Bool { !pending.isEmpty }

    public mutating func lines(in chunk: ArraySlice<UInt8>) throws -> [String] {
        var lines: [String] = []
        var start = chunk.startIndex
        for i in chunk.indices where chunk[i] == UInt8(ascii: "\n") {
            pending.append(contentsOf: chunk[start..<i])
            if !keepsCarriageReturns, pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
            start = i + 1
        }
        pending.append(contentsOf: chunk[start...])
        if pending.count > Self.maximumLineBytes { throw Self.lineTooLong }
        return lines
    }

    /// The last line, if the input did not end with a newline.
    public mutating func rest() -> String? {
        defer { pending = [] }
        return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
}

/// `file.lines(path)` (and `file.read(path)`, which joins them). A regular
/// file is read in scheduled chunks on the loop (it never blocks); a FIFO,
/// a device or a socket is read on a thread of its own on the live loop.
/// Cancelling closes the file.
final class FileLinesNode: Observable {
    let path: String
    let wholeFile: Bool
    let access: Access
    /// Lines keep the CR of a CRLF ending (`csv.read`).
    let keepsCarriageReturns: Bool

    /// `location` is where the script asked for the file: its errors point there.
    init(path: String, wholeFile: Bool, location: SourceLocation?, access: Access, keepingCarriageReturns: Bool = false) {
        self.path = path
        self.wholeFile = wholeFile
        keepsCarriageReturns = keepingCarriageReturns
        self.access = access
        super.init(operatorName: wholeFile ? "file.read" : "file.lines")
        self.location = location
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let path = self.path
        let fd: Int32
        do {
            fd = try Files.open(path, access: access, by: operatorName)
            try WritingFiles.refuseReading(fd, path: path, by: operatorName)
        } catch {
            observer.onSubscribe(NopDisposable.shared)
            return observer.onError(FlowError.wrap(error))
        }
        if let live = scheduler as? any LiveLoop, !Files.isRegular(fd) {
            return BackgroundReader.start(name: path, open: { try Files.reopenBlocking(fd, path) }, wholeFile: wholeFile,
                                          splitter: LineSplitter(keepingCarriageReturns: keepsCarriageReturns), observer: observer, on: live)
        }
        Files.makeBlocking(fd)
        ChunkReader(fd: fd, path: path, observer: observer, scheduler: scheduler, wholeFile: wholeFile,
                    splitter: LineSplitter(keepingCarriageReturns: keepsCarriageReturns)).start()
    }
}

extension Files {
    /// The file `fd` has open (non-blocking), opened again to block, for a
    /// reader thread: opening a FIFO that way waits for its writer. Through
    /// `/proc/self/fd` it is the same file, whatever its path names now.
    static func reopenBlocking(_ fd: Int32, _ path: String) throws -> Int32 {
        defer { close(fd) }
        let again = Glibc.open("/proc/self/fd/\(fd)", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if again >= 0 { return again }
        // Without /proc, the descriptor itself, made blocking.
        let copy = dup(fd)
        guard copy >= 0 else { throw FlowError("cannot read \(path): \(String(cString: strerror(errno)))") }
        makeBlocking(copy)
        return copy
    }

    static func tooLargeToRead(_ name: String) -> FlowError {
        FlowError("cannot read \(name) as one string: it is larger than \(maximumWholeFile >> 20) MiB; read it with file.lines")
    }
}

/// Reads a descriptor chunk by chunk, emitting lines (or the whole text).
/// It honours demand: while its consumer has enough, it reads no further
/// than the chunk in hand.
final class ChunkReader: Disposable, DemandControl {
    private var fd: Int32
    private let path: String
    private let observer: Observer
    private let scheduler: Scheduler
    private let wholeFile: Bool
    private var splitter: LineSplitter
    private var whole: [UInt8] = []
    private let step = SerialDisposable()
    private var isDone = false
    private var consumerWantsMore = true
    /// A chunk was due while the consumer had enough.
    private var isWaiting = false

    init(fd: Int32, path: String, observer: Observer, scheduler: Scheduler, wholeFile: Bool, splitter: LineSplitter = LineSplitter()) {
        self.fd = fd
        self.splitter = splitter
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
        do {
            if wholeFile {
                whole.append(contentsOf: buffer[0..<n])
                if whole.count > Files.maximumWholeFile { throw Files.tooLargeToRead(path) }
            } else {
                for line in try splitter.lines(in: buffer[0..<n]) {
                    if isDone { return }
                    observer.onNext(.string(line))
                }
            }
        } catch {
            return finish { $0.onError(FlowError.wrap(error)) }
        }
        scheduleNextChunk()
    }

    private func scheduleNextChunk() {
        guard !isDone else { return }
        guard consumerWantsMore else { isWaiting = true; return }
        step.disposable = scheduler.schedule(after: .zero) { [weak self] in self?.readChunk() }
    }

    func demand(_ wantsMore: Bool) {
        consumerWantsMore = wantsMore
        if wantsMore && isWaiting {
            isWaiting = false
            scheduleNextChunk()
        }
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
    let access: Access

    init(path: String, period: TimeSpan, mode: Mode, location: SourceLocation?, access: Access) {
        self.path = path
        self.period = period
        self.mode = mode
        self.access = access
        super.init(operatorName: mode == .watch ? "file.watch" : "file.tail")
        self.location = location
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        let path = self.path, access = self.access, operation = operatorName
        switch mode {
        case .watch:
            var last: Files.Status?
            do { last = try Files.status(path, access: access, by: operation) } catch {
                observer.onSubscribe(NopDisposable.shared)
                return observer.onError(FlowError.wrap(error))
            }
            let timer = SerialDisposable()
            observer.onSubscribe(timer)
            timer.disposable = scheduler.schedulePeriodic(first: scheduler.now + period, period: period) {
                guard !timer.isDisposed else { return }
                let now: Files.Status?
                do { now = try Files.status(path, access: access, by: operation) } catch {
                    timer.dispose()
                    return observer.onError(FlowError.wrap(error))
                }
                guard now != last else { return }
                last = now
                observer.onNext(.record(["path": .string(path), "exists": .bool(now != nil), "size": .int(Int(now?.size ?? 0))]))
            }
        case .tail:
            let follower = FileFollower(path: path, observer: observer, access: access, operation: operation, now: scheduler.now)
            do { try follower.start() } catch {
                observer.onSubscribe(NopDisposable.shared)
                return observer.onError(FlowError.wrap(error))
            }
            follower.timer = scheduler.schedulePeriodic(first: scheduler.now + period, period: period) {
                follower.poll(now: scheduler.now)
            }
            observer.onSubscribe(follower)
        }
    }
}

/// `file.tail`'s state, as `tail -F` keeps it, without its losses: the
/// file it follows, how far it has read, and the bytes just before that
/// point.
///
/// Rotation by renaming (logrotate's default, `create`): once the path
/// names another file or none, the moved file is kept open and read to its
/// end at every poll before the path's new file, until it has stayed quiet
/// for `rotatedQuietTime` (a program that reopens its log only on SIGHUP
/// still writes to the moved file for a while); its last unfinished line
/// is emitted when it is closed. So a line written to the old file before,
/// during or shortly after the rename is read, and before the new file's.
///
/// Rotation by copying then truncating (`copytruncate`): a file that
/// shrank, or whose bytes before the read point changed, is read again
/// from its start; first, the lines written between the last poll and the
/// truncation are read from the copy (a file beside it whose name begins
/// with the followed one's and whose bytes before the read point are the
/// same); then the copies of whole generations written, copied and
/// truncated between two polls, oldest first; then the file. Each check is
/// made after the read it guards (a chunk is kept only if the bytes before
/// it are still those read; copies are looked for after the start of the
/// file's generation is read), so a rotation racing the poll can delay a
/// line to the next poll but never reorder or lose it.
///
/// Demand: while its consumer has enough, it stops reading at the chunk in
/// hand and skips its polls; the next poll after demand returns reads on
/// from there, the moved-away files first, as a late poll would. A copy
/// found after a truncation is read whole (it may be gone by the next poll).
final class FileFollower: Disposable, DemandControl {
    /// One open file being read.
    private final class OpenFile {
        let fd: Int32
        let identity: FileIdentity?
        var offset: Int64
        /// The last bytes read, up to `witnessLength`, ending at `offset`.
        var witness: [UInt8]
        /// The first bytes read of this generation of the file (since it was
        /// opened at its start or last truncated), up to `witnessLength`: a
        /// copy that begins with them is this generation's.
        var head: [UInt8] = []
        var splitter = LineSplitter()
        /// When it last grew (rotated files are closed once quiet).
        var lastGrowth: TimeSpan
        /// When it was last written, as of the last poll.
        var seenModified: Int64 = 0

        init(fd: Int32, offset: Int64, witness: [UInt8], at now: TimeSpan) {
            self.fd = fd
            identity = Files.identity(of: fd)
            self.offset = offset
            self.witness = witness
            lastGrowth = now
        }
    }

    private let path: String
    private let observer: Observer
    private var current: OpenFile?
    /// Moved-away files still read, oldest first.
    private var rotated: [OpenFile] = []
    private static let witnessLength = 64
    /// The wall-clock time of the previous poll, in seconds: a file beside
    /// the path changed since then and never followed is a rotation that
    /// came and went between two polls.
    private var previousPoll = Files.wallClock()
    /// Whether a file was followed before (so a new one follows a rotation).
    private var hadFile = false
    /// Once the file has been truncated (copytruncate), when the newest copy
    /// beside it that was read was last written: a newer copy holds a
    /// generation of the file that was written and copied away between two
    /// polls, never seen.
    private var copiesReadUntil: Int64?
    /// When following began: older copies are not this run's to read.
    private let wallClockStart = Int64(Files.wallClock() * 1e9)
    /// Every file followed so far, which no copy can be.
    private var followed: Set<FileIdentity> = []
    /// How long a moved-away file is read after it last grew.
    static let rotatedQuietTime = TimeSpan.seconds(5)
    private var isDone = false

    private let access: Access
    private let operation: String
    private let startedAt: TimeSpan
    /// The polling timer, disposed with the follower.
    var timer: Disposable?
    private var consumerWantsMore = true

    func demand(_ wantsMore: Bool) { consumerWantsMore = wantsMore }

    /// Every open, and every look at what the path names, is judged by
    /// `access`: a path that comes to name a denied file (a symlink swapped
    /// in) ends the stream with the denial, and is never read; a file
    /// beside it that is denied is not taken for a rotated copy.
    init(path: String, observer: Observer, access: Access, operation: String, now: TimeSpan) {
        self.path = path
        self.observer = observer
        self.access = access
        self.operation = operation
        startedAt = now
    }

    /// Lines already in the file are not emitted: starts at its end.
    func start() throws {
        guard try Files.status(path, access: access, by: operation) != nil else { return }
        guard let fd = try? Files.open(path, access: access, by: operation) else { return }
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int64(info.st_size) : 0
        current = OpenFile(fd: fd, offset: size, witness: Self.bytes(of: fd, endingAt: size), at: startedAt)
        hadFile = true
        if let identity = current?.identity { followed.insert(identity) }
    }

    func poll(now: TimeSpan) {
        guard !isDone, consumerWantsMore else { return }
        do { try follow(now: now) } catch {
            dispose()
            observer.onError(FlowError.wrap(error))
        }
    }

    private func follow(now: TimeSpan) throws {
        let status = try Files.status(path, access: access, by: operation)
        let pollTime = Files.wallClock()
        defer { previousPoll = pollTime }
        var moved: [OpenFile] = []
        if let file = current, status?.identity != file.identity {
            // Moved away or removed: read on, beside the path's new file.
            file.lastGrowth = now
            moved.append(file)
            current = nil
        }
        var opened = false
        if current == nil, status != nil {
            do {
                current = OpenFile(fd: try Files.open(path, access: access, by: operation), offset: 0, witness: [], at: now)
                opened = true
            } catch {
                // Gone again since it was seen: the next poll looks again.
                if try Files.status(path, access: access, by: operation) != nil { throw error }
            }
        }
        if hadFile && (!moved.isEmpty || opened) {
            // Rotated more than once since the last poll (a slow loop, fast
            // rotation), or while the path was missing: the files in
            // between were never followed.
            moved += missedRotations(except: (moved + rotated + [current].compactMap { $0 }).compactMap(\.identity) + followed, at: now)
        }
        if current != nil { hadFile = true }
        // Oldest first: whichever way they were found, their lines came in
        // the order the files were last written.
        rotated += moved.sorted { Files.modified($0.fd) < Files.modified($1.fd) }
        for file in moved + [current].compactMap({ $0 }) { if let identity = file.identity { followed.insert(identity) } }
        // The moved-away files first, to their ends: their lines came before
        // the new file's.
        for file in rotated where !isDone {
            if readToEnd(file) { file.lastGrowth = now }
            // The rest, the path's new file included, at a later poll, in order.
            if !consumerWantsMore { return }
        }
        while let oldest = rotated.first, !isDone, now - oldest.lastGrowth >= Self.rotatedQuietTime {
            flushPartialLine(of: oldest)
            close(oldest.fd)
            rotated.removeFirst()
        }
        guard let file = current, !isDone else { return }
        let modified = Files.modified(file.fd)
        defer { file.seenModified = modified }
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { return }
        var truncated = false
        if Int64(info.st_size) < file.offset || (!file.witness.isEmpty && Self.bytes(of: file.fd, endingAt: file.offset) != file.witness) {
            // Truncated (copytruncate): the lines written since the last
            // poll are in the copy, if one is beside it.
            readCopy(of: file)
            flushPartialLine(of: file)
            file.offset = 0
            file.witness = []
            file.head = []
            truncated = true
        }
        if file.offset == 0 {
            // Nothing read of this generation yet: written since the last
            // poll, it may have been filled, copied away and truncated in
            // between, more than once.
            if readGenerationStart(of: file, lookingForCopies: truncated || modified != file.seenModified) { file.lastGrowth = now }
            guard file.offset > 0 else { return }
        }
        if readToEnd(file) { file.lastGrowth = now }
    }

    /// Reads the start of a generation of the followed file (just opened, or
    /// just truncated), and the copies of the generations before it first.
    ///
    /// The first chunk is read before the copies are looked for, and its
    /// lines are emitted after them: a rotation can come between any two
    /// steps, and in this order a copy of an earlier generation is always
    /// found. The copy is made before the truncation, so if the chunk read
    /// holds a later generation's lines, the copy was there before the
    /// chunk was read, and so before the folder is listed; a copy that
    /// begins as the chunk does holds the generation being read, whose
    /// lines come from the file itself (the rest, once it is truncated, from
    /// that copy). Listing first and reading after would let the file be
    /// copied, truncated and written again in between: its next
    /// generation's lines would come before the copy's. Whether anything of
    /// the file was read.
    private func readGenerationStart(of file: OpenFile, lookingForCopies: Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: Files.chunkSize)
        let n = Swift.max(0, buffer.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, $0.count, 0) })
        if n > 0 || lookingForCopies {
            let start = Array(buffer[0..<Swift.min(n, Self.witnessLength)])
            let copies = possibleCopies(of: file)
            defer { for copy in copies { close(copy.fd) } }
            // An empty copy may be one just begun: nothing to read in it yet.
            readLater(copies.filter { $0.size > 0 && !Self.copy($0, beginsWith: start) }, into: file)
        }
        // Without demand the chunk is read again, and looked at again, when
        // demand returns.
        guard n > 0, consumerWantsMore, !isDone else { return false }
        consume(buffer[0..<n], of: file, fromCopy: false)
        return true
    }

    /// Reads `file` from its offset to its end; whether anything was read.
    /// The followed file is read while demand lasts, and a chunk of it only
    /// if the bytes before it are still those read (else it was truncated
    /// and written again after the last look: the next poll reads the rest
    /// of what was read from the copy, then the new generation); a copy
    /// (`fd`) is read whole.
    @discardableResult
    private func readToEnd(_ file: OpenFile, from fd: Int32? = nil) -> Bool {
        var buffer = [UInt8](repeating: 0, count: Files.chunkSize)
        var grew = false
        let isFollowed = fd == nil && file === current
        while !isDone && (fd != nil || consumerWantsMore) {
            let n = buffer.withUnsafeMutableBytes { pread(fd ?? file.fd, $0.baseAddress, $0.count, off_t(file.offset)) }
            guard n > 0 else { return grew }
            if isFollowed, file.offset > 0, Self.bytes(of: file.fd, endingAt: file.offset) != file.witness { return grew }
            grew = true
            guard consume(buffer[0..<n], of: file, fromCopy: fd != nil) else { return grew }
        }
        return grew
    }

    /// Emits the lines of `bytes`, read at `file`'s offset (from the file,
    /// or from a copy of it), and moves the offset past them; false if the
    /// stream ended on an error.
    @discardableResult
    private func consume(_ bytes: ArraySlice<UInt8>, of file: OpenFile, fromCopy: Bool) -> Bool {
        let n = bytes.count
        if !fromCopy, file.offset < Int64(Self.witnessLength), file.head.count == Int(file.offset) {
            file.head += bytes.prefix(Self.witnessLength - file.head.count)
        }
        file.offset += Int64(n)
        // Only the chunk's tail can end up in the witness.
        file.witness = Array((file.witness + bytes.suffix(Self.witnessLength)).suffix(Self.witnessLength))
        do {
            for line in try file.splitter.lines(in: bytes) where !isDone { observer.onNext(.string(line)) }
        } catch {
            dispose()
            observer.onError(FlowError.wrap(error))
            return false
        }
        return true
    }

    /// Files beside the path, named after it, changed since the previous
    /// poll and never followed, oldest first, to be read from their start.
    /// Compressed archives are not text: left alone.
    private func missedRotations(except followed: [FileIdentity], at now: TimeSpan) -> [OpenFile] {
        let known = Set(followed)
        var found: [(file: OpenFile, modified: Int64)] = []
        let since = Int64((previousPoll - 1) * 1e9)
        for candidate in siblings() where ![".gz", ".bz2", ".xz", ".zst", ".zip"].contains(where: { candidate.hasSuffix($0) }) {
            guard let status = (try? Files.status(candidate, access: access, by: operation)) ?? nil, status.modified >= since,
                  !known.contains(status.identity), let fd = try? Files.open(candidate, access: access, by: operation) else { continue }
            guard Files.isRegular(fd) else { close(fd); continue }
            found.append((OpenFile(fd: fd, offset: 0, witness: [], at: now), status.modified))
        }
        return found.sorted { $0.modified < $1.modified }.map(\.file)
    }

    /// The paths beside the followed one whose names begin with its name.
    private func siblings() -> [String] {
        let folder = Permissions.folder(of: path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var paths: [String] = []
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            // Read up to the NUL only: a record may be shorter than `dirent`.
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            guard name != base, name.hasPrefix(base) else { continue }
            paths.append((folder == "/" ? "/" : folder + "/") + name)
        }
        return paths
    }

    /// The copy a `copytruncate` made of `file` before truncating it: read
    /// from where `file` was left to the copy's end. The copies made after
    /// it (truncated more than once since the last poll, each copy under a
    /// name of its own) are read next, with the start of the file's new
    /// generation (`readGenerationStart`).
    private func readCopy(of file: OpenFile) {
        guard !file.witness.isEmpty else { return }
        let copies = possibleCopies(of: file)
        defer { for copy in copies { close(copy.fd) } }
        guard let match = copies.filter({ $0.size >= file.offset && Self.bytes(of: $0.fd, endingAt: file.offset) == file.witness })
            .max(by: { $0.modified < $1.modified }) else { return }
        // Copies between the last one read and this one hold generations
        // never seen (none should: the copies before a generation are
        // looked for after its start is read), so read now, whole, rather
        // than lost.
        let since = copiesReadUntil ?? wallClockStart
        let (offset, witness, head, splitter) = (file.offset, file.witness, file.head, file.splitter)
        for missed in copies.filter({ $0.modified > since && $0.modified < match.modified && $0.size > 0 && !Self.copy($0, beginsWith: file.head) })
            .sorted(by: { $0.modified < $1.modified }) where !isDone {
            (file.offset, file.splitter) = (0, LineSplitter())
            readToEnd(file, from: missed.fd)
            flushPartialLine(of: file)
        }
        (file.offset, file.witness, file.head, file.splitter) = (offset, witness, head, splitter)
        readToEnd(file, from: match.fd)
        copiesReadUntil = match.modified
    }

    /// Reads whole, oldest first, the copies newer than the last one read.
    private func readLater(_ copies: [(fd: Int32, modified: Int64, size: Int64)], into file: OpenFile) {
        let since = copiesReadUntil ?? wallClockStart
        let unseen = copies.filter { $0.modified > since }
        for later in unseen.sorted(by: { $0.modified < $1.modified }) where !isDone {
            file.offset = 0
            readToEnd(file, from: later.fd)
            copiesReadUntil = later.modified
            if let identity = Files.identity(of: later.fd) { followed.insert(identity) }
        }
        if !unseen.isEmpty {
            flushPartialLine(of: file)
            file.offset = 0
            file.witness = []
            file.head = []
        }
    }

    /// Whether `copy` begins with `start`, the first bytes of a generation
    /// of the followed file (then it is a copy of that generation, finished
    /// or being made). Nothing begins with no bytes.
    private static func copy(_ copy: (fd: Int32, modified: Int64, size: Int64), beginsWith start: [UInt8]) -> Bool {
        let n = Swift.min(start.count, Int(copy.size))
        return n > 0 && bytes(of: copy.fd, from: 0, count: n) == Array(start.prefix(n))
    }

    /// The files beside the followed one that may be its copies, open.
    private func possibleCopies(of file: OpenFile) -> [(fd: Int32, modified: Int64, size: Int64)] {
        var copies: [(fd: Int32, modified: Int64, size: Int64)] = []
        for candidate in siblings() where ![".gz", ".bz2", ".xz", ".zst", ".zip"].contains(where: { candidate.hasSuffix($0) }) {
            guard let status = (try? Files.status(candidate, access: access, by: operation)) ?? nil, !followed.contains(status.identity),
                  status.identity != file.identity, let fd = try? Files.open(candidate, access: access, by: operation) else { continue }
            copies.append((fd, status.modified, status.size))
        }
        return copies
    }

    private func flushPartialLine(of file: OpenFile) {
        if let rest = file.splitter.rest(), !isDone { observer.onNext(.string(rest)) }
    }

    private static func bytes(of fd: Int32, from start: Int64, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        return n == count ? buffer : []
    }

    private static func bytes(of fd: Int32, endingAt end: Int64) -> [UInt8] {
        let start = Swift.max(0, end - Int64(witnessLength))
        var buffer = [UInt8](repeating: 0, count: Int(end - start))
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        return n == buffer.count ? buffer : []
    }

    func dispose() {
        isDone = true
        timer?.dispose()
        timer = nil
        for file in rotated + (current.map { [$0] } ?? []) { close(file.fd) }
        rotated = []
        current = nil
    }
}

/// Files that `file.append` is writing, by identity: reading one to its
/// end while appending what is read to it would never end.
enum WritingFiles {
    private static let appending = NIOLockedValueBox<[FileIdentity: Int]>([:])

    static func begin(_ identity: FileIdentity) { appending.withLockedValue { $0[identity, default: 0] += 1 } }
    static func end(_ identity: FileIdentity) {
        appending.withLockedValue { if let n = $0[identity] { $0[identity] = n > 1 ? n - 1 : nil } }
    }

    static func refuseReading(_ fd: Int32, path: String, by reader: String) throws {
        guard let identity = Files.identity(of: fd), appending.withLockedValue({ $0[identity] != nil }) else { return }
        close(fd)
        throw FlowError("\(reader)(\"\(path)\") reads the file that file.append is writing: it would never reach the end; "
                        + "append to another file, or read a copy")
    }
}

/// `file.write(path)` / `file.append(path)`: given to `sink`, writes each
/// value as a line.
///
/// `file.write` never loses the old contents: it writes to a temporary
/// file beside the target and, only when the stream completes, syncs it and
/// renames it over the target (then syncs the folder), so the target is at
/// every moment either the old file whole or the new one whole. A stream
/// that fails or is stopped (Ctrl-C, SIGTERM, the end of a run) leaves the
/// target as it was and removes the temporary file, saying nothing was
/// written. It replaces regular files only: a path naming a directory, a
/// FIFO, a device or a socket is refused when the writer is made; a
/// symlink is written through, to its target. Reading the target while
/// writing it (`file.lines(p)` into `file.write(p)`) is therefore safe.
/// `file.append` adds to the file as lines arrive, flushing each one.
///
/// `onCommit:` is told the lines committed so far, as a database sink's is
/// after each batch: `file.append` commits each line as it writes it,
/// `file.write` all of them at once, when the file is put in place.
final class FileWriter: Function, StreamConsumer {
    override var streamConsumer: StreamConsumer? { self }

    private var handle: UnsafeMutablePointer<FILE>?
    private let path: String
    /// The folder `file.write` renames into (open) and the name it
    /// replaces there: the path, or the file its symlinks name.
    private let target: Access.ReplacedFile?
    /// The temporary file's name in that folder, until the stream ends; nil for append.
    private let temporaryName: String?
    private var appendingIdentity: FileIdentity?
    /// The real path this writer holds in `OpenWriters` until it finishes.
    private var claimedPath: String?
    /// The text a value is written as (`csv.write`'s fields), without the
    /// line break; nil writes the value's description.
    private let format: ((Value) throws -> String)?
    /// What ends each line: LF, or CRLF for `csv.write`.
    private let lineTerminator: String
    /// Its line in the report a stop prints.
    private var ledgerPlace: CommitLedger.Place
    private var lines = 0
    private let onCommit: Function?
    /// Where an `onCommit:` that fails once the stream has ended is reported.
    private let context: OperatorContext?

    /// `location` is where the script made the writer: its errors point there.
    /// `claims`: the run's, which the path is claimed in for the rest of the run.
    init(path: String, append: Bool, location: SourceLocation?, access: Access, name: String? = nil,
         lineTerminator: String = "\n", format: ((Value) throws -> String)? = nil, onCommit: Function? = nil,
         context: OperatorContext? = nil, claims: RunClaims? = nil) throws {
        let name = name ?? (append ? "file.append" : "file.write")
        let claim = RunClaims.Claim(operation: name, isShared: append, location: location)
        self.onCommit = onCommit
        self.context = context
        self.format = format
        self.lineTerminator = lineTerminator
        self.path = path
        ledgerPlace = CommitLedger.Place("\(name)(\(path.debugDescription))", "line", append ? "appended" : "written")
        if append {
            target = nil
            temporaryName = nil
            let fd = try access.openForAppending(path, by: name)
            let real = Files.realPath(of: fd) ?? path
            do { try OpenWriters.claim(real, claim, path: path, run: claims) } catch {
                close(fd)
                throw error
            }
            guard let handle = fdopen(fd, "a") else {
                close(fd)
                OpenWriters.release(real)
                throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            self.handle = handle
            claimedPath = real
            appendingIdentity = Files.identity(of: fd)
            if let identity = appendingIdentity { WritingFiles.begin(identity) }
        } else {
            let target = try access.placeForReplacing(path, by: name)
            do { try OpenWriters.claim(target.path, claim, path: path, run: claims) } catch {
                close(target.folder)
                throw error
            }
            do {
                let (fd, temporary) = try Files.makeTemporary(beside: target, path: path, by: name)
                guard let handle = fdopen(fd, "w") else {
                    close(fd)
                    unlinkat(target.folder, temporary, 0)
                    throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                self.handle = handle
                self.target = target
                claimedPath = target.path
                temporaryName = temporary
                PartialFiles.shared.add(Files.path(of: temporary, in: target))
            } catch {
                OpenWriters.release(target.path)
                close(target.folder)
                throw error
            }
        }
        super.init(name: name, parameterCount: 1, location: location)
    }

    func count(in ledger: CommitLedger) { ledgerPlace.subscribed(in: ledger) }

    override func call(_ a: Value) throws -> Value {
        guard let handle else { throw FlowError("cannot write \(path): the file is closed", at: location) }
        let line: String
        do { line = (try format?(a) ?? a.description) + lineTerminator } catch { throw FlowError.wrap(error).located(at: location) }
        // An appended line goes whole or not at all: past the file-size
        // limit it would be cut where the limit falls.
        if appendingIdentity != nil, let limit = Files.fileSizeLimit {
            var info = stat()
            if fstat(fileno(handle), &info) == 0, Int64(info.st_size) + Int64(line.utf8.count) > limit {
                throw FlowError("cannot append to \(path): the line would take it past the file-size limit (\(limit) bytes, "
                                + "ulimit -f); nothing of it was written", at: location)
            }
        }
        // Flushed line by line, as before the stream ends: the output grows
        // where it can be watched (the temporary file, or the appended one).
        guard fputs(line, handle) >= 0, fflush(handle) == 0 else {
            throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))", at: location)
        }
        ledgerPlace.used(in: context?.commitLedger).add(1, bytes: line.utf8.count)
        lines += 1
        if appendingIdentity != nil, let onCommit { _ = try onCommit.call(.int(lines)) }
        return .null
    }

    override func call(_ args: [Value]) throws -> Value { try call(args.count == 1 ? args[0] : .tuple(args)) }

    func finish(_ ending: StreamEnding) -> String? {
        guard let handle else { return nil }
        self.handle = nil
        if let identity = appendingIdentity { WritingFiles.end(identity) }
        if let claimedPath { OpenWriters.release(claimedPath) }
        guard let target, let temporaryName else {
            let flushed = fflush(handle) == 0
            let reason = String(cString: strerror(errno))
            fclose(handle)
            return flushed ? nil : "cannot write \(path): \(reason)"
        }
        defer {
            PartialFiles.shared.remove(Files.path(of: temporaryName, in: target))
            close(target.folder)
        }
        guard ending == .completed else {
            fclose(handle)
            unlinkat(target.folder, temporaryName, 0)
            ledgerPlace.account.settle("not put in place: \(path) keeps its old contents")
            let why = ending == .failed ? "its stream failed" : "its stream was stopped before it ended"
            return "nothing was written to \(path) (\(why)); it keeps its old contents"
        }
        let synced = fflush(handle) == 0 && fsync(fileno(handle)) == 0
        let reason = String(cString: strerror(errno))
        fclose(handle)
        guard synced, renameat(target.folder, temporaryName, target.folder, target.name) == 0 else {
            let failure = synced ? String(cString: strerror(errno)) : reason
            unlinkat(target.folder, temporaryName, 0)
            return "nothing was written to \(path) (\(failure)); it keeps its old contents"
        }
        // Makes the rename durable.
        fsync(target.folder)
        ledgerPlace.account.settle("\(path) replaced")
        if let onCommit {
            do { _ = try onCommit.call(.int(lines)) } catch {
                context?.reportLate(FlowError.wrap(error).located(at: onCommit.location ?? location))
            }
        }
        return nil
    }

    /// A writer dropped without being told its stream ended never replaces
    /// the target.
    deinit { _ = finish(.cancelled) }
}

extension Files {
    /// Makes `file.write`'s temporary file in the folder of what it
    /// replaces, with `O_CREAT | O_EXCL` (a name already there, a link
    /// included, is never opened), keeping the replaced file's permissions
    /// as an editor saving it would. Anything but a regular file is refused
    /// as the target: renaming over a device, a FIFO or a socket would
    /// replace the node itself, and a directory cannot be.
    static func makeTemporary(beside target: Access.ReplacedFile, path: String, by operation: String) throws -> (Int32, String) {
        var info = stat()
        var mode: mode_t = 0o644
        if fstatat(target.folder, target.name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = ""
            case S_IFDIR: kind = "a directory"
            case S_IFIFO: kind = "a FIFO"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            case S_IFLNK: kind = "a symbolic link made while it was being opened"
            default: kind = "not a regular file"
            }
            guard kind.isEmpty else {
                throw FlowError("\(operation) \(path.debugDescription): it is \(kind), and \(operation) only replaces regular files"
                                + (kind == "a directory" ? "; name a file inside it" : "; use file.append to write to it"))
            }
            mode = info.st_mode & 0o7777
        }
        let base = target.name == "." ? "" : target.name
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
            let name = ".\(base).partial-\(suffix)"
            let fd = openat(target.folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0, errno == EEXIST { continue }
            guard fd >= 0 else { throw FlowError("cannot write \(path): \(String(cString: strerror(errno)))") }
            fchmod(fd, mode)
            return (fd, name)
        }
        throw FlowError("cannot write \(path): no free temporary name beside it")
    }

    /// The real path of `name` in the folder of `target`.
    static func path(of name: String, in target: Access.ReplacedFile) -> String {
        let slash = target.path.lastIndex(of: "/").map { target.path[..<$0] } ?? ""
        return target.name == "." ? target.path + "/" + name : String(slash) + "/" + name
    }
}

extension Files {
    /// The file-size limit (`ulimit -f`, RLIMIT_FSIZE) in bytes, if there is one.
    static let fileSizeLimit: Int64? = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int64(clamping: limit.rlim_cur)
    }()
}

/// The files being written now, by any run of the process (the pages of
/// `flow serve` run at once), by real path; and the rule that a file is
/// written by one sink of a run (or by several appending to it).
///
/// A second `file.write` of a file, or a `file.write` and a `file.append`,
/// would lose lines silently: the one renamed last replaces the other's,
/// or replaces what was appended. So the second is refused where it is
/// made, naming the first: while the first is open, in any run; and,
/// through the run's `RunClaims`, for the rest of the run once it has
/// finished. Appending twice loses nothing, and is allowed.
enum OpenWriters {
    private static let open = NIOLockedValueBox<[String: (claim: RunClaims.Claim, count: Int)]>([:])

    /// Holds `real` for `claim` (made at `path` in the script) until
    /// `release`, and claims it in `run` for the rest of the run; or
    /// refuses, naming the writer it would lose lines to.
    static func claim(_ real: String, _ claim: RunClaims.Claim, path: String, run: RunClaims?) throws {
        let busy = open.withLockedValue { open -> RunClaims.Claim? in
            if let writer = open[real], !(writer.claim.isShared && claim.isShared) { return writer.claim }
            if let first = run?.conflict(for: real, with: claim) { return first }
            open[real] = open[real].map { ($0.claim, $0.count + 1) } ?? (claim, 1)
            return nil
        }
        if let busy {
            let isOpen = open.withLockedValue { $0[real]?.claim == busy }
            throw refusal(claim, of: path, first: busy, isOpen: isOpen)
        }
        run?.record(real, claim)
    }

    static func release(_ real: String) {
        open.withLockedValue { open in
            guard let writer = open[real] else { return }
            open[real] = writer.count > 1 ? (writer.claim, writer.count - 1) : nil
        }
    }

    /// What `claim` would lose to `first`, and the two ways out.
    static func refusal(_ claim: RunClaims.Claim, of path: String, first: RunClaims.Claim, isOpen: Bool) -> FlowError {
        let place = first.location.map { " at \($0.file):\($0.line):\($0.column)" } ?? ""
        let when = isOpen ? "now" : "in this run"
        let what: String
        switch (first.isShared, claim.isShared) {
        case (false, false):
            what = "\(first.operation)\(place) writes it \(when) too, and the one put in place last would replace the other's lines: "
                + "merge the streams into one \(claim.operation), or write two files"
        case (true, _):
            what = "\(first.operation)\(place) appends to it \(when), and \(claim.operation) would replace what was appended: "
                + "write the file with one of them, or write two files"
        case (false, true):
            what = "\(first.operation)\(place) replaces it \(when), so what is appended would be lost or land before its lines: "
                + "write the file with one of them, or write two files"
        }
        return FlowError("\(claim.operation) \(path.debugDescription): \(what)")
    }
}

extension Files {
    /// The real path of the file `fd` has open, as the kernel names it.
    static func realPath(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The temporary files of `file.write` not yet renamed into place: removed
/// if the process is made to exit before their streams end (a second
/// Ctrl-C, the watchdog of a busy run, a signal during a virtual-time run),
/// so no `.partial` file is left behind.
public final class PartialFiles: Sendable {
    public static let shared = PartialFiles()
    private let paths = NIOLockedValueBox<Set<String>>([])

    func add(_ path: String) { paths.withLockedValue { _ = $0.insert(path) } }
    func remove(_ path: String) { paths.withLockedValue { _ = $0.remove(path) } }

    /// Unlinks every temporary file still open. Called just before the
    /// process exits: the targets keep their old contents.
    public func removeAll() {
        for path in paths.withLockedValue({ $0 }) { unlink(path) }
    }
}
