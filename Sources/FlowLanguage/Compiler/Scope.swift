import FlowRuntime

/// Compile-time view of a frame: which name lives in which slot.
///
/// A `block` (the body of an `if`, a `case`, a `guard`'s names) has names
/// of its own but keeps them in its enclosing frame; every other kind is a
/// frame of its own at run time. A loop's body is a frame so that a closure
/// made in one iteration keeps that iteration's names, as in Swift.
final class Scope {
    enum Kind { case script, test, closure, block, loop }

    /// How a name was declared, which decides what may change it.
    enum Binding: Equatable {
        case constant, variable
        /// A closure's parameter: `reduce(into:)`'s accumulator is changed
        /// in place, so parameters may be assigned.
        case parameter
        /// A func parameter: constant unless `inout`.
        case funcParameter(isInout: Bool)
        case function
        /// `self` in a struct's method: changeable in a `mutating` one.
        case selfValue(isMutable: Bool)

        var isMutable: Bool {
            switch self {
            case .variable, .parameter: true
            case .funcParameter(let isInout): isInout
            case .selfValue(let isMutable): isMutable
            case .constant, .function: false
            }
        }
    }

    struct Entry {
        let slot: Int
        let binding: Binding
        let span: Span
        /// For a `func`: its declaration and code, for calls with labels.
        var function: FunctionInfo?
        /// A `let` whose value is surely a stream (`CompiledExpression.isStream`).
        var isKnownStream = false
        /// Its type: written by the script (`let x: Double`, a typed
        /// parameter), or that of the value it was bound to.
        var type: StaticType = .unknown
        /// The script wrote its type.
        var typeIsWritten = false
    }

    let kind: Kind
    let parent: Scope?
    /// The scope whose frame holds this one's slots: itself unless a block.
    private(set) unowned(unsafe) var frameOwner: Scope!
    private(set) var entries: [String: Entry] = [:]
    /// Names in the order they were declared, with their slots.
    private(set) var declaredNames: [(name: String, slot: Int)] = []
    /// Slots in this scope's frame (meaningful on a frame owner).
    private(set) var count = 0
    /// Highest `$n` used directly in this closure, plus one.
    var shorthandCount = 0
    /// The types of `$0`, `$1`, where the closure's call tells them.
    var shorthandTypes: [StaticType] = []
    /// For a hover only: the types `$0`, `$1` are likely given where not
    /// sure (`Compiler.closureParameterHints`).
    var shorthandHints: [StaticType] = []
    /// A func's (or closure's) written result type: what `return` gives.
    var resultType: StaticType?
    /// Where a func's result type is written, for `return .init(...)` of a
    /// library's generic type (`-> CurrentValueSubject<Settings, Never>`).
    var resultTypeText: TypeText?
    /// A closure expression appears inside: frames may be captured, so they
    /// cannot be reused between calls.
    var createsClosures = false
    /// Structs and enums declared here.
    var types: [String: DeclaredType] = [:]
    /// `extension Int { ... }`: what extensions add to the built-in types,
    /// by name; kept apart from `types`, so `Int(x)` is still a conversion.
    var builtinExtensions: [String: DeclaredType] = [:]
    /// `protocol Named { ... }`, by name.
    var protocols: [String: TypeDeclaration] = [:]

    func lookupProtocol(_ name: String) -> TypeDeclaration? { nearest { $0.protocols[name] } }

    /// `typealias Price = Double`: the type each alias names, as written
    /// (an alias declared in a type also as `Store.State`).
    var typeAliases: [String: String] = [:]
    /// A generic alias's parameters (`typealias Pair<T> = (T, T)`).
    var typeAliasParameters: [String: [String]] = [:]

    func lookupAliasParameters(_ name: String) -> [String] { nearest { $0.typeAliasParameters[name] } ?? [] }

    func lookupAlias(_ name: String) -> String? { nearest { $0.typeAliases[name] } }

    func lookupBuiltinExtension(_ name: String) -> DeclaredType? { nearest { $0.builtinExtensions[name] } }
    /// The struct or enum whose method or computed property this is.
    var selfType: DeclaredType?
    /// The generic parameters written here (a generic type's `Element`
    /// in its methods, a func's `T`): types the compiler does not know.
    var typeParameters: [String] = []

    /// Whether `name` is a generic parameter of an enclosing type or func.
    func isTypeParameter(_ name: String) -> Bool {
        var scope: Scope? = self
        while let s = scope {
            if s.typeParameters.contains(name) { return true }
            scope = s.parent
        }
        return false
    }
    /// A static method's scope: it has no `self`.
    var isStatic = false
    /// Inside a `mutating` method.
    var isMutating = false
    /// The body of a class's `init`, where `super.init` and `self.init` run.
    var isInitialiser = false
    /// Which of `self`'s properties this method assigns without running
    /// their observers: those its type declares, in an initialiser; the
    /// property observed, in a `willSet` or `didSet` (as in Swift).
    enum DirectStores { case none, declaredProperties, property(String) }
    var directStores = DirectStores.none
    /// The body of an `init?`, where `return nil` makes nil.
    var isFailableInitialiser = false
    /// A closure written with `[weak self]` or `[unowned self]`.
    var capturesSelfWeakly = false
    /// A class's method whose closures use `self` without `[weak self]`:
    /// its frame keeps the object, as Swift's strong capture does.
    var selfCapturedStrongly = false
    /// While the body of a closure that may be specialised compiles (see
    /// Specialisation.swift): how many parameters it takes. Kept on the
    /// closure's scope, which owns the frame its body's blocks share.
    var specialising: Int?
    /// Slots of parameters the closure's body assigns or changes.
    var changedParameters: Set<Int> = []

