import ArgumentParser
import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime
import Synchronization
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

    @Flag(help: "After each row, why each failed test failed.")
    var details = false

    @Flag(help: "With the details, show where an expected lane is wrong but not the lane the stream produced, nor its timing.")
    var hideActual = false

    @Option(help: "text (the default, with a class summary), json, or csv (one row per file, one column per test).")
    var format: GradeFormat = .text

    enum GradeFormat: String, ExpressibleByArgument, CaseIterable { case text, json, csv }

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The longest a file may take, wall clock and CPU (30s, 2m).", valueName: "duration"))
    var timeout = "30s"

    @Option(name: .customLong("max-memory"), help: ArgumentHelp("The most memory a file may use (512MB, 1GB).", valueName: "size"))
    var maxMemory = "1GB"

    @Option(help: ArgumentHelp("How many files are graded at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @OptionGroup(title: "Permissions (default: read the graded folder, nothing else; standard input is always empty)")
    var permissions: PermissionOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the folder or the scripts to grade") }
        guard let seconds = Loader.duration(timeout)?.seconds, seconds >= 0.1 else {
            throw ValidationError("--timeout takes a duration of at least 100ms, such as 30s or 2m, not '\(timeout)'")
        }
        guard MemoryOption.bytes(maxMemory) != nil else {
            throw ValidationError("--max-memory takes a size of at least 16MB, such as 512MB or 1GB, not '\(maxMemory)'")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes a number from 1 to 256, not \(jobs)") }
    }


    /// The folders a student's script may read by default: each folder
    /// graded, or the folder of each file graded.
    var gradedFolders: [String] {
        paths.map { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? path : Permissions.folder(of: path)
        }
    }

    func run() throws {
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
        let keyPath = key.map(Permissions.resolve)
        let files = try ScriptFinder.scripts(in: paths).filter { Permissions.resolve($0) != keyPath }
        let limits = ClassGrader.Limits(seconds: Loader.duration(timeout)!.seconds, memory: MemoryOption.bytes(maxMemory)!)
        var childArguments = ["--memory-limit", "\(limits.memory)", "--cpu-limit", "\(Int(limits.seconds.rounded(.up)) + 1)"]
        for folder in gradedFolders { childArguments += ["--graded-folder", folder] }
        if let key { childArguments += ["--key", key] }
        if hideActual { childArguments.append("--hide-actual") }
        childArguments += permissions.arguments
        let grader = ClassGrader(limits: limits, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), childArguments: childArguments,
                                 declaredTests: { path in answerKey?.tests ?? (try? SourceFile.load(path: path))?.declaredTests.map { ($0.name, $0.points) } ?? [] })
        let graded = grader.grade(files)
        let report = ClassReport(rows: graded.rows, testNames: answerKey?.tests.map(\.name), details: details)
        switch format {
        case .text: report.writeText(to: destination)
        case .json: report.writeJSON(to: destination)
        case .csv: report.writeCSV(to: destination)
        }
        if graded.interrupted {
            let left = files.count - graded.rows.count
            destination.write("stopped by Ctrl-C: \(left) file\(left == 1 ? "" : "s") not graded")
        }
        try destination.close()
        if graded.interrupted { throw ExitCode(130) }
    }
}

