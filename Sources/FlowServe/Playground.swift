import Dispatch
import FlowIO
import FlowLanguage
import FlowLive
import FlowMarbles
import FlowRuntime
import Foundation
import NIOConcurrencyHelpers

/// Runs scripts for the page. Every edit is run at once in virtual time,
/// one at a time, with the limits of `flow run --virtual` (a run that never
/// goes idle stops at its virtual-time and action limits). A script that
/// reads or writes outside (files, requests) is only compiled then: it
/// runs when the learner runs it on the live clock, each live run on its
/// own thread, followed by snapshots and stopped from the page.
final class Playground: Sendable {
    private let queue = DispatchQueue(label: "flow.serve.playground")
    /// The modules a script on the page may use: files and requests, as
    /// far as `access` grants them, only when the page is served on
    /// loopback (the learner's own machine); standard input never (the
    /// server's is not the page's).
    let modules: [BuiltinModule]

    /// `access` nil: no files, no requests.
    init(access: Access?) {
        modules = access.map { [IOModules.file($0), IOModules.json, IOModules.http($0)] } ?? [IOModules.json]
    }

    /// Modules whose use makes a run reach outside the process.
    static let outsideModules = IOModules.outsideNames

    /// A live run's picture grows at this time per column, rather than
    /// shrinking as time goes on: the page shows the latest seconds, and
    /// keeps this scale for the first 200 s (2 000 columns).
    static let liveFrame = TimeSpan.milliseconds(Int64(100))

    /// How often a live run's page is sent what it drew so far.
    static let liveSnapshotInterval = Duration.milliseconds(250)
    /// The most lines of a live run's output the page is sent (the latest).
    static let liveOutputLines = 500

    /// `dialect` nil: the script's imports choose (the page's selector says
    /// "as imported").
    /// `deck`: presentation mode's room for a slide, to lay the deck out for.
    func render(_ text: String, name: String, dialect: Dialect? = nil, deck: SlideDeck.Size? = nil) async -> Rendering {
        let modules = self.modules
        return await onQueue { Self.runNow(text, name: name, modules: modules, dialect: dialect, deck: deck) }
    }

