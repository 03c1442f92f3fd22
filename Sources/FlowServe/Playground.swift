import Dispatch
import FlowIO
import FlowLanguage
import FlowMarbles
import FlowRuntime
import Foundation

/// What the page shows for one version of a script, computed by the
/// engine (the page only draws it): the diagrams as SVG and text, the
/// results of its tests, what it printed, its errors with their places,
/// and which lanes are input marbles the page may drag.
struct Rendering: Codable, Sendable {
    struct Problem: Codable, Sendable {
        var line: Int
        var column: Int
        var message: String
        var help: String?
        /// As the command line shows it: the line, a caret, the hint.
        var text: String
    }

    struct TestResult: Codable, Sendable {
        var name: String
        var passed: Bool
        /// For a failure: the aligned lanes and what differs.
        var details: String
    }

    /// A lane drawn from a marble string written in the script: dragging
    /// its marks rewrites the string between `start` and `end` (UTF-16
    /// offsets in the script, quotes excluded).
    struct Input: Codable, Sendable {
        var diagram: Int
        var lane: Int
        var start: Int
        var end: Int
    }

    var ok: Bool
    var svg: String
    /// Each diagram's time per column, in frames (1 ms): a mark dragged by
    /// a column moves its event by that much.
    var columnFrames: [Int64]
    /// Each diagram's lane labels, as drawn.
    var laneLabels: [[String]]
    /// Each lane's subscription, in columns: from where it was subscribed
    /// to where it ended or was cancelled (nil: still live at the end), for
    /// the time cursor's "live" line.
    var lifetimes: [[Lifetime]]

    struct Lifetime: Codable, Sendable {
        var start: Int64
        var end: Int64?
    }
    var text: String
    var output: String
    var errors: [Problem]
    var tests: [TestResult]
    var inputs: [Input]
}

/// Runs scripts for the page, one at a time, in virtual time with the
/// limits of `flow run --virtual` (a run that never goes idle stops at its
/// virtual-time and action limits), and without I/O: a page must not
/// read or write the machine's files or the network through a script.
final class Playground: Sendable {
    private let queue = DispatchQueue(label: "flow.serve.playground")

    /// The modules a script on the page may use.
    static let modules: [BuiltinModule] = [IOModules.json]

    func render(_ text: String, name: String) async -> Rendering {
        await withCheckedContinuation { continuation in
            // On a thread with a large stack, as the command line runs
            // scripts: a deep chain fails the same way here as there.
            queue.async { continuation.resume(returning: withLargeStack { Self.renderNow(text, name: name) }) }
        }
    }

    func move(_ text: String, start: Int, end: Int, event: Int, by frames: Int64) async throws -> String {
        let utf16 = Array(text.utf16)
        guard start >= 0, start <= end, end <= utf16.count else { throw MarbleEdit.Refused(description: "the marble is not in the script") }
        let marble = String(decoding: utf16[start..<end], as: UTF16.self)
        let moved = try MarbleEdit.move(marble, event: event, by: frames)
        return String(decoding: utf16[..<start], as: UTF16.self) + moved + String(decoding: utf16[end...], as: UTF16.self)
    }

    static func renderNow(_ text: String, name: String) -> Rendering {
        final class Printed: @unchecked Sendable {
            // Written by the run on this queue, read after it.
            var lines: [String] = []
        }
        let printed = Printed()
        let file = SourceFile(path: name, text: text)
        let console = Console(out: { printed.lines.append($0) }, err: { _ in }, color: false)
        let program: Program
        do {
            program = try Program(file: file, console: console, modules: modules, isolatingTests: true)
        } catch let list as DiagnosticList {
            return Rendering(ok: false, svg: "", columnFrames: [], laneLabels: [], lifetimes: [], text: "", output: "", errors: list.diagnostics.filter { $0.severity == .error }.map(problem),
                             tests: [], inputs: [])
        } catch {
            return Rendering(ok: false, svg: "", columnFrames: [], laneLabels: [], lifetimes: [], text: "", output: "", errors: [Rendering.Problem(line: 1, column: 1, message: "\(error)", text: "\(error)")],
                             tests: [], inputs: [])
        }
        program.drawsLanes = false
        program.reportsErrors = false
        program.tracesEverything = true
        let outcome = program.run(virtual: true)
        var errors = outcome.errors.map { problem($0, file: file) }
        errors += outcome.failures.filter { $0.isRunFailure }.map { failure in
            problem(FlowError(failure.message, at: failure.location), file: file)
        }
        var tests: [Rendering.TestResult] = []
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
        }
        let diagrams = outcome.laneDiagrams
        let svg = diagrams.isEmpty ? "" : SVGDiagram(diagrams, title: name).text
        return Rendering(ok: true, svg: svg, columnFrames: outcome.diagrams.map { $0.frame.nanoseconds / MarbleParser.frame.nanoseconds },
                         laneLabels: diagrams.map { $0.lanes.map { LaneDiagram.displayLabel($0.label).trimmingCharacters(in: .whitespaces) } },
                         lifetimes: zip(diagrams, outcome.diagrams).map { diagram, drawn in diagram.lanes.map { lifetime($0, frame: drawn.frame) } },
                         text: outcome.diagrams.map(\.text).joined(separator: "\n\n"),
                         output: printed.lines.joined(separator: "\n"), errors: errors, tests: tests,
                         inputs: inputs(of: diagrams, in: file))
    }

    static func lifetime(_ lane: LaneDiagram.Lane, frame: TimeSpan) -> Rendering.Lifetime {
        let end = lane.cancelled ?? lane.events.last.flatMap { $0.event.isTerminal ? $0.time : nil }
        return .init(start: (lane.start ?? .zero).nanoseconds / frame.nanoseconds, end: end.map { $0.nanoseconds / frame.nanoseconds })
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
    static func inputs(of diagrams: [LaneDiagram], in file: SourceFile) -> [Rendering.Input] {
        var found: [Rendering.Input] = []
        for (d, diagram) in diagrams.enumerated() {
            for (l, lane) in diagram.lanes.enumerated() {
                guard let node = lane.node, node is ColdStream || node is HotStream,
                      let location = node.location, location.file == file.path,
                      let literal = stringLiteral(at: file.offset(line: location.line, column: location.column), in: file.text)
                else { continue }
                found.append(.init(diagram: d, lane: l, start: literal.start, end: literal.end))
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
