/// Whose semantics a run follows where the reactive libraries disagree.
/// Names are shared by every dialect; a dialect only changes what an
/// operator does at the points docs/semantics.md lists, one row each.
///
/// Operators read it once, when they are built from a call, so a run pays
/// nothing per event for it.
public enum Dialect: String, CaseIterable, Sendable {
    /// The project's own documented choices, without an import.
    case flow
    case rxSwift = "RxSwift"
    case combine = "Combine"
    case rxJS = "RxJS"
    case cwlSignal = "CwlSignal"

    /// The dialect a Swift or JavaScript module's import chooses:
    /// `import RxCocoa` is RxSwift's, `import OpenCombine` Combine's.
    /// Other modules (`Foundation`, `UIKit`) choose none.
    public init?(module: String) {
        switch module {
        case "RxSwift", "RxCocoa", "RxRelay", "RxTest", "RxBlocking": self = .rxSwift
        case "Combine", "OpenCombine", "OpenCombineFoundation", "OpenCombineDispatch": self = .combine
        case "RxJS", "rxjs": self = .rxJS
        case "CwlSignal": self = .cwlSignal
        default: return nil
        }
    }

    /// A dialect by name, as `--dialect` and `:dialect` take it: any case.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = found
    }

    /// The names `--dialect` accepts, for help and errors.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The error a stream without the element asked for ends with
    /// (`first()`, `last()`, `single()`, `reduce` of nothing), in the
    /// dialect's words.
    public var noElements: FlowError {
        switch self {
        case .rxJS: FlowError("no elements in sequence")
        case .rxSwift: FlowError("Sequence doesn't contain any elements.")
        default: .noElements
        }
    }

    /// The error of a second element where one was expected (`single()`).
    public var moreThanOneElement: FlowError {
        switch self {
        case .rxJS: FlowError("Too many matching values")
        case .rxSwift: FlowError("Sequence contains more than one element.")
        default: .moreThanOneElement
        }
    }

    /// The error of `timeout` when it fires; nil where the stream just
    /// completes instead (Combine).
    public var timeoutError: FlowError? {
        switch self {
        case .combine: nil
        case .rxJS: FlowError("Timeout has occurred")
        case .rxSwift: FlowError("Sequence timeout.")
        default: .timeout
        }
    }

    /// The dialect of an RxJS-only function (`firstValueFrom`): RxJS's own
    /// behaviour unless a library was chosen.
    public var orRxJS: Dialect { self == .flow ? .rxJS : self }

    /// How a completion or an error prints when a script prints it.
    public var completionSpelling: Event.Spelling { self == .combine ? .combine : .reactiveX }
}
