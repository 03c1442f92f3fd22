import FlowRuntime

/// A problem found in a script, before or while it runs: where it is, what
/// is wrong, and, where one can be guessed, how to fix it.
public struct Diagnostic: Error, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: SourceFile is immutable; the runtime value inside a
    // stream error is only ever read on the thread that made it.
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var message: String
    public var file: SourceFile
    public var span: Span
    public var help: String?
    /// On the diagnostic that stands for those not kept (`appendCapped`):
    /// how many it stands for.
    public var omitted = 0
    /// The kind, where the code that finds the problem names it; most
    /// leave it to be read from the message's words.
    private var namedCode: Code?

    public init(_ message: String, in file: SourceFile, at span: Span, help: String? = nil, severity: Severity = .error, code: Code? = nil) {
        self.message = message
        self.file = file
        self.span = span
        self.help = help
        self.severity = severity
        namedCode = code
    }

    /// What kind of problem this is (`unknown-name`, `argument-label`, ...):
    /// nil only for a message no kind is known for, which the language's
    /// own messages never are (DiagnosticCodeTests).
    public var code: Code? { namedCode ?? Code(classifying: message) }

    public var location: SourceLocation { file.location(of: span.start) }

    /// Syntax and resolution problems together, in the order they appear,
    /// one per place (a bad token is not reported twice), capped as one:
    /// the lexer, the parser and the compiler each kept their first
    /// `cap` and counted the rest from a point on; together, what is shown
    /// is the first `cap` before the earliest such point, and one line
    /// there counts everything after it, so "after this point" holds.
    static func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Int>()
        let all = diagnostics.sorted { $0.span.start < $1.span.start }
        let markers = all.filter { $0.omitted > 0 }
        let found = all.filter { $0.omitted == 0 && seen.insert($0.span.start).inserted }
        let cut = markers.map(\.span.start).min() ?? Int.max
        let shown = Array(found.lazy.filter { $0.span.start < cut }.prefix(cap))
        let more = found.count - shown.count + markers.reduce(0) { $0 + $1.omitted }
        guard more > 0, let file = (markers.first ?? found.first)?.file else { return shown }
        let firstNotShown = found.dropFirst(shown.count).first?.span
        let point = [firstNotShown, markers.min { $0.span.start < $1.span.start }?.span].compactMap { $0 }.min { $0.start < $1.start }!
        var counted = Diagnostic("and \(more) more error\(more == 1 ? "" : "s") after this point, not shown: fix these first", in: file, at: point)
        counted.omitted = more
        return shown + [counted]
    }

    public var description: String { render(color: false) }

    /// `file:line:col: error: message`, the source line, a caret under the
    /// culprit, and the suggested fix. `showingCode`: the message ends with
    /// the diagnostic's kind, `[unknown-name]` (as gcc ends a warning with
    /// its flag and swiftc a diagnostic with its group), where the line
    /// still reads as `file:line:col: error: message` to the tools that
    /// read compilers' output (an editor's problem matcher, Vim's
    /// errorformat); the command line's reports of a script's problems
    /// show it, so `flow check`'s `[unknown-name]` can be looked up in
    /// docs/diagnostics.md.
    public func render(color: Bool, showingCode: Bool = false) -> String {
        let (line, column) = file.lineAndColumn(of: span.start)
        let paint = Paint(enabled: color)
        let kind = showingCode ? code.map { paint.dim(" [\($0.rawValue)]") } ?? "" : ""
        var out = paint.bold("\(file.path):\(line):\(column): ") + (severity == .error ? paint.red : paint.yellow)("\(severity.rawValue):")
            + paint.bold(" \(message)") + kind
        out += "\n" + Self.excerpt(file: file, span: span, paint: paint)
        if let help { out += "\n" + paint.cyan("   = help: ") + help }
        return out
    }

    /// The line of `span` with a caret underline; very long lines are cut
    /// around the culprit.
    static func excerpt(file: SourceFile, span: Span, paint: Paint) -> String {
        let (line, column) = file.lineAndColumn(of: span.start)
        var text = Array(file.lineText(line).map { $0 == "\t" ? " " : $0 })
        let endOnLine = file.lineAndColumn(of: span.end)
        var width = endOnLine.line == line ? Swift.max(1, endOnLine.column - column) : Swift.max(1, text.count - column + 1)
        var caretColumn = column - 1
        let maxShown = 120
        if text.count > maxShown {
            let from = Swift.max(0, Swift.min(caretColumn - 40, text.count - maxShown))
            text = Array(text[from..<Swift.min(text.count, from + maxShown)])
            caretColumn -= from
            if from > 0 { text = Array("…") + text; caretColumn += 1 }
            width = Swift.min(width, maxShown - caretColumn)
        }
        text = text.map { $0.isPrintableForExcerpt ? $0 : "?" }
        let number = String(line)
        let gutter = String(repeating: " ", count: number.count)
        return """
            \(paint.blue(" \(number) |")) \(String(text))
            \(paint.blue(" \(gutter) |")) \(String(repeating: " ", count: Swift.max(0, caretColumn)))\(paint.red("^" + String(repeating: "~", count: Swift.max(0, width - 1))))
            """
    }
}

