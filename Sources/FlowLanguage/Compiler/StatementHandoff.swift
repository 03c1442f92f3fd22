import FlowRuntime
import NIOConcurrencyHelpers

/// A script's top-level statements, parsed on one thread and compiled on
/// another as they come: the two halves of the front end run side by side.
///
/// The parser hands each statement over and never touches it again, so a
/// statement (and the syntax tree under it) belongs to one thread at a
/// time; the lock orders the hand-over.
final class StatementHandoff: @unchecked Sendable {
    enum Item {
        case statement(Statement)
        /// A `let` whose value did not parse: still declared, so its uses
        /// are not reported as unknown names as well.
        case brokenBinding(name: String, span: Span)
        /// An `import`, which may choose the dialect.
        case imported(module: String, span: Span)
    }

    private let lock = ConditionLock(value: false)
    /// Guarded by `lock`; its value says whether there is something to take.
    private var waiting: [Item] = []
    private var finished = false
    /// Statements compiled, handed back to be freed on the parser's thread,
    /// which has time to spare and allocated them: `flow check` keeps none.
    private var compiled: [Item] = []
    /// The consumer's side: taken from `waiting` in one go.
    private var taken: [Item] = []
    private var next = 0

    /// Set by the parser before it finishes; read once both threads are done.
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var testPoints: [Int: Int] = [:]

    /// Hands over statements a few at a time: a lock per statement would
    /// cost more than parsing it.
    private static let batch = 64

    /// The parser's side: parses `file` to its end.
    func parse(_ file: SourceFile) {
        var parser = Parser(file: file)
        var pending: [Item] = []
        var brokenSeen = 0, importsSeen = 0
        func handOverWhatWasNoted() {
            for (name, span) in parser.brokenBindings.dropFirst(brokenSeen) { pending.append(.brokenBinding(name: name, span: span)) }
            brokenSeen = parser.brokenBindings.count
            for (module, span) in parser.imports.dropFirst(importsSeen) { pending.append(.imported(module: module, span: span)) }
            importsSeen = parser.imports.count
        }
        while let statement = parser.nextTopLevelStatement() {
            handOverWhatWasNoted()
            pending.append(.statement(statement))
            if pending.count >= Self.batch {
                put(pending, last: false)
                pending.removeAll(keepingCapacity: true)
            }
        }
        handOverWhatWasNoted()
        diagnostics = parser.diagnostics
        testPoints = parser.testPoints
        put(pending, last: true)
    }

    private func put(_ items: [Item], last: Bool) {
        lock.lock()
        waiting.append(contentsOf: items)
        if last { finished = true }
        var done: [Item] = []
        swap(&done, &compiled)
        lock.unlock(withValue: true)
        // `done` goes here, on this thread.
    }

    /// The compiler's side: the next item in the order parsed, waiting for
    /// the parser if it is behind; nil once the file is read.
    func take() -> Item? {
        if next == taken.count {
            next = 0
            lock.lock(whenValue: true)
            if !finished { compiled.append(contentsOf: taken) }
            taken = waiting
            waiting = []
            let more = finished
            lock.unlock(withValue: more)
            if taken.isEmpty { return nil }
        }
        defer { next += 1 }
        return taken[next]
    }
}
