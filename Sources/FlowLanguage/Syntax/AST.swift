import FlowRuntime

/// The syntax tree. Every node keeps its span for diagnostics and for the
/// locations of errors raised while it runs.
public indirect enum Expr {
    case literal(Value, Span)
    case string([StringPart], Span)
    case name(String, Span)
    /// `$0`, `$1`
    case shorthand(Int, Span)
    case array([Expr], Span)
    case dictionary([(key: Expr, value: Expr)], Span)
    case tuple([Expr], labels: [String?], Span)
    case closure(Closure)
    case unary(op: PrefixOperator, Expr, Span)
    case binary(op: BinaryOperator, Expr, Expr, opSpan: Span, Span)
    case ternary(Expr, Expr, Expr, Span)
    case member(Expr, String, nameSpan: Span, Span)
    case subscriptAccess(Expr, Expr, Span)
    case call(callee: Expr, arguments: [CallArgument], Span)
    /// `.seconds(1)`, `.finished`: Swift's implicit member expression.
    case implicitMember(String, Span)
    /// `\.name`, `\User.address.city`: a key path, which reads those
    /// members of a value (the type's name is not kept).
    case keyPath([String], Span)
    /// The `x?` of `x?.y`: nil there makes the enclosing `optionalChain` nil.
    case optionalBind(Expr, Span)
    /// A postfix chain with a `?.` in it (`user?.address.city`).
    case optionalChain(Expr, Span)
    /// `x!`: the value, or an error where it is nil.
    case forceUnwrap(Expr, Span)
    /// `&x`: a variable passed to an `inout` parameter.
    case inoutArgument(Expr, Span)
    /// `x is T`, `x as? T`, `x as! T`: a test of the value's type, written
    /// as the type's text (`[Int]`, `Currency`) with its span.
    case typeCheck(Expr, TypeCheck, type: String, typeSpan: Span, Span)
    /// `try? e`: nil where `e` throws.
    case attempt(Expr, Span)
    /// `if` used for its value (`let x = if c { 1 } else { 2 }`), or as a
    /// statement: the value of the branch taken.
    case conditional(IfExpression)
    /// `switch`, as a statement or for its value.
    case switchOver(SwitchExpression)
    /// Swift's one-sided ranges, `xs[2...]`, `case ..<0:`: a bound and
    /// which side it closes; read in a subscript and a case pattern.
    case oneSidedRange(OneSidedRange, Expr, Span)

    public var span: Span {
        switch self {
        case .literal(_, let s), .string(_, let s), .name(_, let s), .shorthand(_, let s), .array(_, let s),
             .dictionary(_, let s), .tuple(_, _, let s), .unary(_, _, let s), .binary(_, _, _, _, let s),
             .ternary(_, _, _, let s), .member(_, _, _, let s), .subscriptAccess(_, _, let s), .call(_, _, let s),
             .implicitMember(_, let s), .keyPath(_, let s), .optionalBind(_, let s), .optionalChain(_, let s), .forceUnwrap(_, let s),
             .inoutArgument(_, let s), .typeCheck(_, _, _, _, let s), .attempt(_, let s), .oneSidedRange(_, _, let s):
            return s
        case .closure(let c): return c.span
        case .conditional(let c): return c.span
        case .switchOver(let s): return s.span
        }
    }
}

/// One `catch` of a `do`: bare (binding `error`), `catch let e`,
/// `catch let e as T`, `catch is T`, or a pattern (`catch Failure.tooBig(let n)`).
public struct CatchClause {
    public var pattern: Pattern?
    /// `as T` or `is T`: the thrown value must be of that type.
    public var type: (name: String, span: Span)?
    public var body: [Statement]
    public var span: Span

    /// A bare `catch`, which catches everything as `error`.
    public var isBare: Bool { pattern == nil && type == nil }
}