extension Character {
    var isPrintableForExcerpt: Bool {
        guard let scalar = unicodeScalars.first else { return false }
        return !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
            || scalar.properties.generalCategory == .unassigned || scalar == "\u{FFFD}")
    }
}

/// ANSI colours, or none.
/// ANSI colours, or plain text when disabled.
public struct Paint: Sendable {
    public let enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
    private func wrap(_ s: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    public func bold(_ s: String) -> String { wrap(s, "1") }
    public func red(_ s: String) -> String { wrap(s, "1;31") }
    public func yellow(_ s: String) -> String { wrap(s, "1;33") }
    public func blue(_ s: String) -> String { wrap(s, "1;34") }
    public func cyan(_ s: String) -> String { wrap(s, "1;36") }
    public func dim(_ s: String) -> String { wrap(s, "2") }
}

/// Several diagnostics at once: the resolver reports all it finds.
public struct DiagnosticList: Error, @unchecked Sendable {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

/// "did you mean ...?" by edit distance.
public enum Suggestions {
    /// The candidate the user most plausibly meant, or nil: a wrong guess
    /// is worse than none. The edits allowed grow with the name's length,
    /// as Swift's and rustc's typo correction bound them (about a third of
    /// it): one edit (a typo, two letters swapped) up to four letters, two
    /// up to eight, three beyond. The first letter must match, which people
    /// rarely get wrong, unless it is swapped with the second (`mpa` is
    /// `map`) or, past four letters, is the one edit: in a short name one
    /// edit is a third of it, and `pow` is no misspelt `now`, nor `sin` of
    /// `min`, nor `fetch` of `catch`. A name of one or two letters is too
    /// short to tell a typo from another name: only its case may differ.
    public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let limit = name.count <= 4 ? 1 : name.count <= 8 ? 2 : 3
        let typed = Array(name.lowercased())
        // Ties go to the candidate closest in case too (`combinelatest` is
        // `combineLatest`, not Combine's `CombineLatest`).
        var best: (name: String, distance: Int, exact: Int)?
        for candidate in candidates where candidate != name {
            let lowered = candidate.lowercased()
            let d = distance(name.lowercased(), lowered)
            guard d <= limit, d == 0 || typed.count > 2 else { continue }
            let other = Array(lowered)
            let sameStart = other.first == typed.first
            let swappedStart = typed.count >= 2 && other.count >= 2 && typed[0] == other[1] && typed[1] == other[0]
            guard sameStart || swappedStart && d == 1 || d <= 1 && typed.count > 4 else { continue }
            let exact = distance(name, candidate)
            if let current = best, (d, exact, candidate) >= (current.distance, current.exact, current.name) { continue }
            best = (candidate, d, exact)
        }
        return best?.name
    }

    public static func didYouMean(_ name: String, among candidates: some Sequence<String>) -> String? {
        closest(to: name, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

extension Diagnostic {
    /// The most diagnostics one phase (lexing, parsing, compiling) keeps:
    /// a script of one mistake repeated a million times is reported in a
    /// screenful, in bounded memory, not in gigabytes.
    public static let cap = 100
}

extension Array where Element == Diagnostic {
    /// Appends, up to `Diagnostic.cap`; past it, one more diagnostic, where
    /// the first was dropped, counts the rest: "and N more errors".
    mutating func appendCapped(_ diagnostic: Diagnostic) {
        guard count >= Diagnostic.cap else { return append(diagnostic) }
        if count == Diagnostic.cap { append(Diagnostic("", in: diagnostic.file, at: diagnostic.span)) }
        self[Diagnostic.cap].omitted += 1
        let n = self[Diagnostic.cap].omitted
        self[Diagnostic.cap].message = "and \(n) more error\(n == 1 ? "" : "s") after this point, not shown: fix these first"
    }
}
