import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime
import Synchronization
import FlowServe
#if canImport(Glibc)
import Glibc
#endif

/// `flow grade`: a class's files, one row each, with the tests passed and
/// the points earned. Each file is graded by a `flow` of its own
/// (`grade-file`), with limits on its memory, CPU and wall-clock time, so
/// that one student's runaway is that student's row and nobody else's.
struct Grade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade",
        abstract: "Grade a class: run the tests of every file, each in a process of its own, one row per file with tests passed and points.",
        discussion: """
            A test is worth one point unless it says otherwise: test "zip" (points: 2) { ... }. \
            With --key, every file is graded on the key's tests and points instead of its own; the \
            streams the key defines are the key's. A test block that does not compile fails alone; a \
            file whose other code does not compile scores nothing. A file that runs out of time or \
            memory, or crashes, is stopped and scores nothing; the other rows are unaffected. Grading a \
            class succeeds (exit 0) whatever the grades.
            """)

    @Argument(help: "The students' scripts, or folders searched for *.flow files.")
    var paths: [String]

    @Option(help: ArgumentHelp("The teacher's file of test blocks with points, which every file is graded on.", valueName: "file"))
    var key: String?

    @Flag(help: "After each row, why each failed test failed (as --feedback says; given, --feedback implies it).")
    var details = false

    @Option(help: ArgumentHelp("""
        How much each report tells: none (each file's total), score (each test's points), where (which test, which frame, \
        what kind of difference), why (the default: the student's own lane, what was wrong with it, a hint), answer (the \
        expected lane too). Below answer, no report holds the key's lanes or code.
        """, valueName: "level"))
    var feedback: Feedback?

    @Flag(help: "The same as --feedback where (kept for older scripts).")
    var hideActual = false

    /// The level chosen: `--feedback`, else `where` for `--hide-actual`, else `why`.
    var level: Feedback { feedback ?? (hideActual ? .where : .why) }

    @Option(name: .customLong("after-reveal"), help: ArgumentHelp("""
        How a test is graded whose right lane flow serve --exercise showed the student before they had it right (after a \
        give-up), as the answer file records: zero (the default), half (half the points \
        earned, rounded down) or full.
        """, valueName: "zero|half|full"))
    var afterReveal: AfterReveal = .zero

    @Option(help: "text (the default, with a class summary), json, or csv (one row per file, one column per test).")
    var format: GradeFormat = .text

    enum GradeFormat: String, ExpressibleByArgument, CaseIterable { case text, json, csv }

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("""
        The class as a CSV with the columns file, id, email (and name): the CSV report becomes a gradebook import, one row \
        per student in the roster's order, and the students with no file are listed.
        """, valueName: "file"))
    var roster: String?

    @Option(help: ArgumentHelp("The longest a file may take, wall clock and CPU (30s, 2m).", valueName: "duration"))
    var timeout = "30s"

    @Option(name: .customLong("max-memory"), help: ArgumentHelp("The most memory a file may use (512MB, 1GB).", valueName: "size"))
    var maxMemory = "1GB"

    @Option(help: ArgumentHelp("How many files are graded at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @OptionGroup(title: "Permissions (default: read the student's own file and the data files the key names, nothing else; standard input is always empty)")
    var permissions: PermissionOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the folder or the scripts to grade") }
        guard let seconds = Loader.duration(timeout)?.seconds, seconds >= 0.1 else {
            throw ValidationError("--timeout takes a duration of at least 100ms, such as 30s or 2m, not '\(timeout)'")
        }
        _ = try MemoryOption.checked(maxMemory, for: "grading one file")
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes a number from 1 to 256, not \(jobs)") }
    }

    func run() throws {
        // Ctrl-C and SIGTERM are answered from here on, wherever grading is:
        // reading the key and the roster and finding files (where a read
        // can wait for ever, as on a FIFO nobody writes: with no child
        // started and nothing written, the process ends at once), grading
        // them (the children stopped, the rows so far written), writing
        // the report (cut where it is; a write that cannot end, to a pipe
        // nobody reads or a FIFO nobody opens, is given up after a grace).
        let interruption = Atomic<Int32>(0)
        let phase = Atomic<Int>(GradingPhase.settingUp)
        let watch = LiveWorld().watchInterrupts { kind in
            let signal = kind == .terminate ? SIGTERM : SIGINT
            interruption.store(signal, ordering: .relaxed)
            switch phase.load(ordering: .acquiring) {
            case GradingPhase.settingUp: _exit(128 + signal)
            case GradingPhase.reporting: GradingPhase.exitIfStuck(signal)
            default: break
            }
        }
        defer { watch?.cancel() }
        func stopped() -> Bool { interruption.load(ordering: .relaxed) != 0 }
        func exitIfStopped() throws {
            let signal = interruption.load(ordering: .relaxed)
            if signal != 0 { throw ExitCode(128 + signal) }
        }
        let destination = try ReportDestination(path: output)
        let answerKey: AnswerKey?
        do {
            answerKey = try key.map { try AnswerKey(file: try SourceFile.load(path: $0)) }
        } catch let list as DiagnosticList {
            Loader.report(list)
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch {
            Output.err("flow: --key: \(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let classList: Roster?
        do {
            classList = try roster.map { try Roster(path: $0, text: try SourceFile.load(path: $0).text) }
        } catch let list as DiagnosticList {
            Loader.report(list)
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch {
            Output.err("flow: --roster: \(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        try exitIfStopped()
        let keyPath = key.map(Permissions.resolve)
        guard let found = GradedFiles.find(paths, stop: stopped) else { throw ExitCode(ExitStatus.usage.rawValue) }
        try exitIfStopped()
        let files = found.filter { Permissions.resolve($0.path) != keyPath }
        let limits = ClassGrader.Limits(seconds: Loader.duration(timeout)!.seconds, memory: MemoryOption.bytes(maxMemory)!)
        var childArguments = ["--memory-limit", "\(limits.memory)", "--cpu-limit", "\(Int(limits.seconds.rounded(.up)) + 1)",
                              "--kept-text", "\(GradeFile.keptText(memory: limits.memory, files: files.count))"]
        if let key { childArguments += ["--key", key] }
        childArguments += ["--feedback", level.rawValue, "--after-reveal", afterReveal.rawValue]
        childArguments += permissions.arguments
        let grader = ClassGrader(limits: limits, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), childArguments: childArguments,
                                 keyTests: answerKey?.tests)
        phase.store(GradingPhase.grading, ordering: .releasing)
        let graded = grader.grade(files, stop: stopped)
        phase.store(GradingPhase.reporting, ordering: .releasing)
        // Stopped while grading, the rows so far are written whole; a signal
        // while a long report is written stops the writing.
        let interruptedGrading = stopped()
        if interruptedGrading { GradingPhase.exitIfStuck(interruption.load(ordering: .relaxed)) }
        let report = ClassReport(rows: graded, testNames: answerKey?.tests.map(\.name), details: details || (feedback ?? .none) > .none,
                                 feedback: level, roster: classList)
        switch format {
        case .text: report.writeText(to: destination, stop: { !interruptedGrading && stopped() })
        case .json: report.writeJSON(to: destination)
        case .csv: report.writeCSV(to: destination)
        }
        if stopped() {
            let left = files.count - graded.count
            let what = interruptedGrading ? "\(left) file\(left == 1 ? "" : "s") not graded" : "the report was being written"
            destination.write("stopped by \(interruption.load(ordering: .relaxed) == SIGTERM ? "SIGTERM" : "Ctrl-C"): \(what)")
        }
        try destination.close()
        try exitIfStopped()
    }
}

/// Where `flow grade` is, for what a signal does.
enum GradingPhase {
    static let settingUp = 0, grading = 1, reporting = 2
    /// How long a stopped grader's report may take to end before the
    /// process ends without it.
    static let reportGrace: UInt32 = 10

    /// Ends the process, 128 + `signal`, unless the report ends first: a
    /// stopped report is cut at its next row, so only a write that cannot
    /// end takes this long.
    static func exitIfStuck(_ signal: Int32) {
        startBackgroundThread {
            sleep(reportGrace)
            _exit(128 + signal)
        }
    }
}

/// `flow grade-file`: grades one file in this process, for `flow grade`,
/// which starts it, and writes the results as JSON to `--result`. It limits
/// its own memory and CPU time first, so a runaway ends here.
struct GradeFile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade-file", abstract: "Grade one file for flow grade (started by it).", shouldDisplay: false)

    /// The student's file as the teacher named it, for the messages.
    @Argument var path: String
    /// The grader's copy of what it read from that file, once.
    @Option var source: String
    /// Where the file really is: the one file its script may read.
    @Option(name: .customLong("own-file")) var ownFile: String
    /// The graded folder, resolved, and as reports show it.
    @Option var folder: String
    @Option(name: .customLong("folder-shown")) var folderShown: String
    @Option var result: String
    @Option var key: String?
    @Option var feedback: Feedback = .why
    @Option(name: .customLong("after-reveal")) var afterReveal: AfterReveal = .zero
    @Option(name: .customLong("memory-limit")) var memoryLimit: Int
    @Option(name: .customLong("cpu-limit")) var cpuLimit: Int
    /// The most of what its tests printed and why they failed the file's
    /// row keeps in all (`keptText(memory:files:)`).
    @Option(name: .customLong("kept-text")) var keptText: Int = 1 << 30
    @OptionGroup var permissions: PermissionOptions

    /// Address space beyond the memory limit: the threads' large stacks are
    /// reserved, not used. The grader watches resident memory itself; this
    /// only stops an allocation too fast for it to see.
    static let addressSpaceHeadroom = 3 << 30

    func run() throws {
        var memory = rlimit(rlim_cur: rlim_t(memoryLimit + Self.addressSpaceHeadroom), rlim_max: rlim_t(memoryLimit + Self.addressSpaceHeadroom))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &memory)
        var cpu = rlimit(rlim_cur: rlim_t(cpuLimit), rlim_max: rlim_t(cpuLimit + 1))
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        // The budget stops a value that grows too large with a located
        // error, before the grader has to stop the whole file: half the
        // file's limit, since building a value needs room for its parts too.
        MemoryBudget.set(bytes: memoryLimit / 2)
        let answerKey = try key.map { try AnswerKey(file: try SourceFile.load(path: $0)) }
        // Each script's relative paths are its own file's folder, as `flow
        // run` (or `flow test`) started beside it reads them, wherever the
        // teacher started grading: the student's "data.txt" is the file
        // beside the student's script (it runs in that folder), the key's
        // "numbers.txt" the file beside the key. Every path the flags and
        // the grader name is resolved before moving.
        let studentsFolder = Permissions.folder(of: Permissions.resolve(ownFile))
        let access = Access(Self.permissions(for: ownFile, key: answerKey, keyPath: key, flags: permissions),
                            relativeFolders: answerKey.map { $0.file.path == path ? [:] : [$0.file.path: $0.folder] } ?? [:])
        let student = SourceFile(path: path, text: try SourceFile.load(path: source).text)
        guard chdir(studentsFolder) == 0 else {
            throw ValidationError("cannot enter the folder of \(path): \(String(cString: strerror(errno)))")
        }
        var run = TestRunner.run(path, source: student, color: false, feedback: feedback, access: access, capture: CapturedOutput(),
                                 key: answerKey, answered: ExerciseRecord.isAnswerFile(student.text))
        let relative = ShownPaths(folder: folder, shown: folderShown).rewrite
        afterReveal.apply(ExerciseRecord(readingAnswersIn: student.text), to: &run)
        for i in run.results.indices { run.results[i].details = Self.bounded(relative(run.results[i].details)) }
        run.warnings = run.warnings.map(relative)
        Self.share(&run, keeping: keptText)
        try Loader.write(try JSON.string(run.json), to: result)
    }
}

extension GradeFile {
    /// The most of one test's details a row keeps: a test that fails
    /// thousands of expectations says so without swelling the report.
    static let keptDetails = 64 << 10

    static func bounded(_ details: String) -> String {
        cut(details, to: keptDetails) { "… \($0) more bytes of details not shown" }
    }

    /// `text` whole if it fits in `room` bytes, else its whole lines that
    /// do, then `note` of the bytes left out.
    static func cut(_ text: String, to room: Int, note: (Int) -> String) -> String {
        let bytes = text.utf8
        guard bytes.count > room else { return text }
        var end = bytes.index(bytes.startIndex, offsetBy: max(0, room))
        while end > bytes.startIndex, !text.unicodeScalars.indices.contains(end) { end = bytes.index(before: end) }
        let kept = String(text[..<end])
        let whole = kept.lastIndex(of: "\n").map { String(kept[..<$0]) } ?? kept
        return (whole.isEmpty ? "" : whole + "\n") + note(bytes.count - whole.utf8.count)
    }

    /// What one file's row keeps in all of what its script printed and why
    /// its tests failed: a sixteenth of `--max-memory` for the whole
    /// class, shared by its files, at least 64 KiB each. The grader then
    /// holds the class's rows within its own limit, however much each
    /// student prints (six students of hundreds of tests printing 64 KiB
    /// each took it to several times `--max-memory`).
    static func keptText(memory: Int, files: Int) -> Int {
        max(64 << 10, memory / 16 / max(1, files))
    }

    /// Cuts `run`'s output and details, in the order a report shows them,
    /// to `room` bytes in all; each piece cut says how much was left out.
    static func share(_ run: inout TestRunner.FileRun, keeping room: Int) {
        var left = room
        func keep(_ text: inout String, _ what: String) {
            let size = text.utf8.count
            guard size > left else { return left -= size }
            text = cut(text, to: left) { "… \($0) more bytes of \(what) not kept (a file's row keeps \(room >> 10) KiB of output and details)" }
            left = 0
        }
        keep(&run.output, "output")
        for i in run.results.indices {
            keep(&run.results[i].details, "details")
            keep(&run.results[i].output, "output")
        }
    }

    /// What a student's script may reach: its own file and the files the
    /// key names as data, nothing else (not a classmate's file, not the
    /// key, not the answers), as the flags widen or narrow it. The key stays
    /// unreadable unless `--allow-read` names it itself (or `--allow-all`):
    /// widening to the class's folder does not hand out the answers.
    static func permissions(for path: String, key: AnswerKey?, keyPath: String?, flags: PermissionOptions) -> Permissions {
        let granted = ["the student's own file"] + (key?.dataFiles.isEmpty == false ? ["the exercise's data"] : [])
        var defaults = Permissions(read: .only([Permissions.resolve(path)] + (key?.dataFiles ?? [])), write: .none, net: .none,
                                   standardInput: false, command: "flow grade", readScopeName: Permissions.listed(granted))
        defaults.deniedRead = .none
        defaults.suggestsFolders = false
        var permissions = flags.applied(to: defaults)
        // Widened by --allow-read, the scope is named as the teacher wrote it.
        let widened = flags.allowRead.filter { $0 != PermissionOptions.aloneMarker }.flatMap { $0.split(separator: ",").map(String.init) }
        if !flags.allowAll, case .only = permissions.read, !widened.isEmpty {
            permissions.readScopeName = Permissions.listed(granted + widened)
        }
        if let keyPath, !flags.allowAll {
            let resolved = Permissions.resolve(keyPath)
            let named = flags.allowRead.flatMap { $0.split(separator: ",").map { Permissions.resolve(String($0)) } }.contains(resolved)
            if !named { permissions.withheldRead.append(Permissions.Withheld(path: resolved, what: "the key", named: keyPath)) }
        }
        return permissions
    }
}

/// Runs `grade-file` children, `jobs` at a time, and turns each into a row.
struct ClassGrader {
    struct Limits {
        var seconds: Double
        var memory: Int
    }

    let limits: Limits
    let jobs: Int
    let childArguments: [String]
    /// The key's tests and points, for the row of a file that was stopped;
    /// without a key, the file's own, from the text the grader read.
    let keyTests: [(name: String, points: Int)]?

    struct Row {
        var run: TestRunner.FileRun
        /// Why the file was stopped before it finished, if it was.
        var stopped: String?
        var passed: Int { run.results.filter { $0.status == .passed }.count }
        var earned: Int { run.results.map(\.points).reduce(0, +) }
        var possible: Int { run.results.map(\.possible).reduce(0, +) }
    }

    private struct Running {
        var index: Int
        var child: ChildProcess
        var sourcePath: String
        var resultPath: String
        var errorPath: String
    }

    /// The most of a child's standard error the grader keeps (the rest is
    /// counted): enough for the first line of why it failed.
    static let keptErrorBytes = 64 << 10

    /// The most of a child's result the grader reads: a report bigger than
    /// this (a student printing without end) stops the row, so the grader
    /// holds at most this much per running child, well within its limit.
    var largestResult: Int { max(4 << 20, min(64 << 20, limits.memory / 8)) }

    /// The rows, in order, up to the first file not graded when `stop` said so.
    func grade(_ files: [GradedFiles.Found], stop: () -> Bool) -> [Row] {
        var rows = [Row?](repeating: nil, count: files.count)
        var next = 0
        var running: [Running] = []
        let scratch = Self.scratchFolder()
        defer { rmdir(scratch) }
        func removeFiles(of job: Running) {
            for path in [job.sourcePath, job.resultPath, job.errorPath] { unlink(path) }
        }
        while next < files.count || !running.isEmpty {
            if stop() {
                for job in running {
                    _ = job.child.kill()
                    removeFiles(of: job)
                }
                return Array(rows.prefix { $0 != nil }.compactMap { $0 })
            }
            while running.count < jobs, next < files.count {
                let found = files[next]
                let sourcePath = "\(scratch)/\(next).flow", resultPath = "\(scratch)/\(next).json", errorPath = "\(scratch)/\(next).err"
                switch found.content {
                case .failure(let refusal):
                    rows[next] = stoppedRow(found, refusal.description)
                case .success(let text):
                    do {
                        // The child reads the grader's copy: the student's
                        // file is opened once, by the grader.
                        try Loader.write(text, to: sourcePath)
                        let child = try ChildProcess(arguments: ["grade-file"] + childArguments
                                                         + ["--source", sourcePath, "--own-file", found.path, "--folder", found.folder.resolved,
                                                            "--folder-shown", found.folder.shown, "--result", resultPath, "--", found.shown],
                                                     standardOutput: "/dev/null", standardError: errorPath)
                        running.append(Running(index: next, child: child, sourcePath: sourcePath, resultPath: resultPath, errorPath: errorPath))
                    } catch {
                        unlink(sourcePath)
                        rows[next] = stoppedRow(found, "stopped: could not be graded: \(error)")
                    }
                }
                next += 1
            }
            var still: [Running] = []
            for job in running {
                let found = files[job.index]
                if let ending = job.child.ended() {
                    rows[job.index] = finishedRow(found, ending, job)
                } else if job.child.elapsedSeconds > limits.seconds {
                    _ = job.child.kill()
                    rows[job.index] = stoppedRow(found, "stopped: over the \(Self.describe(seconds: limits.seconds)) limit per file")
                } else if job.child.residentBytes > limits.memory {
                    _ = job.child.kill()
                    rows[job.index] = stoppedRow(found, "stopped: over the \(MemoryBudget.describe(limits.memory)) memory limit")
                } else {
                    still.append(job)
                    continue
                }
                removeFiles(of: job)
            }
            running = still
            if !running.isEmpty { usleep(5_000) }
        }
        return rows.compactMap { $0 }
    }

    private func finishedRow(_ found: GradedFiles.Found, _ ending: ChildProcess.Ending, _ job: Running) -> Row {
        if case .exited(0) = ending {
            switch Self.read(job.resultPath, keeping: largestResult) {
            case let (text, 0)?:
                if let run = TestRunner.FileRun(json: text) { return Row(run: run) }
            case let (_, more)?:
                return stoppedRow(found, "stopped: its report is over \(MemoryBudget.describe(largestResult)) (\(largestResult + more) bytes)")
            case nil:
                break
            }
        }
        let problems = Self.read(job.errorPath, keeping: Self.keptErrorBytes)?.text ?? ""
        let time = "stopped: over the \(Self.describe(seconds: limits.seconds)) limit per file"
        switch ending {
        // SIGXCPU is the CPU limit's signal; SIGKILL near the time limit, its hard limit.
        case .signalled(SIGXCPU):
            return stoppedRow(found, time)
        case .signalled(SIGKILL) where job.child.elapsedSeconds >= limits.seconds * 0.9:
            return stoppedRow(found, time)
        case _ where problems.contains("failed to allocate") || problems.contains("out of memory")
            || job.child.peakResidentBytes >= limits.memory * 9 / 10:
            return stoppedRow(found, "stopped: over the \(MemoryBudget.describe(limits.memory)) memory limit")
        case .signalled(let signal):
            return stoppedRow(found, "stopped: flow crashed on this file (signal \(signal)); please report it")
        case .exited(let status):
            let first = problems.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return stoppedRow(found, "stopped: could not be graded: \(first)")
        }
    }

    /// A row that earned nothing, with the tests it would have had: the
    /// key's, or those the file's text declares.
    private func stoppedRow(_ found: GradedFiles.Found, _ reason: String) -> Row {
        let file = found.shown
        let own: [(name: String, points: Int)] = {
            guard case .success(let text) = found.content else { return [] }
            return SourceFile(path: file, text: text).declaredTests.map { ($0.name, $0.points) }
        }()
        let tests = keyTests ?? own
        let results = (tests.isEmpty ? [(file, 1)] : tests).map {
            TestReport.Result(file: file, name: $0.name, status: .stopped, details: "", points: 0, possible: $0.points)
        }
        return Row(run: TestRunner.FileRun(file: file, results: results, compiled: true), stopped: reason)
    }

    static func describe(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    private static func scratchFolder() -> String {
        var template = Array("/tmp/flow-grade-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return "/tmp" }
        return String(cString: made)
    }

    /// At most `keeping` bytes of a file the child wrote, and how many more
    /// there were (counted, not kept).
    static func read(_ path: String, keeping limit: Int) -> (text: String, more: Int)? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let n = Glibc.read(descriptor, &buffer, min(buffer.count, limit - bytes.count))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return (String(decoding: bytes, as: UTF8.self), max(0, Int(info.st_size) - bytes.count))
    }
}

/// `flow grade --after-reveal`: what a test earns whose right lane the
/// exercise server showed the student before they had it right, as the
/// record in their answer file says.
enum AfterReveal: String, ExpressibleByArgument, CaseIterable {
    case zero, half, full

    func apply(_ record: ExerciseRecord, to run: inout TestRunner.FileRun) {
        let revealed = record.revealedTests
        guard !revealed.isEmpty else { return }
        for i in run.results.indices where revealed.contains(run.results[i].name) {
            let earned = run.results[i].points
            let kept: Int
            switch self {
            case .zero: kept = 0
            case .half: kept = earned / 2
            case .full: kept = earned
            }
            run.results[i].points = kept
            let gaveUp = record.entries.contains { $0.kind == .giveUp && ExerciseRecord.test(of: $0.question) == run.results[i].name }
            let shown = "the right lane was shown to the student \(gaveUp ? "after a give-up" : "on a check"), before they had it right"
            let why = earned == 0 ? shown + " (--after-reveal \(rawValue))"
                : shown + ": --after-reveal \(rawValue) keeps \(kept) of the \(earned) point\(earned == 1 ? "" : "s") earned"
            run.warnings.append("\(run.results[i].name): " + why)
        }
    }
}