public enum TypeCheck: Sendable {
    /// `is`: whether the value is of the type.
    case test
    /// `as?`: the value if it is of the type, else nil.
    case conditional
    /// `as!`: the value, or an error where it is not of the type.
    case forced
    /// `as`: the value read as the type (`5 as Double` is 5.0, `x as Any`
    /// keeps x's type).
    case coercion
}

public enum StringPart {
    case text(String)
    case interpolation(Expr)
}

public struct CallArgument {
    public var label: String?
    public var labelSpan: Span?
    public var value: Expr
    /// Written as a trailing closure after the parentheses.
    public var isTrailing: Bool
}

public final class Closure {
    /// Named parameters (`_` for one that is ignored); nil when none are
    /// declared (the body may use `$0`, `$1`).
    public var parameters: [(name: String, span: Span)]?
    public var body: [Statement]
    public var span: Span
    /// `[weak self]` or `[unowned self]`: the closure does not keep the
    /// object its method runs on.
    public var capturesSelfWeakly = false
    /// `{ (x: Double) -> Double in ... }`: the types written, where they are.
    public var parameterTypes: [TypeText?] = []
    public var resultType: TypeText?

    init(parameters: [(name: String, span: Span)]?, body: [Statement], span: Span, capturesSelfWeakly: Bool = false) {
        self.parameters = parameters
        self.body = body
        self.span = span
        self.capturesSelfWeakly = capturesSelfWeakly
    }
}

/// A type as the script wrote it, read by `TypeSyntax(parsing:)` where it
/// is compiled.
public struct TypeText {
    public var text: String
    public var span: Span
}

public enum Statement {
    /// `let x = e`; `var x = e` (mutable), `var x: T` (nil until assigned);
    /// `type` is the annotation, where written.
    case binding(name: String, nameSpan: Span, type: TypeText?, value: Expr?, isVariable: Bool, Span)
    /// `let (a, b) = pair`
    case destructuring(Pattern, value: Expr, isVariable: Bool, Span)
    case expression(Expr)
    case test(name: String, body: [Statement], Span)
    case `return`(Expr?, Span)
    /// `x = e`, `x += e`, `s.count -= 1`, `d[k] = nil`.
    case assignment(target: Expr, op: AssignmentOperator, value: Expr, opSpan: Span, Span)
    case `guard`([Condition], else: [Statement], Span)
    case `while`([Condition], body: [Statement], Span)
    case `repeat`(body: [Statement], condition: Expr, Span)
    case `for`(Pattern, in: Expr, where: Expr?, body: [Statement], Span)
    case `break`(Span)
    case `continue`(Span)
    case function(FunctionDeclaration)
    case type(TypeDeclaration)
    /// `throw e`
    case `throw`(Expr, Span)
    /// `typealias Price = Double`: another name for a type;
    /// `typealias Pair<T> = (T, T)` has the generic parameters `T`.
    case typeAlias(name: String, nameSpan: Span, parameters: [String], type: String, Span)
    /// `do { } catch pattern { } catch { }`
    case doCatch(body: [Statement], catches: [CatchClause], Span)

    public var span: Span {
        switch self {
        case .binding(_, _, _, _, _, let s), .destructuring(_, _, _, let s), .test(_, _, let s), .return(_, let s),
             .assignment(_, _, _, _, let s), .guard(_, _, let s), .while(_, _, let s), .repeat(_, _, let s),
             .for(_, _, _, _, let s), .break(let s), .continue(let s), .throw(_, let s), .doCatch(_, _, let s), .typeAlias(_, _, _, _, let s):
            return s
        case .expression(let e): return e.span
        case .function(let f): return f.span
        case .type(let t): return t.span
        }
    }
}

extension Statement {
    var isTest: Bool { if case .test = self { true } else { false } }
}

