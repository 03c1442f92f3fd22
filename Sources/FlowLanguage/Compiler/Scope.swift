import FlowRuntime

/// Compile-time view of a frame: which name lives in which slot.
final class Scope {
    enum Kind { case script, test, closure }

    let kind: Kind
    let parent: Scope?
    private(set) var slots: [String: Int] = [:]
    /// Names in the order they were declared, with their slots.
    private(set) var declaredNames: [(name: String, slot: Int)] = []
    private(set) var declarations: [String: Span] = [:]
    private(set) var count = 0
    /// Highest `$n` used directly in this closure, plus one.
    var shorthandCount = 0
    /// A closure expression appears inside: frames may be captured, so they
    /// cannot be reused between calls.
    var createsClosures = false

    init(kind: Kind, parent: Scope?) {
        self.kind = kind
        self.parent = parent
    }

    /// Adds a slot; nil when the name is already declared in this scope.
    func declare(_ name: String, at span: Span) -> Int? {
        if slots[name] != nil { return nil }
        slots[name] = count
        declaredNames.append((name, count))
        declarations[name] = span
        count += 1
        return count - 1
    }

    /// A hidden slot (parameters of `$n` closures).
    func reserve() -> Int {
        count += 1
        return count - 1
    }

    func previousDeclaration(of name: String) -> Span? { declarations[name] }

    /// Where a name lives: how many frames up, and the slot there.
    func lookup(_ name: String) -> (depth: Int, slot: Int)? {
        var scope: Scope? = self
        var depth = 0
        while let s = scope {
            if let slot = s.slots[name] { return (depth, slot) }
            depth += 1
            scope = s.parent
        }
        return nil
    }

    /// Every name visible from here, for suggestions.
    var visibleNames: [String] {
        var names: [String] = []
        var scope: Scope? = self
        while let s = scope {
            names += s.slots.keys
            scope = s.parent
        }
        return names
    }

    var enclosingClosure: Scope? {
        var scope: Scope? = self
        while let s = scope {
            if s.kind == .closure { return s }
            scope = s.parent
        }
        return nil
    }
}
