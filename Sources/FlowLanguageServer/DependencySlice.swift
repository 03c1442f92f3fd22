import FlowLanguage

/// A script cut down to what one of its top-level statements needs: the
/// statements declaring the names it uses, and theirs in turn. A hover's
/// lanes run the slice, so what the rest of the script does (a stream
/// that never ends, a file it reads) neither stops nor slows the run.
///
/// The statements left out become spaces, their line breaks kept: every
/// offset of the slice is the file's, so a test block is found at the
/// same place.
struct DependencySlice {
    /// The script with only the kept statements, at their offsets.
    let file: SourceFile

    /// `root`: the top-level statement whose needs are kept (a binding, or
    /// a test block).
    ///
    /// Kept as well: every type, extension and type alias (an extension
    /// names no declaration of its own a use could lead to, and declares
    /// no stream), and every statement outside a test block that uses a
    /// kept name whose value something may change or push into: a `var`
    /// (`total += 1`), a value made by a type (`subject.send(1)`), a
    /// destructuring (`Signal<Int>.create()`), or a stream made from one
    /// (`let c = doubled.sink { }` subscribes before the sends); each with
    /// what it needs. What is made from marbles and functions
    /// alone nothing can change: a statement that only reads it (drawing
    /// it, repeating it) is left out.
    init(of script: Script, keeping root: Int, resolution: NameResolution) {
        let statements = script.statements
        func owner(of offset: Int) -> Int? {
            statements.firstIndex { $0.span.start <= offset && offset < $0.span.end }
        }
        let owners = resolution.declarations.map { owner(of: $0.span.start) }
        var needs = Array(repeating: Set<Int>(), count: statements.count)
        for use in resolution.uses {
            guard let user = owner(of: use.span.start), let declaring = owners[use.declaration], declaring != user else { continue }
            needs[user].insert(declaring)
        }
        // What is made from a stateful value changes with it; what a `var`
        // gave its value when it was made does not.
        var changeable = Set(statements.indices.filter { statements[$0].declaresStateful })
        var grown = true
        while grown {
            let more = statements.indices.filter { !changeable.contains($0) && !needs[$0].isDisjoint(with: changeable) }
            changeable.formUnion(more)
            grown = !more.isEmpty
        }
        changeable.formUnion(statements.indices.filter { statements[$0].declaresVariable })
        var keeps = Set<Int>()
        var pending = [root] + statements.indices.filter {
            switch statements[$0] {
            case .type, .typeAlias: true
            default: false
            }
        }
        while true {
            while let next = pending.popLast() {
                guard keeps.insert(next).inserted else { continue }
                pending += needs[next]
            }
            let changing = keeps.intersection(changeable)
            pending = statements.indices.filter { index in
                !keeps.contains(index) && !statements[index].isTestBlock && !needs[index].isDisjoint(with: changing)
            }
            if pending.isEmpty { break }
        }
        var bytes = Array(script.file.text.utf8)
        for (index, statement) in statements.enumerated() where !keeps.contains(index) {
            Self.blank(statement.span, in: &bytes)
        }
        file = SourceFile(path: script.file.path, text: String(decoding: bytes, as: UTF8.self))
    }

    /// Spaces in place of a statement, and of a `;` that ended it on its
    /// line (what follows on that line then starts a statement as before).
    private static func blank(_ span: Span, in bytes: inout [UInt8]) {
        let end = min(span.end, bytes.count)
        guard span.start < end else { return }
        for offset in span.start..<end where bytes[offset] != UInt8(ascii: "\n") { bytes[offset] = UInt8(ascii: " ") }
        var after = end
        while after < bytes.count, bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\t") { after += 1 }
        if after < bytes.count, bytes[after] == UInt8(ascii: ";") { bytes[after] = UInt8(ascii: " ") }
    }
}

private extension Statement {
    /// A destructuring, or a binding whose value is made by a type
    /// (`PassthroughSubject<Int, Never>()`, `Counter()`): what holds state
    /// later statements may change.
    var declaresStateful: Bool {
        switch self {
        case .destructuring: return true
        case .binding(_, _, _, let value?, _, _): return Self.isMadeByType(value)
        default: return false
        }
    }

    var declaresVariable: Bool {
        if case .binding(_, _, _, _, true, _) = self { true } else { false }
    }

    var isTestBlock: Bool {
        if case .test = self { true } else { false }
    }

    private static func isMadeByType(_ e: Expr) -> Bool {
        switch e {
        case .name(let name, _): return name.first?.isUppercase ?? false
        case .call(let callee, _, _): return isMadeByType(callee)
        case .member(let base, _, _, _), .optionalChain(let base, _), .forceUnwrap(let base, _), .attempt(let base, _):
            return isMadeByType(base)
        default: return false
        }
    }
}