    /// Runs `work` on the playground's queue, one at a time, on a thread
    /// with a large stack, as the command line runs scripts: a deep chain
    /// fails the same way here as there.
    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: withLargeStack(work)) }
        }
    }

    /// A finished run's picture with its deck laid out again for another
    /// room, on the queue edits are drawn on.
    func relaid(_ finished: Rendering, for size: SlideDeck.Size) async -> Rendering {
        guard let source = finished.deckSource else { return finished }
        let slides = await onQueue { source.slides(for: size) }
        var relaid = finished
        relaid.slides = slides
        return relaid
    }

    /// A script's exercises, with the learner's answers drawn (and checked
    /// with `check`); run as an edit is, one at a time.
    func exercises(_ text: String, name: String, dialect: Dialect?, answers: [String: ExerciseSheet.Answer], check: Bool,
                   gaveUp: Set<String>, checksReveal: Bool, only: String? = nil) async -> ExerciseSheet {
        let modules = self.modules
        return await onQueue {
            ExerciseSheet.make(SourceFile(path: name, text: text), modules: modules, dialect: dialect, answers: answers, check: check, gaveUp: gaveUp,
                               checksReveal: checksReveal, only: only)
        }
    }

    /// The script with its answered `???` lanes written in.
    func answered(_ text: String, name: String, dialect: Dialect?, answers: [String: ExerciseSheet.Answer]) async throws -> String {
        let modules = self.modules
        return try await onQueue {
            Result { try ExerciseSheet.answered(SourceFile(path: name, text: text), modules: modules, dialect: dialect, answers: answers) }
        }.get()
    }

    func move(_ text: String, start: Int, end: Int, event: Int, by frames: Int64) async throws -> String {
        let utf16 = Array(text.utf16)
        guard start >= 0, start <= end, end <= utf16.count else { throw MarbleEdit.Refused(description: "the marble is not in the script") }
        let marble = String(decoding: utf16[start..<end], as: UTF16.self)
        let moved = try MarbleEdit.move(marble, event: event, by: frames)
        return String(decoding: utf16[..<start], as: UTF16.self) + moved + String(decoding: utf16[end...], as: UTF16.self)
    }

    /// Compiles a script for the page; its errors as the page shows them.
    static func compile(_ file: SourceFile, console: Console, modules: [BuiltinModule], dialect: Dialect? = nil) -> Compiled {
        do {
            return .program(try Program(file: file, console: console, modules: modules, isolatingTests: true, dialect: dialect))
        } catch let list as DiagnosticList {
            return .failed(.failed(list.diagnostics.filter { $0.severity == .error }.map(problem)))
        } catch {
            return .failed(.failed([Rendering.Problem(line: 1, column: 1, message: "\(error)", text: "\(error)")]))
        }
    }

    enum Compiled {
        case program(Program)
        case failed(Rendering)
    }

    /// Compiles and runs a script: in virtual time for an edit (`remote`
    /// nil), or on the live clock, followed and stopped through `remote`.
    static func runNow(_ text: String, name: String, modules: [BuiltinModule], printed: PrintedLines = PrintedLines(keeping: liveOutputLines),
                       remote: LiveRunRemote? = nil, dialect: Dialect? = nil, deck: SlideDeck.Size? = nil) -> Rendering {
        let file = SourceFile(path: name, text: text)
        let program: Program
        switch compile(file, console: printed.console, modules: modules, dialect: dialect) {
        case .program(let compiled): program = compiled
        case .failed(let failed): return failed
        }
        let readsOutside = !program.usedModules.isDisjoint(with: outsideModules)
        // Only a script that runs in virtual time is run as it is typed:
        // one with timers would be drawn to the virtual-time limit on every
        // keystroke, and one that reads or writes outside must not touch
        // files or the network unasked.
        if remote == nil, readsOutside || program.needsLiveClock {
            var rendering = Rendering(drawing: [], name: name, output: "", errors: [], tests: [], inputs: [])
            rendering.live = true
            rendering.notRun = readsOutside
                ? "This script reads or writes files or the network: it runs only when you run it live (its tests run then too)."
                : "This script has timers: it runs on the wall clock. Run it live to watch its lanes grow (its tests run then too)."
            return rendering
        }
        program.drawsLanes = false
        program.reportsErrors = false
        program.tracesEverything = true
        program.remote = remote
        let outcome = program.run(on: remote == nil ? .virtual : .live(LiveWorld()))
        let (tests, testErrors, testDiagrams) = testResults(of: program, file: file)
        // A finished live run is drawn level, as its snapshots were, at a
        // scale chosen from all its events (one true to their times).
        var rendering = Rendering(drawing: outcome.laneDiagrams, name: name,
                                  output: printed.text, errors: errors(of: outcome, file: file) + testErrors, tests: tests,
                                  // Only virtual-time lanes are dragged.
                                  inputs: remote == nil ? draggableLanes(of: outcome.laneDiagrams, in: file) : [], live: remote != nil,
                                  source: text, testDiagrams: testDiagrams, deck: deck)
        rendering.live = remote != nil
        rendering.committed = outcome.commits.summary(ending: remote == nil ? nil : Self.ending(of: outcome))
        return rendering
    }

    /// How a live run ended, as the summary of what its sinks committed
    /// begins (`done; what the sinks committed:`).
    static func ending(of outcome: Program.Outcome) -> String {
        outcome.interrupted != nil ? "stopped" : outcome.passed ? "done" : "failed"
    }

    /// A live run's diagrams at one fixed scale, so that the picture grows
    /// as the run goes on rather than changing its scale.
    static func atLiveScale(_ diagrams: [LaneDiagram]) -> [LaneDiagram] {
        diagrams.map { diagram in
            var fixed = diagram
            fixed.options.frame = liveFrame
            return fixed
        }
    }

    /// A run's errors, and its failures as a whole (a run stopped at its limits).
    static func errors(of outcome: Program.Outcome, file: SourceFile) -> [Rendering.Problem] {
        outcome.errors.map { problem($0, file: file) }
            + outcome.failures.filter { $0.isRunFailure }.map { problem(FlowError($0.message, at: $0.location), file: file) }
    }

    /// Runs the script's test blocks, each in its own virtual time, once
    /// its top level has run; the compile errors of broken ones; the
    /// diagrams each drew (presentation mode's slides).
    static func testResults(of program: Program, file: SourceFile)
        -> (tests: [Rendering.TestResult], errors: [Rendering.Problem], diagrams: [LessonOutline.TestDiagrams]) {
        var tests: [Rendering.TestResult] = []
        var errors: [Rendering.Problem] = []
        var diagrams: [LessonOutline.TestDiagrams] = []
        for (index, testName) in program.testNames.enumerated() {
            let problems = program.problems(ofTest: index)
            guard problems.isEmpty else {
                tests.append(.init(name: testName, passed: false, details: problems.map { $0.render(color: false) }.joined(separator: "\n")))
                errors += problems.map(problem)
                continue
            }
            let result = program.runTest(index)
            let details = result.failures.map { Report.expectationFailure($0, file: file, color: false) }
                + result.errors.map { Report.streamError($0, file: file, color: false) }
            tests.append(.init(name: testName, passed: result.passed, details: details.joined(separator: "\n")))
            diagrams.append(.init(name: testName, diagrams: result.laneDiagrams.filter { $0.location != nil }))
        }
        return (tests, errors, diagrams)
    }

    /// Presentation mode's room for a live run's slides, and whether the
    /// page is presenting now.
    struct LiveDeck: Sendable {
        var room: SlideDeck.Size?
        var presenting = false
    }

    /// Runs a script on the live clock: what it drew so far every quarter
    /// second while it runs, then what it drew in all. Ending the stream
    /// (the page closed its socket) or `remote.stop()` stops the run.
    /// `deck` is presentation mode's room for a slide, which the page may
    /// change while the run goes on: the last picture is laid out as a
    /// deck for it, and each snapshot while the page presents.
    func runLive(_ text: String, name: String, remote: LiveRunRemote, dialect: Dialect? = nil,
                 deck: NIOLockedValueBox<LiveDeck> = NIOLockedValueBox(LiveDeck())) -> AsyncStream<Rendering> {
        let modules = self.modules
        return AsyncStream { continuation in
            let printed = PrintedLines(keeping: Self.liveOutputLines)
            // Where the snapshots' errors are placed: made once per run.
            let file = SourceFile(path: name, text: text)
            // One snapshot at a time: a loop busy with its events (or with
            // drawing a long run) is not handed a queue of them.
            let drawing = NIOLockedValueBox(false)

            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.liveSnapshotInterval)
                    guard drawing.withLockedValue({ busy in defer { busy = true }; return !busy }) else { continue }
                    // Drawn on the run's loop, where its lanes are recorded.
                    let asked = remote.snapshot { diagrams, errors, commits in
                        defer { drawing.withLockedValue { $0 = false } }
                        var rendering = Rendering(drawing: Self.atLiveScale(diagrams), name: name, output: printed.text,
                                                  errors: errors.map { Self.problem($0, file: file) }, tests: [], inputs: [], live: true,
                                                  source: text, deck: deck.withLockedValue { $0.presenting ? $0.room : nil })
                        rendering.live = true
                        rendering.running = true
                        // Read on the run's loop, which a commit's answer
                        // hops onto: as it stands, not waited for.
                        rendering.committed = commits.summary(ending: "so far", waitingUpTo: 0)
                        continuation.yield(rendering)
                    }
                    if !asked { drawing.withLockedValue { $0 = false } }
                }
            }
            continuation.onTermination = { _ in
                ticker.cancel()
                remote.stop()
            }
            // A thread of its own for each live run, for as long as it runs: a
            // Dispatch queue's workers are as many as the cores, so busy runs
            // would keep the next ones (and anything else on them) waiting.
            startBackgroundThread {
                let final = withLargeStack { Self.runNow(text, name: name, modules: modules, printed: printed, remote: remote, dialect: dialect,
                                                                 deck: deck.withLockedValue { $0.room }) }
                ticker.cancel()
                continuation.yield(final)
                continuation.finish()
            }
        }
    }

    static func problem(_ diagnostic: Diagnostic) -> Rendering.Problem {
        let location = diagnostic.location
        return .init(line: location.line, column: location.column, message: diagnostic.message, help: diagnostic.help,
                     text: diagnostic.render(color: false))
    }

    static func problem(_ error: FlowError, file: SourceFile) -> Rendering.Problem {
        let location = error.location.flatMap { $0.file == file.path ? $0 : nil }
        return .init(line: location?.line ?? 1, column: location?.column ?? 1, message: error.message,
                     text: Report.streamError(error, file: file, color: false))
    }

    /// The lanes of `cold` and `hot` streams whose marble is a string
    /// literal in the script.
    static func draggableLanes(of diagrams: [LaneDiagram], in file: SourceFile) -> [Rendering.DraggableLane] {
        var found: [Rendering.DraggableLane] = []
        let utf16 = Array(file.text.utf16)
        for (d, diagram) in diagrams.enumerated() {
            for (l, lane) in diagram.lanes.enumerated() {
                guard let node = lane.node, node is ColdStream || node is HotStream,
                      let location = node.location, location.file == file.path,
                      let literal = stringLiteral(at: file.offset(line: location.line, column: location.column), in: file.text)
                else { continue }
                let marble = String(decoding: utf16[literal.start..<literal.end], as: UTF16.self)
                guard let firstEvent = MarbleEdit.firstEventSeen(in: marble, subscribedAt: lane.start ?? .zero) else { continue }
                found.append(.init(diagram: d, lane: l, start: literal.start, end: literal.end, firstEvent: firstEvent))
            }
        }
        return found
    }

    /// The UTF-16 range inside the quotes of the plain string literal that
    /// starts at UTF-8 `offset`, if one does.
    static func stringLiteral(at offset: Int, in text: String) -> (start: Int, end: Int)? {
        let bytes = Array(text.utf8)
        guard offset >= 0, offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        var end = offset + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            // Escapes and interpolations are not a marble the page can edit.
            if bytes[end] == UInt8(ascii: "\\") || bytes[end] == UInt8(ascii: "\n") { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let utf16Start = String(decoding: bytes[..<(offset + 1)], as: UTF8.self).utf16.count
        let utf16End = utf16Start + String(decoding: bytes[(offset + 1)..<end], as: UTF8.self).utf16.count
        return (utf16Start, utf16End)
    }
}

