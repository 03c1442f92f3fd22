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
    case unary(op: String, Expr, Span)
    case binary(op: String, Expr, Expr, opSpan: Span, Span)
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

    public var span: Span {
        switch self {
        case .literal(_, let s), .string(_, let s), .name(_, let s), .shorthand(_, let s), .array(_, let s),
             .dictionary(_, let s), .tuple(_, _, let s), .unary(_, _, let s), .binary(_, _, _, _, let s),
             .ternary(_, _, _, let s), .member(_, _, _, let s), .subscriptAccess(_, _, let s), .call(_, _, let s),
             .implicitMember(_, let s), .keyPath(_, let s), .optionalBind(_, let s), .optionalChain(_, let s), .forceUnwrap(_, let s):
            return s
        case .closure(let c): return c.span
        }
    }
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

    init(parameters: [(name: String, span: Span)]?, body: [Statement], span: Span) {
        self.parameters = parameters
        self.body = body
        self.span = span
    }
}

public enum Statement {
    case binding(name: String, nameSpan: Span, value: Expr, Span)
    case expression(Expr)
    case test(name: String, body: [Statement], Span)
    case `return`(Expr?, Span)

    public var span: Span {
        switch self {
        case .binding(_, _, _, let s), .test(_, _, let s), .return(_, let s): return s
        case .expression(let e): return e.span
        }
    }
}

/// A parsed script.
public struct Script {
    public var file: SourceFile
    public var statements: [Statement]
}