/// One condition of `if`, `guard` or `while`; a list of them is joined
/// with `&&`, and names bound by one are visible to the next.
public enum Condition {
    case boolean(Expr)
    /// `let x = e` (or `let x`, meaning `let x = x`): true when e is not nil.
    case optionalBinding(name: String, nameSpan: Span, value: Expr, isVariable: Bool)
    /// `case .loaded(let v) = e`
    case matching(Pattern, Expr)
}

public final class IfExpression {
    public let conditions: [Condition]
    public let body: [Statement]
    /// The `else` block; an `else if` is a block of one `if`.
    public let elseBody: [Statement]?
    public let span: Span

    init(conditions: [Condition], body: [Statement], elseBody: [Statement]?, span: Span) {
        self.conditions = conditions
        self.body = body
        self.elseBody = elseBody
        self.span = span
    }
}

public final class SwitchExpression {
    public struct Case {
        /// Empty for `default`.
        public var patterns: [Pattern]
        public var guardExpr: Expr?
        public var body: [Statement]
        public var span: Span
    }

    public let subject: Expr
    public let cases: [Case]
    public let span: Span

    init(subject: Expr, cases: [Case], span: Span) {
        self.subject = subject
        self.cases = cases
        self.span = span
    }
}

/// What `case`, `for` and `let ( )` match a value against.
public indirect enum Pattern {
    case wildcard(Span)
    /// A name that the matched value is bound to.
    case binding(String, Span)
    /// A value compared with `==`, or a range that must contain it.
    case expression(Expr)
    case tuple([Pattern], labels: [String?], Span)
    /// `.loaded(let v)`, `Action.reset`, `.some(let v)`, `.none`.
    case enumCase(type: String?, name: String, arguments: [Pattern]?, labels: [String?], Span)
    /// `let v?`: a value that is not nil.
    case some(Pattern, Span)

    public var span: Span {
        switch self {
        case .wildcard(let s), .binding(_, let s), .tuple(_, _, let s), .enumCase(_, _, _, _, let s), .some(_, let s): return s
        case .expression(let e): return e.span
        }
    }
}

public struct FunctionParameter {
    /// The argument label callers write; nil for `_`.
    public var label: String?
    public var name: String
    public var nameSpan: Span
    public var defaultValue: Expr?
    public var isInout: Bool
    /// The parameter's type, as written.
    public var type: TypeText?
}

public final class FunctionDeclaration {
    public let name: String
    public let nameSpan: Span
    public let parameters: [FunctionParameter]
    public let body: [Statement]
    /// A `mutating` method of a struct.
    public let isMutating: Bool
    /// `static func`: called on the type.
    public let isStatic: Bool
    /// `init?(...)`: an initialiser that may give nil.
    public let isFailable: Bool
    /// `-> T`; nil where none is written: a `func` then returns `()`.
    public var resultType: TypeText?
    /// Written with `func` (not an `init`, a getter or a `deinit`).
    public var isFunc = false
    /// `@discardableResult`: a call of it as a statement drops its value
    /// (a stream it returns is not subscribed).
    public var isDiscardableResult = false
    /// `func first<T>(...)`: its generic parameters' names.
    public var genericParameters: [String] = []
    public let span: Span

    init(name: String, nameSpan: Span, parameters: [FunctionParameter], body: [Statement], isMutating: Bool, isStatic: Bool,
         isFailable: Bool = false, span: Span) {
        self.name = name
        self.nameSpan = nameSpan
        self.parameters = parameters
        self.body = body
        self.isMutating = isMutating
        self.isStatic = isStatic
        self.isFailable = isFailable
        self.span = span
    }
}

/// A `struct` or `enum` declaration.
public final class TypeDeclaration {
    public enum Kind {
        case `struct`, `enum`, `extension`, `protocol`, `class`

        public var word: String {
            switch self {
            case .class: "class"
            case .struct: "struct"
            case .enum: "enum"
            case .extension: "extension"
            case .protocol: "protocol"
            }
        }
    }