/// `flow grade-file`: grades one file in this process, for `flow grade`,
/// which starts it, and writes the results as JSON to `--result`. It limits
/// its own memory and CPU time first, so a runaway ends here.
struct GradeFile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grade-file", abstract: "Grade one file for flow grade (started by it).", shouldDisplay: false)

    @Argument var path: String
    @Option var result: String
    @Option var key: String?
    @Option(name: .customLong("graded-folder")) var gradedFolders: [String] = []
    @Flag var hideActual = false
    @Option(name: .customLong("memory-limit")) var memoryLimit: Int
    @Option(name: .customLong("cpu-limit")) var cpuLimit: Int
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
        let access = Access(permissions.applied(to: .graded(folders: gradedFolders)))
        let run = TestRunner.run(path, color: false, hidingActual: hideActual, access: access, capture: CapturedOutput(), key: answerKey)
        try Loader.write(try JSON.string(run.json), to: result)
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
    /// A file's tests and points, for the row of a file that was stopped.
    let declaredTests: (String) -> [(name: String, points: Int)]

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
        var resultPath: String
        var errorPath: String
    }

    func grade(_ files: [String]) -> (rows: [Row], interrupted: Bool) {
        let interrupted = Atomic(false)
        let watch = LiveWorld().watchInterrupts { _ in interrupted.store(true, ordering: .relaxed) }
        defer { watch?.cancel() }
        var rows = [Row?](repeating: nil, count: files.count)
        var next = 0
        var running: [Running] = []
        let scratch = Self.scratchFolder()
        defer { rmdir(scratch) }
        while next < files.count || !running.isEmpty {
            if interrupted.load(ordering: .relaxed) {
                for job in running {
                    _ = job.child.kill()
                    unlink(job.resultPath)
                    unlink(job.errorPath)
                }
                // The rows graded so far, in order, up to the first missing one.
                return (Array(rows.prefix { $0 != nil }.compactMap { $0 }), true)
            }
            while running.count < jobs, next < files.count {
                let resultPath = "\(scratch)/\(next).json", errorPath = "\(scratch)/\(next).err"
                do {
                    let child = try ChildProcess(arguments: ["grade-file"] + childArguments + ["--result", resultPath, "--", files[next]],
                                                 standardOutput: "/dev/null", standardError: errorPath)
                    running.append(Running(index: next, child: child, resultPath: resultPath, errorPath: errorPath))
                } catch {
                    rows[next] = stoppedRow(files[next], "could not be graded: \(error)")
                }
                next += 1
            }
            var still: [Running] = []
            for job in running {
                let file = files[job.index]
                if let ending = job.child.ended() {
                    rows[job.index] = finishedRow(file, ending, job)
                } else if job.child.elapsedSeconds > limits.seconds {
                    _ = job.child.kill()
                    rows[job.index] = stoppedRow(file, "over the \(Self.describe(seconds: limits.seconds)) limit per file")
                } else if job.child.residentBytes > limits.memory {
                    _ = job.child.kill()
                    rows[job.index] = stoppedRow(file, "over the \(MemoryBudget.describe(limits.memory)) memory limit")
                } else {
                    still.append(job)
                    continue
                }
                unlink(job.resultPath)
                unlink(job.errorPath)
            }
            running = still
            if !running.isEmpty { usleep(5_000) }
        }
        return (rows.compactMap { $0 }, false)
    }

    private func finishedRow(_ file: String, _ ending: ChildProcess.Ending, _ job: Running) -> Row {
        if case .exited(0) = ending, let text = Self.read(job.resultPath), let run = TestRunner.FileRun(json: text) {
            return Row(run: run)
        }
        let problems = Self.read(job.errorPath) ?? ""
        switch ending {
        // SIGXCPU is the CPU limit's signal; SIGKILL near the time limit, its hard limit.
        case .signalled(SIGXCPU):
            return stoppedRow(file, "over the \(Self.describe(seconds: limits.seconds)) limit per file")
        case .signalled(SIGKILL) where job.child.elapsedSeconds >= limits.seconds * 0.9:
            return stoppedRow(file, "over the \(Self.describe(seconds: limits.seconds)) limit per file")
        case _ where problems.contains("failed to allocate") || problems.contains("out of memory")
            || job.child.peakResidentBytes >= limits.memory * 9 / 10:
            return stoppedRow(file, "over the \(MemoryBudget.describe(limits.memory)) memory limit")
        case .signalled(let signal):
            return stoppedRow(file, "flow crashed on this file (signal \(signal)); please report it")
        case .exited(let status):
            let first = problems.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return stoppedRow(file, "could not be graded: \(first)")
        }
    }

    private func stoppedRow(_ file: String, _ reason: String) -> Row {
        let tests = declaredTests(file)
        let results = (tests.isEmpty ? [(file, 1)] : tests).map {
            TestReport.Result(file: file, name: $0.name, status: .stopped, details: "", points: 0, possible: $0.points)
        }
        return Row(run: TestRunner.FileRun(file: file, results: results, compiled: true), stopped: "stopped: " + reason)
    }

    static func describe(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    private static func scratchFolder() -> String {
        var template = Array("/tmp/flow-grade-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return "/tmp" }
        return String(cString: made)
    }

    private static func read(_ path: String) -> String? {
        guard let handle = fopen(path, "r") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