    /// The first answer `find` gives, from this scope outwards.
    func nearest<T>(_ find: (Scope) -> T?) -> T? {
        var scope: Scope? = self
        while let s = scope {
            if let found = find(s) { return found }
            scope = s.parent
        }
        return nil
    }

    /// Whether `name` is a `let` whose value is surely a stream (`let s =
    /// cold("-a|").map { }`): a method called on one is checked as the
    /// operator's before the script runs.
    func isKnownStream(_ name: String) -> Bool { resolve(name)?.entry.isKnownStream ?? false }

    init(kind: Kind, parent: Scope?) {
        self.kind = kind
        self.parent = parent
        sharesFrame = false
        frameOwner = nil
        frameOwner = kind == .block ? parent!.frameOwner : self
    }

    /// A script's scope whose names live in `owner`'s frame: a graded file
    /// and the key's tests each have their own names, side by side under
    /// the key's given declarations, in the one frame of the run.
    init(scriptSharingFrameOf owner: Scope) {
        kind = .script
        parent = owner
        sharesFrame = true
        frameOwner = nil
        frameOwner = owner.frameOwner
    }

    private let sharesFrame: Bool

    var ownsFrame: Bool { kind != .block && !sharesFrame }

    /// Makes `other`'s names and types visible here too, the same slots,
    /// except those `keeping` refuses: the key's tests see the names a
    /// graded file defines, but never in place of the language's own.
    /// Both scopes must share a frame.
    func adopt(_ other: Scope, keeping: (String) -> Bool) {
        for (name, slot) in other.declaredNames where keeping(name) && entries[name] == nil {
            guard let entry = other.entries[name] else { continue }
            entries[name] = entry
            declaredNames.append((name, slot))
        }
        for (name, type) in other.types where keeping(name) && types[name] == nil { types[name] = type }
        for (name, alias) in other.typeAliases where keeping(name) && typeAliases[name] == nil { typeAliases[name] = alias }
        for (name, declaration) in other.protocols where keeping(name) && protocols[name] == nil { protocols[name] = declaration }
    }

    /// Adds a slot; nil when the name is already declared in this scope.
    func declare(_ name: String, at span: Span, as binding: Binding = .constant, function: FunctionInfo? = nil,
                 isKnownStream: Bool = false, type: StaticType = .unknown, typeIsWritten: Bool = false) -> Int? {
        if entries[name] != nil { return nil }
        let slot = frameOwner.allocate()
        entries[name] = Entry(slot: slot, binding: binding, span: span, function: function, isKnownStream: isKnownStream,
                              type: type, typeIsWritten: typeIsWritten)
        declaredNames.append((name, slot))
        return slot
    }

    /// Gives a name declared here the type its value surely has.
    func setType(_ type: StaticType, of name: String, isWritten: Bool) {
        entries[name]?.type = type
        entries[name]?.typeIsWritten = isWritten
    }

    /// A hidden slot (parameters of `$n` closures, loop state).
    func reserve() -> Int { frameOwner.allocate() }

    private func allocate() -> Int {
        count += 1
        return count - 1
    }

    func previousDeclaration(of name: String) -> Span? { entries[name]?.span }

    /// Where a name lives: how many frames up, and the slot there.
    func lookup(_ name: String) -> (depth: Int, slot: Int)? {
        resolve(name).map { ($0.depth, $0.entry.slot) }
    }

    /// Where a name lives and how it was declared.
    func resolve(_ name: String) -> (depth: Int, entry: Entry)? {
        var scope: Scope? = self
        var depth = 0
        while let s = scope {
            if let entry = s.entries[name] { return (depth, entry) }
            if s.ownsFrame { depth += 1 }
            scope = s.parent
        }
        return nil
    }

    /// The scope that declares `name`, as seen from here.
    func declaringScope(of name: String) -> Scope? {
        var scope: Scope? = self
        while let s = scope {
            if s.entries[name] != nil { return s }
            scope = s.parent
        }
        return nil
    }

    /// Frames between this scope and `ancestor`'s frame.
    func depth(to ancestor: Scope) -> Int {
        var scope: Scope? = self
        var depth = 0
        while let s = scope, s.frameOwner !== ancestor.frameOwner {
            if s.ownsFrame { depth += 1 }
            scope = s.parent
        }
        return depth
    }

    /// Every name visible from here, for suggestions.
    var visibleNames: [String] {
        var names: [String] = []
        var scope: Scope? = self
        while let s = scope {
            names += s.entries.keys
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

    /// The innermost method or computed property's scope, where `self` is.
    var methodScope: Scope? {
        var scope: Scope? = self
        while let s = scope {
            if s.selfType != nil { return s }
            scope = s.parent
        }
        return nil
    }

    /// Whether `name` is declared in this scope or one up to `boundary`.
    func declares(_ name: String, upTo boundary: Scope) -> Bool {
        var scope: Scope? = self
        while let s = scope {
            if s.entries[name] != nil { return true }
            if s === boundary { return false }
            scope = s.parent
        }
        return false
    }

    func lookupType(_ name: String) -> DeclaredType? { nearest { $0.types[name] } }

    /// Whether a class of the script is visible from here: then a `let`
    /// may hold an object whose properties change, which is known only
    /// when the script runs.
    var seesClasses: Bool { nearest { $0.types.values.contains(where: \.isClass) ? true : nil } ?? false }

    /// Every struct and enum visible from here, innermost first.
    var visibleTypes: [DeclaredType] {
        var types: [DeclaredType] = []
        var scope: Scope? = self
        while let s = scope {
            if !s.types.isEmpty { types += s.types.values.sorted { $0.name < $1.name } }
            if !s.builtinExtensions.isEmpty { types += s.builtinExtensions.values.sorted { $0.name < $1.name } }
            scope = s.parent
        }
        return types
    }
}
