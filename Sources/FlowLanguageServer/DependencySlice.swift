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
    /// The indices of the top-level statements kept, in order.
    let kept: [Int]
    let file: SourceFile

    /// `root`: the top-level statement whose needs are kept (a binding, or
    /// a test block).
    ///
    /// Kept as well: every type, extension and type alias (an extension
    /// names no declaration of its own a use could lead to, and declares
    /// no stream), and a statement that uses a kept `var` (it may assign
    /// it: `total += 1`), each with what it needs.
    init(of script: Script, keeping root: Int, resolution: NameResolution) {
        let statements = script.statements
        func owner(of offset: Int) -> Int? {
            statements.firstIndex { $0.span.start <= offset && offset < $0.span.end }
        }
        let owners = resolution.declarations.map { owner(of: $0.span.start) }
        var needs = Array(repeating: Set<Int>(), count: statements.count)
        var usedVariables = Array(repeating: Set<Int>(), count: statements.count)
        for use in resolution.uses {
            guard let user = owner(of: use.span.start), let declaring = owners[use.declaration], declaring != user else { continue }
            needs[user].insert(declaring)
            if case .binding(_, _, _, _, true, _) = statements[declaring] { usedVariables[user].insert(declaring) }
        }
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
            let assigning = statements.indices.filter { index in
                guard !keeps.contains(index), !statements[index].isDeclaration else { return false }
                return !usedVariables[index].isDisjoint(with: keeps)
            }
            if assigning.isEmpty { break }
            pending = assigning
        }
        kept = keeps.sorted()
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
    /// A statement that declares something and does nothing else by
    /// itself being kept: the var rule does not pull it in.
    var isDeclaration: Bool {
        switch self {
        case .binding, .destructuring, .function, .type, .typeAlias, .test: true
        default: false
        }
    }
}
