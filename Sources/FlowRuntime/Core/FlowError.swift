/// An error travelling in a stream: a value (usually a message) and, when
/// script code raised it, where.
///
/// Like every runtime value it lives on the one event loop that delivers
/// events, which is why the `Sendable` that `Error` demands is unchecked.
public struct FlowError: Error, @unchecked Sendable, CustomStringConvertible {
    public var value: Value
    public var location: SourceLocation?
    /// Raised by a script's `throw`: what `do`/`catch` and `try?` handle.
    /// (An index out of range is not: Swift would trap there.)
    public var isThrown = false

    public init(_ value: Value, at location: SourceLocation? = nil) {
        self.value = value
        self.location = location
    }

    public init(_ message: String, at location: SourceLocation? = nil) {
        self.init(.string(message), at: location)
    }

    /// The error as text: its message when it is a string (or a record with
    /// a `message`, such as an HTTP error carrying its status), else its
    /// printed value.
    public var message: String {
        if case .string(let s) = value { return s }
        if case .tuple(let t) = value, let m = t.element(labelled: "message") { return m.description }
        return value.description
    }

    public var description: String {
        guard let location else { return message }
        return "\(location): \(message)"
    }

    /// Any Swift error as a stream error; a FlowError stays as it is.
    public static func wrap(_ error: any Error) -> FlowError {
        if let flow = error as? FlowError { return flow }
        return FlowError(String(describing: error))
    }

    /// Fill in a location only where none is known yet.
    public func located(at location: SourceLocation?) -> FlowError {
        guard self.location == nil, let location else { return self }
        return FlowError(value, at: location)
    }

    // The built-in errors have the short messages the contract names.
    public static let timeout = FlowError("timeout")
    public static let noElements = FlowError("no elements")
    public static let moreThanOneElement = FlowError("more than one element")
    public static func argumentOutOfRange(_ what: String) -> FlowError { FlowError("argument out of range: \(what)") }
}

/// The three kinds of event of the Rx contract `next* (error | completed)?`.
public enum Event {
    case next(Value)
    case error(FlowError)
    case completed

    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The event as a Swift `Result`, CwlSignal's: `.success(v)`, or
    /// `.failure(e)` for an end, a completion's `e` being `"complete"`.
    public var asResult: Value {
        switch self {
        case .next, .error: .event(self, .result)
        case .completed: .event(.error(FlowError(.string("complete"))), .result)
        }
    }

    /// The event, its error (if any) given `location` when it has none.
    public func located(at location: SourceLocation?) -> Event {
        if case .error(let error) = self { return .error(error.located(at: location)) }
        return self
    }

    /// How an event prints: RxSwift's `completed` and `error(e)`,
    /// Combine's `Subscribers.Completion`, `finished` and `failure(e)`, or
    /// a Swift `Result` (CwlSignal's), `success(v)` and `failure(e)`.
    public enum Spelling: Sendable {
        case reactiveX, combine, result
    }
}