    public struct StoredProperty {
        public var name: String
        public var span: Span
        public var defaultValue: Expr?
        public var isVariable: Bool
        /// `@Published var`, in a class.
        public var isPublished = false
        /// `lazy var`, in a class: its value is made when first read, and
        /// may use `self`.
        public var isLazy = false
        /// Typed as an optional (`var delegate: Owner?`): nil until set.
        public var isOptional = false
        /// `weak var` or `unowned var`, in a class: it does not keep the
        /// object it refers to.
        public var isWeak = false
        /// The property's type, as written.
        public var type: TypeText?
        /// `willSet { }` and `didSet { }`: run around each assignment from
        /// outside the type's initialisers and the observers themselves.
        public var willSet: PropertyAccessor?
        public var didSet: PropertyAccessor?
    }

    public struct ComputedProperty {
        public var name: String
        public var span: Span
        public var body: [Statement]
        public var isStatic: Bool
        /// The property's type, as written.
        public var type: TypeText?
        /// `set { }`, with its getter in `body`.
        public var setter: PropertyAccessor?
    }

    /// A property's `set`, `willSet` or `didSet`: a body given one value,
    /// named `newValue` (`oldValue` for `didSet`) unless the accessor names it.
    public struct PropertyAccessor {
        public var parameter: String
        public var parameterSpan: Span
        public var body: [Statement]
        /// From its word (`didSet`) to the end of its body.
        public var span: Span
        /// `set`, `willSet` or `didSet`.
        public var word: String
    }

    public struct EnumCase {
        public var name: String
        public var span: Span
        /// Labels of the associated values (nil for unlabelled ones); nil
        /// when the case has none.
        public var associated: [String?]?
        public var rawValue: Expr?
    }

    public let kind: Kind
    public let name: String
    public let nameSpan: Span
    /// The first inherited name (`String` in `enum Currency: String`).
    public let rawType: String?
    public let conformances: [String]
    public let stored: [StoredProperty]
    /// `static let`s of the type.
    public let staticStored: [StoredProperty]
    public let computed: [ComputedProperty]
    public let methods: [FunctionDeclaration]
    public let cases: [EnumCase]
    public let nested: [TypeDeclaration]
    /// A protocol's member: what each conforming type must have.
    public struct Requirement {
        public var name: String
        public var span: Span
        public var isStatic: Bool
    }

    /// A protocol's requirements, by name.
    public var requirements: [Requirement] = []
    /// The type parameters of a generic type (`Element` of `struct Stack<Element>`).
    public var genericParameters: [String] = []
    /// `typealias State = [String: Int]` inside the type: known as `State`
    /// and as `Store.State`.
    public var typeAliases: [(name: String, parameters: [String], type: String)] = []
    /// A class's `init`s, in the order written.
    public var initialisers: [FunctionDeclaration] = []
    /// A class's `deinit { }` body.
    public var deinitialiser: [Statement]?

    /// The `set`, `willSet` and `didSet` of its properties, in the order written.
    public var accessors: [PropertyAccessor] {
        stored.flatMap { [$0.willSet, $0.didSet].compactMap { $0 } } + computed.compactMap(\.setter)
    }
    public let span: Span

    init(kind: Kind, name: String, nameSpan: Span, rawType: String?, conformances: [String], stored: [StoredProperty],
         staticStored: [StoredProperty], computed: [ComputedProperty], methods: [FunctionDeclaration], cases: [EnumCase],
         nested: [TypeDeclaration], span: Span) {
        self.kind = kind
        self.name = name
        self.nameSpan = nameSpan
        self.rawType = rawType
        self.conformances = conformances
        self.stored = stored
        self.staticStored = staticStored
        self.computed = computed
        self.methods = methods
        self.cases = cases
        self.nested = nested
        self.span = span
    }
}

/// A parsed script.
public struct Script {
    public var file: SourceFile
    public var statements: [Statement]
}