/// What a run printed, written on its loop and read from other threads
/// (a live run's snapshots): the latest `keeping` lines, each cut at
/// `longestLine` characters, and how many earlier ones were dropped. A
/// script that prints a million lines sends the page a screenful.
final class PrintedLines: Sendable {
    private struct Kept {
        var lines: [String] = []
        var dropped = 0
    }
    private let kept = NIOLockedValueBox(Kept())
    private let keeping: Int
    static let longestLine = 10_000

    init(keeping: Int) { self.keeping = keeping }

    var console: Console {
        Console(out: { [self] line in
            let shown = line.count > Self.longestLine ? String(line.prefix(Self.longestLine)) + " … (cut)" : line
            kept.withLockedValue { kept in
                kept.lines.append(shown)
                // Trimmed in batches: dropping one line per print would be
                // quadratic in the lines printed.
                if kept.lines.count >= 2 * keeping {
                    kept.dropped += kept.lines.count - keeping
                    kept.lines.removeFirst(kept.lines.count - keeping)
                }
            }
        }, err: { _ in }, color: false)
    }

    var text: String {
        kept.withLockedValue { kept in
            let dropped = kept.dropped + Swift.max(0, kept.lines.count - keeping)
            var shown = Array(kept.lines.suffix(keeping))
            if dropped > 0 { shown.insert("… \(dropped) earlier line\(dropped == 1 ? "" : "s") not shown", at: 0) }
            return shown.joined(separator: "\n")
        }
    }
}
